import type { DomainEvent } from '@rollcall/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { countingReads, tempSqliteStores } from '../../../test/temp-sqlite-stores';
import { testEvent } from '../event-store/event-store.contract';
import { StreamStateCache } from './stream-state-cache';

/** a state that names every event folded into it, in order, and counts the folds */
let folds = 0;
const typesDecider = {
  initialState: (): string[] => [],
  evolve: (state: string[], event: DomainEvent): string[] => {
    folds += 1;
    return [...state, event.type];
  },
};

describe('StreamStateCache on a real SQLite events file', () => {
  const { open } = tempSqliteStores('rollcall-state-cache-');
  beforeEach(() => {
    folds = 0;
  });

  it("folds only the events after the cached version: another process's appends, and its own appended events without reading them", async () => {
    const mine = open();
    const other = open(); // another API process on the same file
    const store = countingReads(mine);
    const cache = new StreamStateCache(typesDecider, 10);
    await mine.appendToStream('day-1', [testEvent('Arrived'), testEvent('Duplicate')], { expectedVersion: 'no_stream' });

    const [first] = await cache.readMany(store, ['day-1']);
    expect(first).toMatchObject({ state: ['Arrived', 'Duplicate'], expectedVersion: 1 });
    expect((await cache.readMany(store, ['day-1']))[0]).toBe(first);
    expect([store.handedOut, folds]).toEqual([2, 2]);

    await other.appendToStream('day-1', [testEvent('Departed')], { expectedVersion: 1 });
    const [moved] = await cache.readMany(store, ['day-1']);
    expect(moved).toMatchObject({ state: ['Arrived', 'Duplicate', 'Departed'], expectedVersion: 2 });
    expect([store.handedOut, folds]).toEqual([3, 3]);

    // this process's own append folds in at once: the next read hands out nothing
    const event = { type: 'Arrived', data: {} };
    const [result] = await mine.appendToStreams([{ streamId: 'day-1', events: [testEvent('Arrived')], options: { expectedVersion: 2 } }]);
    cache.appended(moved, [event], result);
    const [after] = await cache.readMany(store, ['day-1']);
    expect(after).toMatchObject({ state: ['Arrived', 'Duplicate', 'Departed', 'Arrived'], expectedVersion: 3, lastPosition: result.position });
    expect([store.handedOut, folds]).toEqual([3, 4]);

    // an append folded on an older read than the cache holds leaves the newer state
    cache.appended(first, [{ type: 'Stale', data: {} }], { nextExpectedVersion: 2, position: result.position });
    expect((await cache.readMany(store, ['day-1']))[0].state).toEqual(['Arrived', 'Duplicate', 'Departed', 'Arrived']);
  });

  it('keeps at most twice its streams, and a stream read since it was dropped is read from its start', async () => {
    const mine = open();
    const store = countingReads(mine);
    const cache = new StreamStateCache(typesDecider, 3);
    const ids = Array.from({ length: 10 }, (_, index) => `day-${index}`);
    for (const id of ids) await mine.appendToStream(id, [testEvent('Arrived'), testEvent('Departed')], { expectedVersion: 'no_stream' });
    for (const id of ids) {
      await cache.readMany(store, [id]);
      expect(cache.held).toBeLessThanOrEqual(6);
    }
    // the latest streams are kept: read again, nothing is handed out
    const handedOut = store.handedOut;
    await cache.readMany(store, ids.slice(-2));
    expect(store.handedOut).toBe(handedOut);
    // the first went: read whole, folded right
    const [first] = await cache.readMany(store, ['day-0']);
    expect(first).toMatchObject({ state: ['Arrived', 'Departed'], expectedVersion: 1 });
    expect(store.handedOut).toBe(handedOut + 2);
  });
});
