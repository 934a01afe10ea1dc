import type { EventStore, StoredEvent } from '../event-store/event-store.port';

/**
 * Streams as this process last read them, by id, for a handler that reads the same small streams again
 * and again (a door's reader, the cards it sees, their holders' days): a read fetches only the events
 * after the cached version, so the store is still asked every time (another process's appends and this
 * one's are seen) but old events are neither read nor decoded again. A conflict at append time decides
 * again on a fresh tail. Only for streams without personal data (docs/adr/0015): what an erasure
 * replaces in the store would live on here.
 *
 * Two generations instead of a least-recently-used list: a read finds a stream in the current one or
 * moves it there from the previous one; when the current one is full it becomes the previous one and
 * the oldest generation goes. So the `limit` streams read most recently are always kept (at most twice
 * as many are), and a read that finds its stream current and unchanged writes nothing.
 */
export class StreamTailCache {
  private current = new Map<string, readonly StoredEvent[]>();
  private previous = new Map<string, readonly StoredEvent[]>();

  constructor(
    /** streams read most recently that are always kept */
    private readonly limit: number,
  ) {}

  async read(store: EventStore, streamId: string): Promise<readonly StoredEvent[]> {
    return (await this.readMany(store, [streamId]))[0];
  }

  /** several streams in one read of the store (`readStreams`): each from after its cached version */
  async readMany(store: EventStore, streamIds: readonly string[]): Promise<Array<readonly StoredEvent[]>> {
    const cached = streamIds.map((streamId) => this.current.get(streamId) ?? this.previous.get(streamId));
    const tails = await store.readStreams(streamIds.map((streamId, index) => ({ streamId, fromVersion: nextVersion(cached[index]) })));
    return streamIds.map((streamId, index) => this.remember(streamId, cached[index], tails[index]));
  }

  private remember(streamId: string, cached: readonly StoredEvent[] | undefined, tail: readonly StoredEvent[]): readonly StoredEvent[] {
    const current = this.current.get(streamId);
    // unchanged and already current (the same array: a read of the same stream in between did not move it)
    if (current && tail.length === 0 && current === cached) return current;
    const base = current && current !== cached && nextVersion(current) > nextVersion(cached) ? current : cached;
    const fresh = tail.filter((event) => event.streamVersion >= nextVersion(base));
    const events = base?.length ? (fresh.length ? [...base, ...fresh] : base) : fresh;
    this.current.set(streamId, events);
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    return events;
  }
}

/** the version after a cached stream's last event (0 for none) */
function nextVersion(events: readonly StoredEvent[] | undefined): number {
  return events?.length ? events[events.length - 1].streamVersion + 1 : 0;
}
