import type { EventStore, StoredEvent } from '../event-store/event-store.port';

/**
 * Streams as this process last read them, by id, for a handler that reads the same small streams again
 * and again (a door's reader, the cards it sees, their holders' days): a read fetches only the events
 * after the cached version, so the store is still asked every time (another process's appends and this
 * one's are seen) but old events are neither read nor decoded again. A conflict at append time decides
 * again on a fresh tail. Only for streams without personal data (docs/adr/0015): what an erasure
 * replaces in the store would live on here.
 */
export class StreamTailCache {
  private readonly streams = new Map<string, readonly StoredEvent[]>();

  constructor(
    /** streams kept; past it the least recently read goes */
    private readonly limit: number,
  ) {}

  async read(store: EventStore, streamId: string): Promise<readonly StoredEvent[]> {
    const cached = this.streams.get(streamId);
    const from = cached?.length ? cached[cached.length - 1].streamVersion + 1 : 0;
    const tail = await store.readStream(streamId, from);
    const events = cached && tail.length === 0 ? cached : cached?.length ? [...cached, ...tail] : tail;
    // re-inserted on every read: the Map's first key is the least recently read
    this.streams.delete(streamId);
    if (this.streams.size >= this.limit) this.streams.delete(this.streams.keys().next().value as string);
    this.streams.set(streamId, events);
    return events;
  }
}
