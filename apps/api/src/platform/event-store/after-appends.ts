import type { EventStore } from './event-store.port';

/**
 * The store with `listener` called after every append that wrote events, with how many: the one place
 * this process's appends are observed (counted for /metrics, announced to the projection worker).
 * A duplicate (an idempotent retry answered from its first result) wrote nothing and is not announced.
 */
export function afterAppends(store: EventStore, listener: (events: number) => void): EventStore {
  return {
    appendToStream: async (streamId, events, options) => {
      const result = await store.appendToStream(streamId, events, options);
      if (!result.duplicate) listener(events.length);
      return result;
    },
    appendToStreams: async (writes) => {
      const results = await store.appendToStreams(writes);
      listener(writes.reduce((sum, write) => sum + write.events.length, 0));
      return results;
    },
    readStream: (streamId, fromVersion) => store.readStream(streamId, fromVersion),
    readStreams: (reads) => store.readStreams(reads),
    readAll: (from, limit) => store.readAll(from, limit),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}

/** Listeners of this process's appends (the projection worker's host wakes the worker with it). */
export class AppendNotices {
  private readonly listeners = new Set<() => void>();

  appended(): void {
    for (const listener of this.listeners) listener();
  }

  /** returns the function that stops listening */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
