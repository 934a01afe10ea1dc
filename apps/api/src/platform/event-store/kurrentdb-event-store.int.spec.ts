import { describe, expect, it } from 'vitest';
import { createEventStore } from './create-event-store';
import { type EventStoreUnderTest, eventStoreContract, eventually, readEverything, testEvent } from './event-store.contract';
import { EventStoreUnavailableError, START, type StoredEvent } from './event-store.port';
import { KurrentDbEventStore, type KurrentDbEventStoreOptions } from './kurrentdb-event-store';

const url = process.env.ROLLCALL_TEST_KURRENTDB_URL;
if (!url) console.log('skipped: no KurrentDB server');

let stores = 0;
/**
 * A fresh stream prefix per store, so every test sees an empty log on a shared server (the streams
 * stay behind: a test server is thrown away, and KurrentDB has no cheap "drop everything").
 */
async function makeStore(
  options: Partial<KurrentDbEventStoreOptions> = {},
): Promise<EventStoreUnderTest & { store: KurrentDbEventStore; streamPrefix: string }> {
  const streamPrefix = `t${process.pid}-${Date.now().toString(36)}-${stores++}-`;
  const store = await KurrentDbEventStore.connect({ url: url as string, streamPrefix, pollIntervalMs: 50, ...options });
  return { store, streamPrefix, cleanup: () => store.close() };
}

describe.skipIf(!url)('KurrentDbEventStore', () => {
  eventStoreContract('kurrentdb', () => makeStore());

  it('stores with different prefixes on one server do not see each other', async () => {
    const [a, b] = await Promise.all([makeStore(), makeStore()]);
    try {
      await a.store.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream' });
      await b.store.appendToStream('s', [testEvent('B')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'x' }] });
      // the same value in another store is another reservation
      await a.store.appendToStream('t', [testEvent('A')], { expectedVersion: 'no_stream', reservations: [{ scope: 'u', value: 'x' }] });
      expect((await readEverything(a.store)).map((e) => `${e.streamId}:${e.type}`)).toEqual(['s:A', 't:A']);
      expect((await readEverything(b.store)).map((e) => `${e.streamId}:${e.type}`)).toEqual(['s:B']);
    } finally {
      await Promise.all([a.cleanup(), b.cleanup()]);
    }
  });

  it("the server's push wakes a subscriber for another store's append without waiting for the poll interval", async () => {
    const reader = await makeStore({ pollIntervalMs: 60_000 });
    // another process, as far as the reader can tell: its own client, the same streams
    const writer = await KurrentDbEventStore.connect({ url: url as string, streamPrefix: reader.streamPrefix });
    try {
      const received: StoredEvent[] = [];
      const subscription = reader.store.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
      await new Promise((resolve) => setTimeout(resolve, 500)); // the loop is now parked on a one-minute poll
      await writer.appendToStreams([
        { streamId: 'org', events: [testEvent('OrganizationDeleted')], options: { expectedVersion: 'no_stream' } },
        { streamId: 'account', events: [testEvent('AccountDeleted'), testEvent('AccountNoted')], options: { expectedVersion: 'no_stream' } },
      ]);
      await eventually(() => received.length === 3, 'the pushed events', 10_000);
      await subscription.stop();
      expect(received.map((e) => e.streamId)).toEqual(['org', 'account', 'account']);
    } finally {
      await writer.close();
      await reader.cleanup();
    }
  });
});

describe('KurrentDbEventStore without a server', () => {
  it('fails to start with EventStoreUnavailableError when KurrentDB cannot be reached', async () => {
    await expect(KurrentDbEventStore.connect({ url: 'kurrentdb://127.0.0.1:1?tls=false' })).rejects.toBeInstanceOf(EventStoreUnavailableError);
  });

  it('is what createEventStore opens for kind kurrentdb', async () => {
    await expect(createEventStore({ kind: 'kurrentdb', url: 'kurrentdb://127.0.0.1:1?tls=false' })).rejects.toThrow(/cannot reach KurrentDB/);
  });
});
