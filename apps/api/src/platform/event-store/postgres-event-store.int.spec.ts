import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type EventStoreUnderTest, eventStoreContract, eventually, readEverything, sleep, testEvent } from './event-store.contract';
import { EventStoreUnavailableError, START, type StoredEvent } from './event-store.port';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';

const url = process.env.ROLLCALL_TEST_PG_URL;
if (!url) console.log('skipped: ROLLCALL_TEST_PG_URL not set');

let schemas = 0;
/** A fresh schema per store, dropped by cleanup, so runs never see each other's events. */
async function makeStore(
  options: Partial<PostgresEventStoreOptions> = {},
): Promise<EventStoreUnderTest & { store: PostgresEventStore; schema: string }> {
  const connectionString = url as string;
  const schema = `es_test_${process.pid}_${Date.now().toString(36)}_${schemas++}`;
  const store = await PostgresEventStore.connect({ url: connectionString, schema, pollIntervalMs: 50, ...options });
  return {
    store,
    schema,
    cleanup: async () => {
      await store.close();
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

async function withStore(
  test: (store: PostgresEventStore) => Promise<void>,
  options?: Partial<PostgresEventStoreOptions>,
): Promise<void> {
  const { store, cleanup } = await makeStore(options);
  try {
    await test(store);
  } finally {
    await cleanup();
  }
}

/** A connection of its own, inside BEGIN: the writer whose commit we hold back. */
async function openTransaction(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  return client;
}

describe.skipIf(!url)('PostgresEventStore', () => {
  eventStoreContract('postgres', () => makeStore());

  describe('order across digit counts', () => {
    it('reads $all by transaction id as a number across a power of ten, and the head is the larger one', async () => {
      const { store, schema, cleanup } = await makeStore();
      try {
        // Transaction ids are PostgreSQL's: two rows stand for commits on either side of the largest
        // power of ten below the server's horizon (rows at or past it are not visible yet), e.g. 9995
        // and 10008; as text, '10008' would sort before '9995'.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        let before = 0;
        let after = 0;
        try {
          let horizon = Number((await admin.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')).rows[0].xmin);
          // a young cluster: use up transaction ids until one power of ten lies well below the horizon
          while (horizon < 130) horizon = Number((await admin.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0].xid);
          const powerOfTen = 10 ** Math.floor(Math.log10(horizon - 20));
          [before, after] = [powerOfTen - 5, powerOfTen + 8];
          for (const [xid, version] of [[after, 0], [before, 1]] as const) {
            await admin.query(`INSERT INTO "${schema}".es_events (transaction_id, stream_id, stream_version, type, data, metadata) VALUES ($1::text::xid8, 'digits', $2, 'Digit', '{}', '{}')`, [String(xid), version]);
          }
        } finally {
          await admin.end();
        }
        const events = await store.readAll(START, 10);
        expect(events.map((event) => event.position.commit)).toEqual([before, after]);
        expect((await store.readAll(events[0].position, 10)).map((event) => event.position.commit)).toEqual([after]);
        expect((await store.headPosition()).commit).toBe(after);
      } finally {
        await cleanup();
      }
    });
  });

  describe('late commits', () => {
    it('a reader sees nothing past an open transaction, then receives its events and the later ones, nothing skipped', () =>
      withStore(async (store) => {
        await store.appendToStream('early', [testEvent('Early')], { expectedVersion: 'no_stream' });
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
        await eventually(() => received.length === 1, 'the early event');

        const slow = await openTransaction();
        try {
          // Same statements as appendToStream, but we decide when it commits.
          const late = await store.appendWithinTransaction(slow, 'slow', [testEvent('Slow')], { expectedVersion: 'no_stream' });
          const fast = await store.appendToStream('fast', [testEvent('Fast')], { expectedVersion: 'no_stream' });
          // The slow writer took the lower sequence number: a reader following the sequence alone would
          // read 'fast', move past 'slow', and never come back for it.
          expect(late.position.sequence).toBeLessThan(fast.position.sequence);
          expect(late.position.commit).toBeLessThan(fast.position.commit);

          await sleep(300);
          expect(received.map((e) => e.streamId)).toEqual(['early']);
          expect((await store.readAll(START, 10)).map((e) => e.streamId)).toEqual(['early']);
          expect(await store.headPosition()).toEqual(received[0].position);
          // The committed append is durable and readable by its stream (read-your-writes on the write side).
          expect(await store.readStream('fast')).toHaveLength(1);

          await slow.query('COMMIT');
        } finally {
          await slow.end();
        }
        await eventually(() => received.length >= 3, 'the late and the fast event');
        await sleep(150);
        await subscription.stop();
        expect(received.map((e) => e.streamId)).toEqual(['early', 'slow', 'fast']);
        expect(received.map((e) => e.position)).toEqual((await readEverything(store)).map((e) => e.position));
      }));

    it('a held transaction that rolls back blocks nothing afterwards and leaves no trace', () =>
      withStore(async (store) => {
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
        const slow = await openTransaction();
        try {
          await store.appendWithinTransaction(slow, 'ghost', [testEvent('Ghost')], { expectedVersion: 'no_stream' });
          await store.appendToStream('real', [testEvent('Real')], { expectedVersion: 'no_stream' });
          await sleep(200);
          expect(received).toEqual([]);
          await slow.query('ROLLBACK');
        } finally {
          await slow.end();
        }
        await eventually(() => received.length >= 1, 'the real event');
        await sleep(100);
        await subscription.stop();
        expect(received.map((e) => e.streamId)).toEqual(['real']);
        // The rolled-back writer reserved nothing and left the stream new.
        await store.appendToStream('ghost', [testEvent('Ghost')], { expectedVersion: 'no_stream' });
      }));

    it('many writers committing after random delays: the subscriber gets every event exactly once, in the final order', () =>
      withStore(async (store) => {
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: START, batchSize: 7, onEvents: (events) => void received.push(...events) });
        const writers = Array.from({ length: 8 }, async (_, writer) => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            for (let i = 0; i < 6; i++) {
              await client.query('BEGIN');
              await store.appendWithinTransaction(client, `w-${writer}`, [testEvent('W', { writer, i }), testEvent('W2')], {
                expectedVersion: i === 0 ? 'no_stream' : i * 2 - 1,
              });
              await sleep(Math.floor(Math.random() * 40));
              await client.query('COMMIT');
            }
          } finally {
            await client.end();
          }
        });
        const plain = (async () => {
          for (let i = 0; i < 20; i++) await store.appendToStream('plain', [testEvent('P', { i })], { expectedVersion: 'any' });
        })();
        await Promise.all([...writers, plain]);

        await eventually(() => received.length >= 8 * 6 * 2 + 20, 'every event');
        await sleep(150);
        await subscription.stop();
        const log = await readEverything(store);
        expect(log).toHaveLength(116);
        expect(received.map((e) => e.position)).toEqual(log.map((e) => e.position));
      }));
  });

  it('LISTEN/NOTIFY wakes a subscriber without waiting for the poll interval', () =>
    withStore(
      async (store) => {
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
        await sleep(300); // the loop is now parked on a one-minute poll
        await store.appendToStream('s', [testEvent('Ping')], { expectedVersion: 'no_stream' });
        await eventually(() => received.length === 1, 'the notified event', 10_000);
        await subscription.stop();
      },
      { pollIntervalMs: 60_000 },
    ));

  it('LISTEN/NOTIFY wakes a subscriber for a multi-stream append, which arrives whole', () =>
    withStore(
      async (store) => {
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
        await sleep(300); // the loop is now parked on a one-minute poll
        await store.appendToStreams([
          { streamId: 'org', events: [testEvent('OrganizationDeleted')], options: { expectedVersion: 'no_stream' } },
          { streamId: 'account', events: [testEvent('AccountDeleted'), testEvent('AccountNoted')], options: { expectedVersion: 'no_stream' } },
        ]);
        await eventually(() => received.length === 3, 'the notified events', 10_000);
        await subscription.stop();
        expect(received.map((e) => e.streamId)).toEqual(['org', 'account', 'account']);
        // one transaction: one commit position for all three
        expect(new Set(received.map((e) => e.position.commit)).size).toBe(1);
      },
      { pollIntervalMs: 60_000 },
    ));

  it('creating the tables again on an existing schema is harmless (a second process starting)', async () => {
    const { store, schema, cleanup } = await makeStore();
    try {
      await store.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream' });
      const [a, b] = await Promise.all([
        PostgresEventStore.connect({ url: url as string, schema }),
        PostgresEventStore.connect({ url: url as string, schema }),
      ]);
      expect(await a.readStream('s')).toHaveLength(1);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await cleanup();
    }
  });
});

describe('PostgresEventStore without a server', () => {
  it('fails to start with EventStoreUnavailableError when PostgreSQL cannot be reached', async () => {
    await expect(
      PostgresEventStore.connect({ url: 'postgres://postgres@127.0.0.1:1/test', schema: 'unreachable' }),
    ).rejects.toBeInstanceOf(EventStoreUnavailableError);
  });
});
