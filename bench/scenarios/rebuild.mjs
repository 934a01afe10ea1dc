// rebuildProjections(store, readDb, allProjections()) over a SQLite event store of N synthetic
// account events (AccountCreated + AccountSignedIn pairs), into a fresh SQLite read DB each run.
// The event store is written once and cached under bench/.cache/events-<N>.db.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { accountPair, api, CACHE_DIR, fmtInt, inFlight, log, now, removeDir, tempDir } from './lib.mjs';

const DEFAULT_EVENTS = 1_000_000;
/** the warm-up rebuilds a smaller store, so it costs seconds, not a full run */
const WARMUP_EVENTS = 50_000;

const storeFile = (events) => join(CACHE_DIR, `events-${events}.db`);

async function headOf(file) {
  const { SqliteEventStore } = api('platform/event-store/sqlite-event-store');
  const store = new SqliteEventStore(file);
  try {
    return (await store.headPosition()).sequence;
  } finally {
    await store.close();
  }
}

/** the cached store of `events` events, written on first use */
export async function cachedEventStore(events) {
  const file = storeFile(events);
  if (existsSync(file)) {
    const head = await headOf(file);
    if (head === events) return file;
    log(`cached ${file} holds ${fmtInt(head)} events, not ${fmtInt(events)}: writing it again`);
    rmSync(file, { force: true });
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  const { SqliteEventStore } = api('platform/event-store/sqlite-event-store');
  const store = new SqliteEventStore(partial);
  const pairs = events / 2;
  const started = now();
  let done = 0;
  let lastLog = started;
  await inFlight(pairs, 1000, async (i) => {
    const { stream, events: pair } = accountPair(i, 'rebuild');
    await store.appendToStream(stream, pair, { expectedVersion: 'no_stream' });
    done++;
    if (now() - lastLog > 5000) {
      lastLog = now();
      log(`  writing the event store: ${fmtInt(done * 2)} / ${fmtInt(events)} events`);
    }
  });
  await store.close(); // checkpoints the WAL into the file
  renameSync(partial, file);
  log(`wrote ${fmtInt(events)} events to ${file} in ${((now() - started) / 1000).toFixed(1)} s (cached for later runs)`);
  return file;
}

async function rebuildOnce(file, expected) {
  const { SqliteEventStore } = api('platform/event-store/sqlite-event-store');
  const { createReadDb } = api('platform/read-db/create-read-db');
  const { rebuildProjections } = api('platform/projections/projection-runner');
  const { allProjections } = api('all-projections');
  const dir = tempDir('rebuild');
  const store = new SqliteEventStore(file);
  // as rebuild-with-swap.ts opens the fresh tables' file (npm run replay, the Projections screen)
  const read = await createReadDb({ kind: 'sqlite', file: join(dir, 'read.db') }, { scratch: true });
  try {
    const started = now();
    const replayed = await rebuildProjections(store, read.db, allProjections());
    const seconds = (now() - started) / 1000;
    if (replayed !== expected) throw new Error(`replayed ${replayed} events, expected ${expected}`);
    const { count } = await read.db.selectFrom('accounts_v2').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    if (Number(count) !== expected / 2) throw new Error(`accounts_v2 holds ${count} rows, expected ${expected / 2}`);
    return { replayed, seconds, eventsPerSec: replayed / seconds };
  } finally {
    await read.close();
    await store.close();
    removeDir(dir);
  }
}

export const scenarios = [
  {
    name: 'rebuild-1m',
    figures: [{ key: 'eventsPerSec', label: 'events/s', unit: 'events/s', goal: { op: '>=', value: 100_000 } }],
    params: (opts) => ({ events: evenCount(opts.events ?? DEFAULT_EVENTS), projections: 'allProjections()', eventStore: 'SQLite (cached file)', readDb: 'SQLite, fresh file per run', batchSize: 5000 }),
    async setup(opts) {
      const events = evenCount(opts.events ?? DEFAULT_EVENTS);
      const file = await cachedEventStore(events);
      const warmupEvents = Math.min(events, WARMUP_EVENTS);
      const warmupFile = warmupEvents === events ? file : await cachedEventStore(warmupEvents);
      return { events, file, warmupEvents, warmupFile };
    },
    async warmup(ctx) {
      const result = await rebuildOnce(ctx.warmupFile, ctx.warmupEvents);
      log(`warm-up: ${fmtInt(result.replayed)} events in ${result.seconds.toFixed(2)} s (${fmtInt(result.eventsPerSec)} events/s)`);
    },
    async run(ctx) {
      const result = await rebuildOnce(ctx.file, ctx.events);
      log(`${fmtInt(result.replayed)} events in ${result.seconds.toFixed(2)} s: ${fmtInt(result.eventsPerSec)} events/s`);
      return result;
    },
  },
];

function evenCount(n) {
  const value = Math.floor(Number(n));
  if (!Number.isFinite(value) || value < 2) throw new Error(`--events must be a number >= 2 (got ${n})`);
  return value - (value % 2);
}
