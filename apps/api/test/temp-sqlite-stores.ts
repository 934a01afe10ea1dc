import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { EventStore } from '../src/platform/event-store/event-store.port';
import { SqliteEventStore } from '../src/platform/event-store/sqlite-event-store';

/**
 * SQLite event stores on one events file in a fresh directory per test, closed and removed after it:
 * `open()` twice is two API processes on the same file. Registers its own beforeEach/afterEach.
 */
export function tempSqliteStores(prefix: string): { open: () => SqliteEventStore } {
  let dir = '';
  const opened: SqliteEventStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    open: () => {
      const store = new SqliteEventStore(join(dir, 'events.db'));
      opened.push(store);
      return store;
    },
  };
}

/** a store that counts the reads asked of it through `readStreams` and the events it hands out */
export function countingReads(store: EventStore): EventStore & { handedOut: number; reads: number } {
  const counted = Object.assign(Object.create(store) as EventStore, { handedOut: 0, reads: 0 });
  counted.readStreams = async (reads) => {
    const streams = await store.readStreams(reads);
    counted.reads += 1;
    counted.handedOut += streams.reduce((sum, events) => sum + events.length, 0);
    return streams;
  };
  return counted;
}
