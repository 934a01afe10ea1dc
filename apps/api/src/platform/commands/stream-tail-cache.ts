import type { EventStore, StoredEvent } from '../event-store/event-store.port';

/**
 * What the cache keeps of an event: what a decision folds (type and data) and what its append checks
 * (version, position). Not the metadata nor the stream id: about a third of a decoded event's size.
 */
export type CachedEvent = Pick<StoredEvent, 'streamVersion' | 'position' | 'type' | 'data'>;

/** What a StreamTailCache keeps at most: each generation is full when it reaches either count. */
export interface StreamTailCacheLimits {
  /** streams read most recently that are always kept (if their events fit `events`) */
  streams: number;
  /**
   * events held in a generation: a stream grows by an event per scan (a day of a card scanned again
   * and again, each duplicate one event), so a count of streams alone bounds nothing. A stream with
   * more than a quarter of this is not kept at all: it is read whole each time.
   */
  events: number;
}

/**
 * Streams as this process last read them, by id, for a handler that reads the same small streams again
 * and again (a door's reader, the cards it sees, their holders' days): a read fetches only the events
 * after the cached version, so the store is still asked every time (another process's appends and this
 * one's are seen) but old events are neither read nor decoded again. A conflict at append time decides
 * again on a fresh tail. Only for streams without personal data (docs/adr/0015): what an erasure
 * replaces in the store would live on here.
 *
 * Two generations instead of a least-recently-used list: a read finds a stream in the current one or
 * moves it there from the previous one; when the current one is full (`limits.streams` streams or
 * `limits.events` events) it becomes the previous one and the oldest generation goes. So the streams
 * read most recently are always kept (up to either count), at most twice either count is held (a
 * generation that a stream would take past the events limit is full before it), and a read that finds
 * its stream current and unchanged writes nothing.
 */
export class StreamTailCache {
  private current = new Map<string, readonly CachedEvent[]>();
  private previous = new Map<string, readonly CachedEvent[]>();
  /** events of the streams in `current` (their latest lists) */
  private currentEvents = 0;
  /** events of the streams in `previous` when it was current */
  private previousEvents = 0;
  /** a stream with more events than this is not kept */
  private readonly streamEventsMax: number;

  constructor(private readonly limits: StreamTailCacheLimits) {
    if (!(limits.streams >= 1 && limits.events >= 1)) throw new Error(`StreamTailCache limits must be at least 1: ${JSON.stringify(limits)}`);
    this.streamEventsMax = Math.max(1, Math.floor(limits.events / 4));
  }

  /** what the cache holds now: streams and events of both generations (a stream in both counts twice) */
  get held(): { streams: number; events: number } {
    return { streams: this.current.size + this.previous.size, events: this.currentEvents + this.previousEvents };
  }

  async read(store: EventStore, streamId: string): Promise<readonly CachedEvent[]> {
    return (await this.readMany(store, [streamId]))[0];
  }

  /** several streams in one read of the store (`readStreams`): each from after its cached version */
  async readMany(store: EventStore, streamIds: readonly string[]): Promise<Array<readonly CachedEvent[]>> {
    const cached = streamIds.map((streamId) => this.current.get(streamId) ?? this.previous.get(streamId));
    const tails = await store.readStreams(streamIds.map((streamId, index) => ({ streamId, fromVersion: nextVersion(cached[index]) })));
    return streamIds.map((streamId, index) => this.remember(streamId, cached[index], tails[index]));
  }

  private remember(streamId: string, cached: readonly CachedEvent[] | undefined, tail: readonly StoredEvent[]): readonly CachedEvent[] {
    const current = this.current.get(streamId);
    // unchanged and already current (the same array: a read of the same stream in between did not move it)
    if (current && tail.length === 0 && current === cached) return current;
    const base = current && current !== cached && nextVersion(current) > nextVersion(cached) ? current : cached;
    const fresh = tail.filter((event) => event.streamVersion >= nextVersion(base)).map(({ streamVersion, position, type, data }): CachedEvent => ({ streamVersion, position, type, data }));
    const events = base?.length ? (fresh.length ? [...base, ...fresh] : base) : fresh;
    if (events.length > this.streamEventsMax) {
      // too long to keep: forgotten in both generations (read whole again next time)
      this.currentEvents -= this.current.get(streamId)?.length ?? 0;
      this.previousEvents -= this.previous.get(streamId)?.length ?? 0;
      this.current.delete(streamId);
      this.previous.delete(streamId);
      return events;
    }
    // a generation never holds more than the events limit: one that this stream would take past it goes first
    if (this.currentEvents + events.length - (current?.length ?? 0) > this.limits.events) this.nextGeneration();
    this.currentEvents += events.length - (this.current.get(streamId)?.length ?? 0);
    this.current.set(streamId, events);
    if (this.current.size >= this.limits.streams || this.currentEvents >= this.limits.events) this.nextGeneration();
    return events;
  }

  /** the current generation becomes the previous one, the previous one goes */
  private nextGeneration(): void {
    this.previous = this.current;
    this.previousEvents = this.currentEvents;
    this.current = new Map();
    this.currentEvents = 0;
  }
}

/** the version after a cached stream's last event (0 for none) */
function nextVersion(events: readonly CachedEvent[] | undefined): number {
  return events?.length ? events[events.length - 1].streamVersion + 1 : 0;
}
