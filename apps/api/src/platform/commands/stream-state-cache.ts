import type { Decider, DomainEvent } from '@rollcall/domain';
import type { AppendResult, EventStore } from '../event-store/event-store.port';
import type { LoadedStream } from './multi-stream';

/**
 * Streams as this process last folded them, by id: per stream its decider's state and the version it
 * is folded to, not its events, for a handler that decides on the same long streams again and again
 * (an account's attendance day grows by an event per scan, duplicates included). A read asks the store
 * for the events after the cached version only (`readStreams`), so another process's appends are seen
 * and only they are folded; a decision's own appends fold in after they are written (`appended`). A
 * conflict at append time decides again on a fresh tail. Memory is a state per stream, whatever the
 * stream's length. Only for streams without personal data (docs/adr/0015): what an erasure replaces
 * in the store would live on here.
 *
 * Two generations, as StreamTailCache: a read finds a stream in the current one or moves it there from
 * the previous one; when the current one holds `streams` streams it becomes the previous one and the
 * oldest goes. A state is only ever replaced by one folded to a later version (two requests of this
 * process reading or appending the same stream at once leave the newest).
 */
export class StreamStateCache<State, Event extends DomainEvent> {
  private current = new Map<string, LoadedStream<State>>();
  private previous = new Map<string, LoadedStream<State>>();

  constructor(
    private readonly decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
    private readonly streams: number,
  ) {
    if (!(streams >= 1)) throw new Error(`StreamStateCache must keep at least 1 stream: ${streams}`);
  }

  /** streams held in both generations (a stream in both counts twice) */
  get held(): number {
    return this.current.size + this.previous.size;
  }

  /** several streams in one read of the store, each from after its cached version, folded */
  async readMany(store: EventStore, streamIds: readonly string[]): Promise<Array<LoadedStream<State>>> {
    const cached = streamIds.map((streamId) => this.current.get(streamId) ?? this.previous.get(streamId));
    const tails = await store.readStreams(streamIds.map((streamId, index) => ({ streamId, fromVersion: nextVersion(cached[index]) })));
    return streamIds.map((streamId, index) => {
      const base = cached[index] ?? { streamId, state: this.decider.initialState(), expectedVersion: 'no_stream' as const, lastPosition: null };
      const from = nextVersion(base);
      let loaded = base;
      for (const event of tails[index]) {
        if (event.streamVersion < from) continue;
        loaded = { streamId, state: this.decider.evolve(loaded.state, { type: event.type, data: event.data } as Event), expectedVersion: event.streamVersion, lastPosition: event.position };
      }
      return this.remember(loaded);
    });
  }

  /**
   * A decision on `stream` (as `readMany` gave it) appended `events` with `result`: the state they
   * leave is the stream's at the result's version, kept unless a later one already is.
   */
  appended(stream: LoadedStream<State>, events: readonly Event[], result: Pick<AppendResult, 'nextExpectedVersion' | 'position'>): void {
    if (!events.length) return;
    const expectedBefore = stream.expectedVersion === 'no_stream' ? -1 : stream.expectedVersion;
    // an append that is not the decision's events right after the version read is not foldable here
    if (result.nextExpectedVersion !== expectedBefore + events.length) return;
    const state = events.reduce((folded, event) => this.decider.evolve(folded, event), stream.state);
    this.remember({ streamId: stream.streamId, state, expectedVersion: result.nextExpectedVersion, lastPosition: result.position });
  }

  private remember(loaded: LoadedStream<State>): LoadedStream<State> {
    const { streamId } = loaded;
    const current = this.current.get(streamId);
    // unchanged and already current: nothing to write
    if (current === loaded) return loaded;
    const kept = current ?? this.previous.get(streamId);
    // another read or append of this process already went further: keep that one
    const newest = kept && nextVersion(kept) > nextVersion(loaded) ? kept : loaded;
    if (current === newest) return loaded;
    this.current.set(streamId, newest);
    if (this.current.size >= this.streams) {
      this.previous = this.current;
      this.current = new Map();
    }
    return loaded;
  }
}

/** the version after a folded stream's last event (0 for none) */
function nextVersion(stream: LoadedStream<unknown> | undefined): number {
  return stream && stream.expectedVersion !== 'no_stream' ? stream.expectedVersion + 1 : 0;
}
