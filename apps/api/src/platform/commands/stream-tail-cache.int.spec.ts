import { describe, expect, it } from 'vitest';
import { countingReads, tempSqliteStores } from '../../../test/temp-sqlite-stores';
import { testEvent } from '../event-store/event-store.contract';
import type { StoredEvent } from '../event-store/event-store.port';
import { StreamTailCache, type CachedEvent } from './stream-tail-cache';

const types = (events: readonly CachedEvent[]) => events.map((event) => event.type);
/** what the cache keeps of stored events */
const asCached = (events: readonly StoredEvent[]) => events.map(({ streamVersion, position, type, data }) => ({ streamVersion, position, type, data }));

describe('StreamTailCache on a real SQLite events file', () => {
  const { open } = tempSqliteStores('rollcall-tail-cache-');

  it("reads only the tail again, and sees another process's appends to a cached stream", async () => {
    const mine = open();
    const other = open(); // another API process on the same file
    const store = countingReads(mine);
    const cache = new StreamTailCache({ streams: 10, events: 1_000 });
    await mine.appendToStream('card-1', [testEvent('Registered'), testEvent('Renamed')], { expectedVersion: 'no_stream' });

    expect(types(await cache.read(store, 'card-1'))).toEqual(['Registered', 'Renamed']);
    expect(types(await cache.read(store, 'card-1'))).toEqual(['Registered', 'Renamed']);
    expect(store.handedOut).toBe(2);

    const [, renamed] = await mine.readStream('card-1');
    await other.appendToStream('card-1', [testEvent('Removed')], { expectedVersion: renamed.streamVersion });
    const events = await cache.read(store, 'card-1');
    expect(types(events)).toEqual(['Registered', 'Renamed', 'Removed']);
    expect(events).toEqual(asCached(await mine.readStream('card-1')));
    expect(store.handedOut).toBe(3);
  });

  it('keeps the streams read most recently, and reads a forgotten one whole again', async () => {
    const mine = open();
    const store = countingReads(mine);
    const cache = new StreamTailCache({ streams: 2, events: 1_000 });
    for (const id of ['a', 'b', 'c', 'd']) await mine.appendToStream(id, [testEvent('One'), testEvent('Two')], { expectedVersion: 'no_stream' });
    await cache.read(store, 'a');
    await cache.read(store, 'b'); // the generation is full: a and b are the previous one
    await cache.read(store, 'a'); // a moves to the current generation, b stays behind
    await cache.read(store, 'c'); // full again: a and c are the previous one, b is gone
    expect(store.handedOut).toBe(6);
    // the two read most recently are kept
    await cache.read(store, 'a');
    await cache.read(store, 'c');
    expect(store.handedOut).toBe(6);
    expect(types(await cache.read(store, 'b'))).toEqual(['One', 'Two']);
    expect(store.handedOut).toBe(8);
  });

  it('reads many streams in one read of the store, each from after its cached version', async () => {
    const mine = open();
    const other = open();
    const store = countingReads(mine);
    const cache = new StreamTailCache({ streams: 100, events: 1_000 });
    for (const id of ['a', 'b', 'c']) await mine.appendToStream(id, [testEvent('One'), testEvent('Two')], { expectedVersion: 'no_stream' });

    expect((await cache.readMany(store, ['a', 'b', 'nobody'])).map(types)).toEqual([['One', 'Two'], ['One', 'Two'], []]);
    expect(store).toMatchObject({ reads: 1, handedOut: 4 });

    await other.appendToStream('b', [testEvent('Three')], { expectedVersion: 1 });
    const [a, b, c] = await cache.readMany(store, ['a', 'b', 'c']);
    expect([a, b, c].map(types)).toEqual([['One', 'Two'], ['One', 'Two', 'Three'], ['One', 'Two']]);
    expect(b).toEqual(asCached(await mine.readStream('b')));
    // a and b only from after what was cached: b's new event and c's two
    expect(store).toMatchObject({ reads: 2, handedOut: 7 });
    // nothing new: nothing handed out, the cached lists themselves
    const again = await cache.readMany(store, ['a', 'b', 'c']);
    expect(again[1]).toBe(b);
    expect(store).toMatchObject({ reads: 3, handedOut: 7 });
  });

  // issue 23: a day stream grows by an event per scan (each duplicate one event); counting streams
  // alone kept every scan of the day in the heap
  it('holds at most twice its events limit while its streams grow by an event per read', async () => {
    const mine = open();
    const store = countingReads(mine);
    const cache = new StreamTailCache({ streams: 1_000, events: 200 });
    const days = Array.from({ length: 20 }, (_, i) => `attendance-${i}`);
    let mostHeld = 0;
    for (let round = 0; round < 40; round++) {
      for (const [index, day] of days.entries()) {
        await mine.appendToStream(day, [testEvent('DuplicateScan', { round })], { expectedVersion: round === 0 ? 'no_stream' : round - 1 });
        // a request reads a few of them together, as the scan handler reads a batch's days
        if (index % 4 === 3) {
          const read = await cache.readMany(store, days.slice(index - 3, index + 1));
          expect(read.map((events) => events.length)).toEqual([round + 1, round + 1, round + 1, round + 1]);
          mostHeld = Math.max(mostHeld, cache.held.events);
        }
      }
    }
    // 800 events in the store, read again and again: the cache never held more than its bound
    expect(mostHeld).toBeGreaterThan(100);
    expect(mostHeld).toBeLessThanOrEqual(2 * 200);
    expect(cache.held.events).toBeLessThanOrEqual(2 * 200);
    // and what it returns is still each stream whole, each event without what no decision reads
    // (its metadata and stream id: a third of a decoded event)
    const cached = await cache.read(store, 'attendance-7');
    expect(cached).toEqual(asCached(await mine.readStream('attendance-7')));
    expect(Object.keys(cached[0]).sort()).toEqual(['data', 'position', 'streamVersion', 'type']);
  });

  it('keeps no stream longer than a quarter of its events limit: such a stream is read whole each time', async () => {
    const mine = open();
    const store = countingReads(mine);
    const cache = new StreamTailCache({ streams: 100, events: 40 });
    await mine.appendToStream('long', Array.from({ length: 11 }, () => testEvent('Scan')), { expectedVersion: 'no_stream' });
    await mine.appendToStream('short', Array.from({ length: 10 }, () => testEvent('Scan')), { expectedVersion: 'no_stream' });
    expect((await cache.read(store, 'long')).length).toBe(11);
    expect((await cache.read(store, 'short')).length).toBe(10);
    expect(cache.held).toEqual({ streams: 1, events: 10 });
    await cache.read(store, 'long');
    await cache.read(store, 'short');
    // the long one twice whole, the short one once
    expect(store.handedOut).toBe(11 + 10 + 11);
  });
});
