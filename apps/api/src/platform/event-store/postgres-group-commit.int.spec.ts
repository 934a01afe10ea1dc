import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, readEverything, sleep, testEvent } from './event-store.contract';
import { type AppendResult, EventStoreUnavailableError, ReservationTakenError, WrongExpectedVersionError } from './event-store.port';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';

/**
 * What the contract suite cannot see of the PostgreSQL adapter's group commit
 * (docs/adr/0002-event-store-global-ordering.md): appends issued together share one transaction and
 * one notification, a payload the server refuses fails its own append only, and two processes (two
 * stores on one schema) racing to create the same streams, take the same values and use the same keys
 * end with exactly one winner each and lose nothing else of their groups.
 */
const url = process.env.ROLLCALL_TEST_PG_URL;
if (!url) console.log('skipped: ROLLCALL_TEST_PG_URL not set');

let schemas = 0;
const cleanups: Array<() => Promise<void>> = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `count` stores on one fresh schema, as `count` API processes would open it. */
async function storesOnOneSchema(count: number, options: Partial<PostgresEventStoreOptions> = {}): Promise<{ stores: PostgresEventStore[]; schema: string }> {
  const schema = `es_group_${process.pid}_${Date.now().toString(36)}_${schemas++}`;
  const stores: PostgresEventStore[] = [];
  for (let i = 0; i < count; i++) stores.push(await PostgresEventStore.connect({ url: url as string, schema, pollIntervalMs: 50, ...options }));
  cleanups.push(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  });
  return { stores, schema };
}

const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
  results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);
const rejected = (results: PromiseSettledResult<unknown>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);

