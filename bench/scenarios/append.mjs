// Append throughput of the two event store adapters, through the port (`appendToStream`), each
// command one AccountCreated event to its own new stream with expectedVersion 'no_stream'.
//   *-single:  one append at a time, each awaited before the next (latency-bound: one commit each)
//   *-grouped: a closed loop keeping CONCURRENCY appends in flight (what a busy API does); the
//              SQLite adapter group-commits them, the PostgreSQL adapter runs them on its pool
import { join } from 'node:path';
import pg from 'pg';
import { accountCreated, api, dropPgSchema, fmtInt, inFlight, log, newPgSchema, now, PG_URL, removeDir, tempDir } from './lib.mjs';

const CONCURRENCY = 256;

/** events prepared before the clock starts: the figure is the store's, not the generator's */
const prepare = (count, prefix) => Array.from({ length: count }, (_, i) => accountCreated(i, prefix));

async function appendSequential(store, commands) {
  const started = now();
  for (const { stream, event } of commands) await store.appendToStream(stream, [event], { expectedVersion: 'no_stream' });
  return (now() - started) / 1000;
}

async function appendGrouped(store, commands, concurrency) {
  const started = now();
  await inFlight(commands.length, concurrency, (i) => store.appendToStream(commands[i].stream, [commands[i].event], { expectedVersion: 'no_stream' }));
  return (now() - started) / 1000;
}

// ------------------------------------------------------------------------------------------------
// SQLite

function sqliteScenario({ name, grouped, defaultEvents, warmupEvents }) {
  return {
    name,
    figures: [{ key: 'eventsPerSec', label: 'events/s', unit: 'events/s', ...(grouped ? { goal: { op: '>=', value: 50_000 } } : {}) }],
    params: (opts) => ({ events: opts.events ?? defaultEvents, concurrency: grouped ? CONCURRENCY : 1, store: 'SQLite (WAL, synchronous=FULL), fresh file per run' }),
    async setup(opts) {
      const { SqliteEventStore } = api('platform/event-store/sqlite-event-store');
      return { SqliteEventStore, events: opts.events ?? defaultEvents };
    },
    async warmup(ctx) {
      await runSqlite(ctx, Math.min(warmupEvents, ctx.events));
    },
    async run(ctx) {
      return runSqlite(ctx, ctx.events);
    },
  };

  async function runSqlite(ctx, count) {
    const dir = tempDir(name);
    try {
      const store = new ctx.SqliteEventStore(join(dir, 'events.db'));
      const commands = prepare(count, 'append');
      const seconds = grouped ? await appendGrouped(store, commands, CONCURRENCY) : await appendSequential(store, commands);
      const stats = store.stats();
      await store.close();
      if (stats.appends !== count) throw new Error(`expected ${count} appends, the store counted ${stats.appends}`);
      const eventsPerSec = count / seconds;
      log(`${fmtInt(count)} events in ${seconds.toFixed(2)} s: ${fmtInt(eventsPerSec)} events/s (${stats.transactions} transactions, largest batch ${stats.largestBatch})`);
      return { eventsPerSec, events: count, seconds, transactions: stats.transactions, largestBatch: stats.largestBatch };
    } finally {
      removeDir(dir);
    }
  }
}

// ------------------------------------------------------------------------------------------------
// PostgreSQL

/** null when reachable, else the reason */
export async function pgUnreachable(url = PG_URL) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL unreachable at ${url.replace(/\/\/[^@/]*@/, '//***@')}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function pgScenario({ name, grouped, defaultEvents, warmupEvents }) {
  return {
    name,
    figures: [{ key: 'eventsPerSec', label: 'events/s', unit: 'events/s' }],
    params: (opts) => ({ events: opts.events ?? defaultEvents, concurrency: grouped ? CONCURRENCY : 1, store: 'PostgreSQL adapter (pool of 10), fresh schema per run, dropped after', url: PG_URL.replace(/\/\/[^@/]*@/, '//***@') }),
    async setup(opts) {
      const reason = await pgUnreachable();
      if (reason) return { skip: reason };
      const { PostgresEventStore } = api('platform/event-store/postgres-event-store');
      return { PostgresEventStore, events: opts.events ?? defaultEvents };
    },
    async warmup(ctx) {
      await runPg(ctx, Math.min(warmupEvents, ctx.events));
    },
    async run(ctx) {
      return runPg(ctx, ctx.events);
    },
  };

  async function runPg(ctx, count) {
    const schema = newPgSchema();
    let store;
    try {
      store = await ctx.PostgresEventStore.connect({ url: PG_URL, schema });
      const commands = prepare(count, 'append');
      const seconds = grouped ? await appendGrouped(store, commands, CONCURRENCY) : await appendSequential(store, commands);
      const eventsPerSec = count / seconds;
      log(`${fmtInt(count)} events in ${seconds.toFixed(2)} s: ${fmtInt(eventsPerSec)} events/s`);
      return { eventsPerSec, events: count, seconds };
    } finally {
      await store?.close().catch(() => undefined);
      await dropPgSchema(schema);
    }
  }
}

export const scenarios = [
  sqliteScenario({ name: 'append-sqlite-single', grouped: false, defaultEvents: 2_000, warmupEvents: 200 }),
  sqliteScenario({ name: 'append-sqlite-grouped', grouped: true, defaultEvents: 100_000, warmupEvents: 10_000 }),
  pgScenario({ name: 'append-pg-single', grouped: false, defaultEvents: 2_000, warmupEvents: 200 }),
  pgScenario({ name: 'append-pg-grouped', grouped: true, defaultEvents: 10_000, warmupEvents: 2_000 }),
];