describe.skipIf(!url)('PostgresEventStore group commit', () => {
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  it('100 appends issued together share a few transactions, one position per caller, one notification per transaction', async () => {
    const {
      stores: [store],
      schema,
    } = await storesOnOneSchema(1);
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    let notifications = 0;
    listener.on('notification', () => notifications++);
    await listener.query(`LISTEN "es_events_${schema}"`);
    try {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => store.appendToStream(`s-${i}`, [testEvent('E', { i })], { expectedVersion: 'no_stream' })),
      );
      const stats = store.stats();
      expect(stats.appends).toBe(100);
      expect(stats.transactions).toBeLessThanOrEqual(10);
      expect(stats.largestBatch).toBeGreaterThanOrEqual(10);
      // a transaction's appends share its commit (transaction id) and take their own sequence
      expect(new Set(results.map((r) => r.position.commit)).size).toBe(stats.transactions);
      expect(new Set(results.map((r) => r.position.sequence)).size).toBe(100);
      await eventually(() => notifications >= stats.transactions, 'a notification per transaction', 5000);
      await sleep(200);
      expect(notifications).toBe(stats.transactions);
    } finally {
      await listener.end();
    }
  });

  it('a payload PostgreSQL refuses fails its own append; the rest of its group commits', async () => {
    const {
      stores: [store],
    } = await storesOnOneSchema(1);
    const results = await Promise.allSettled([
      store.appendToStream('a', [testEvent('A')], { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'a' }] }),
      // jsonb cannot hold U+0000: the server refuses the whole statement, i.e. the whole group at first
      store.appendToStream('bad', [testEvent('Bad', { text: 'nul \u0000 inside' })], { expectedVersion: 'no_stream' }),
      store.appendToStream('b', [testEvent('B')], { expectedVersion: 'no_stream', idempotencyKey: 'key-b' }),
      store.appendToStream('a', [testEvent('A2')], { expectedVersion: 0 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const [refused] = rejected(results);
    expect(refused).not.toBeInstanceOf(EventStoreUnavailableError);
    expect(refused).not.toBeInstanceOf(WrongExpectedVersionError);
    expect((refused as { code?: string }).code).toMatch(/^22/);
    expect((await readEverything(store)).map((e) => e.type)).toEqual(['A', 'B', 'A2']);
    expect(await store.appendToStream('b', [testEvent('B')], { expectedVersion: 'no_stream', idempotencyKey: 'key-b' })).toMatchObject({ duplicate: true });
    expect(await store.readStream('bad')).toEqual([]);
  });

  it('50 reads issued together are one query; a stream id the server refuses fails its own read only', async () => {
    const {
      stores: [store],
    } = await storesOnOneSchema(1);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.appendToStream(`s-${i}`, [testEvent('A', { i }), testEvent('B', { i })], { expectedVersion: 'no_stream' })));
    const before = store.stats().streamReadQueries;
    const streams = await Promise.all(Array.from({ length: 50 }, (_, i) => store.readStream(`s-${i}`, i % 2)));
    expect(store.stats().streamReadQueries - before).toBe(1);
    streams.forEach((events, i) => expect(events.map((e) => [e.streamId, e.type, (e.data as { i: number }).i])).toEqual([['s-0', 'A', 0], ['s-0', 'B', 0]].slice(i % 2).map(([, type]) => [`s-${i}`, type, i])));

    // PostgreSQL text cannot hold U+0000: the shared query fails, each read is asked again alone
    const reads = await Promise.allSettled([store.readStream('s-1'), store.readStream('bad\u0000id'), store.readStream('s-2', 1)]);
    expect(reads.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rejected(reads)[0]).not.toBeInstanceOf(EventStoreUnavailableError);
    expect(fulfilled(reads).map((events) => events.map((e) => e.type))).toEqual([['A', 'B'], ['B']]);
  });

  it('two processes create the same streams, take the same values and use the same keys at once: one winner each, nothing else lost', async () => {
    const { stores } = await storesOnOneSchema(2, { maxGroupsInFlight: 1 });
    for (let round = 0; round < 5; round++) {
      // the same new streams, then the same free values (each on two streams); uncontested appends
      // share the groups and must all land
      const own = (store: PostgresEventStore, side: number, phase: string) =>
        Promise.all(
          Array.from({ length: 5 }, (_, i) => store.appendToStream(`own-${phase}-${round}-${i}-${side}`, [testEvent('Own', { side })], { expectedVersion: 'no_stream' })),
        );
      const [streamA, streamB] = await Promise.all(
        stores.map(async (store, side) => {
          const [pairs] = await Promise.all([
            Promise.allSettled(
              Array.from({ length: 10 }, (_, i) => store.appendToStream(`shared-${round}-${i}`, [testEvent('Created', { side })], { expectedVersion: 'no_stream' })),
            ),
            own(store, side, 'streams'),
          ]);
          return pairs;
        }),
      );
      const [valueA, valueB] = await Promise.all(
        stores.map(async (store, side) => {
          const [pairs] = await Promise.all([
            Promise.allSettled(
              Array.from({ length: 10 }, (_, i) =>
                store.appendToStream(`holder-${round}-${i}-${side}`, [testEvent('Held', { side })], {
                  expectedVersion: 'no_stream',
                  reservations: [{ scope: 'username', value: `v-${round}-${i}` }],
                }),
              ),
            ),
            own(store, side, 'values'),
          ]);
          return pairs;
        }),
      );
      for (let i = 0; i < 10; i++) {
        const streamPair = [streamA[i], streamB[i]];
        expect(fulfilled(streamPair), `stream ${round}-${i}`).toHaveLength(1);
        expect(rejected(streamPair)[0]).toBeInstanceOf(WrongExpectedVersionError);
        expect(rejected(streamPair)[0]).toMatchObject({ expected: 'no_stream', actual: 0 });
        const valuePair = [valueA[i], valueB[i]];
        expect(fulfilled(valuePair), `value ${round}-${i}`).toHaveLength(1);
        expect(rejected(valuePair)[0]).toBeInstanceOf(ReservationTakenError);
      }

      // the same keys: one append per key, the other process answers its result
      const [keyedA, keyedB] = await Promise.all(
        stores.map((store, side) =>
          Promise.all(
            Array.from({ length: 10 }, (_, i) => store.appendToStream(`keyed-${round}-${i}`, [testEvent('Keyed', { side })], { expectedVersion: 'any', idempotencyKey: `k-${round}-${i}` })),
          ),
        ),
      );
      for (let i = 0; i < 10; i++) {
        const keyPair: AppendResult[] = [keyedA[i], keyedB[i]];
        expect(keyPair.filter((r) => !r.duplicate), `key ${round}-${i}`).toHaveLength(1);
        expect({ ...keyPair[0], duplicate: false }).toEqual({ ...keyPair[1], duplicate: false });
      }
    }
    const log = await readEverything(stores[0]);
    // per round: 10 shared streams, 10 held values, 10 keys, 2 x 2 x 5 own streams
    expect(log).toHaveLength(5 * (10 + 10 + 10 + 20));
    for (const event of log) {
      expect(event.streamVersion, event.streamId).toBe(0);
    }
    expect(new Set(log.map((e) => e.streamId)).size).toBe(log.length);
  });
});
