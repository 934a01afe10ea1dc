// Scan ingest over HTTP (docs/benchmarks.md, 'Scan ingest'): door readers post scans to the real API
// (startApp: Nest, Express, the reader protocol, the RecordReaderScans handler, the SQLite event
// store and its projections), loaded from a separate process (scan-worker.mjs).
//
// Seeding: a first start creates the policy and the administrator; the administrator registers the
// door readers and issues their tokens through the admin routes (docs/readers.md). With the API
// stopped, N accounts (AccountCreated with their reservations) and one card each
// (SmartCardRegistered on smart-card-{UID}) are appended straight into the SQLite event store, as
// list-accounts-100k does; the second start catches the projections up before it listens.
//
// - scan-ingest-single: one scan per request, `--connections` readers (default 64), each its own
//   sequence and one request in flight. Figures: scans/s, p50 and p99 latency of a request.
// - scan-ingest-batch: batches of 500, 8 readers. Figure: scans/s.
// - scan-to-console: 1,000 consoles subscribed to live.attendance, 100 scans/s offered by 20 readers
//   (console-worker.mjs); p50/p99 from a post to each console's live message.
// Cards are taken round-robin over the N accounts, so a card comes back every N scans: at a few
// thousand scans/s most scans of a run fall inside the 60 s duplicate window of the card's previous
// scan (kept as `duplicate`, one event each, exactly like a toggle); the JSON records the outcomes.
//
// scan-ingest-batch-pg is scan-ingest-batch with the event store and the read DB on PostgreSQL
// (PG_URL, a fresh ROLLCALL_PG_SCHEMA per scenario run, dropped after). memory-rss (memory.mjs)
// reuses this set-up and load through `scanIngestScenario`.
import { fileURLToPath } from 'node:url';
import { pgUnreachable } from './append.mjs';
import { accountCreated, ADMIN, api, apiConfig, dropPgSchema, fmtInt, inFlight, log, newPgSchema, now, openEventStore, removeDir, runWorker, systemMetadata, tempDir, threadCpuMs } from './lib.mjs';

export const DEFAULT_ACCOUNTS = 20_000;
const WORKER = fileURLToPath(new URL('./scan-worker.mjs', import.meta.url));
export const BATCH = 500;
export const BATCH_READERS = 8;
/**
 * Readers send `X-Rollcall-Consistency: none` (they read nothing back, ADR 0013); BENCH_SCAN_WAIT=1
 * measures the answer after the read models' wait instead, as before that header existed.
 */
const CONSISTENCY_WAIT = process.env.BENCH_SCAN_WAIT === '1';

const configFor = (dataDir, storage, schema) => apiConfig(dataDir, { storage, schema });

/** 8-byte card UIDs, upper-case hex, one per account (scan-worker.mjs makes the same ones) */
const cardUid = (i) => `BE${i.toString(16).toUpperCase().padStart(14, '0')}`;

async function seedAccountsWithCards(config, count) {
  const store = await openEventStore(config);
  try {
    await inFlight(count, 500, async (i) => {
      const { stream, accountId, event } = accountCreated(i, 'scan');
      const reservations = [
        { scope: 'account.username', value: event.data.username.toLowerCase() },
        { scope: 'account.email', value: event.data.email.toLowerCase() },
      ];
      const uid = cardUid(i);
      const registered = {
        type: 'SmartCardRegistered',
        data: { cardId: api('platform/runtime/ids.js').newAggregateId(), cardUid: uid, accountId, via: 'assignment', registeredBy: 'bench', scan: null, registeredAt: event.data.createdAt },
        metadata: systemMetadata(),
      };
      await store.appendToStreams([
        { streamId: stream, events: [event], options: { expectedVersion: 'no_stream', reservations } },
        { streamId: `smart-card-${uid}`, events: [registered], options: { expectedVersion: 'no_stream' } },
      ]);
    });
  } finally {
    await store.close();
  }
}

async function adminCall(url, token, method, path, body) {
  const response = await fetch(url + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const json = await response.json().catch(() => null);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** one load run in a child process; resolves with the worker's JSON */
const loadRun = (options) => runWorker(WORKER, options, 'scan worker');

export function checked(result) {
  const { non2xx, errors, refused, examples } = result.failures;
  if (non2xx + errors + refused > 0) {
    throw new Error(`${non2xx} non-2xx, ${errors} errors, ${refused} refused scans of ${fmtInt(result.scans)} (${examples.join(' | ')}): the figures would be meaningless`);
  }
  if (result.scans === 0) throw new Error('no scan was accepted');
  return result;
}

/**
 * A scan ingest scenario: `batch` scans a request from `readers(opts)` door readers, on `storage`
 * ('sqlite' or 'pg'). Its `setup`, `load(ctx, seconds)` and `teardown` serve other scenarios too.
 */
export function scanIngestScenario({ name, batch, readers, figures, storage = 'sqlite', ...overrides }) {
  return {
    name,
    figures,
    params: (opts) => ({
      accounts: opts.accounts ?? DEFAULT_ACCOUNTS,
      request: batch > 1 ? `POST /api/v2/reader/scans/batch, ${batch} scans` : 'POST /api/v2/reader/scans, one scan',
      readers: readers(opts),
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      storage: storage === 'pg' ? 'PostgreSQL event store and read DB, fresh schema per scenario run, dropped after' : 'SQLite event store and read DB',
      loadGenerator: 'node:http closed loops (one per reader) in a separate process',
      consistencyWait: CONSISTENCY_WAIT ? 'waits for the read models' : 'X-Rollcall-Consistency: none',
    }),
    async setup(opts) {
      if (storage === 'pg') {
        const reason = await pgUnreachable();
        if (reason) return { skip: reason };
      }
      const { startApp } = api('create-app');
      const accounts = opts.accounts ?? DEFAULT_ACCOUNTS;
      const dataDir = tempDir(name);
      const schema = storage === 'pg' ? newPgSchema('bench_scan') : undefined;
      const ctx = { dataDir, schema, accounts, duration: opts.duration ?? 10, notes: [], runs: 0 };
      const config = configFor(dataDir, storage, schema);
      try {
        // first start: bootstrap, then readers and their tokens through the admin routes
        const first = await startApp(config, { print: () => undefined });
        const signIn = await fetch(`${first.url}/api/v1/admin/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
        const { token: adminToken } = await signIn.json();
        if (!adminToken) throw new Error(`sign-in failed: ${signIn.status}`);
        ctx.adminToken = adminToken;
        ctx.tokens = [];
        for (let r = 0; r < readers(opts); r++) {
          const reader = await adminCall(first.url, adminToken, 'POST', '/api/v2/readers', { name: `Bench reader ${r}`, door: `Door ${r % 4}`, role: 'door' });
          const issued = await adminCall(first.url, adminToken, 'POST', `/api/v2/readers/${reader.data.id}/token`);
          ctx.tokens.push(issued.data.token);
        }
        await first.close();

        let started = now();
        await seedAccountsWithCards(config, accounts);
        log(`seeded ${fmtInt(accounts)} accounts with a card each in ${((now() - started) / 1000).toFixed(1)} s`);

        started = now();
        ctx.app = await startApp(config, { print: () => undefined });
        ctx.url = ctx.app.url;
        log(`API started (catch-up included) in ${((now() - started) / 1000).toFixed(1)} s at ${ctx.url}, ${ctx.tokens.length} readers`);
        return ctx;
      } catch (error) {
        await this.teardown(ctx); // the harness gets no ctx from a set-up that throws
        throw error;
      }
    },
    async warmup(ctx) {
      const result = checked(await this.load(ctx, 3));
      log(`warm-up: ${fmtInt(result.scansPerSec)} scans/s, p99 ${result.latencyMs.p99.toFixed(2)} ms`);
    },
    async run(ctx) {
      const cpuBefore = threadCpuMs();
      const result = checked(await this.load(ctx, ctx.duration));
      const cpuAfter = threadCpuMs();
      // the API's CPU per 1,000 scans by thread: on a busy machine this holds where scans/s does not
      const per1k = (key) => (cpuBefore && cpuAfter && result.scans ? ((cpuAfter[key] - cpuBefore[key]) / result.scans) * 1000 : null);
      const cpu = { mainCpuPer1k: per1k('main'), otherCpuPer1k: per1k('others') };
      log(`${fmtInt(result.scans)} scans in ${fmtInt(result.requests)} requests, ${result.seconds.toFixed(1)} s: ${fmtInt(result.scansPerSec)} scans/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms; CPU per 1,000 scans: main thread ${cpu.mainCpuPer1k?.toFixed(1)} ms, other threads ${cpu.otherCpuPer1k?.toFixed(1)} ms; ${JSON.stringify(result.outcomes)}`);
      return { scansPerSec: result.scansPerSec, p50: result.latencyMs.p50, p99: result.latencyMs.p99, ...cpu, worker: result };
    },
    /** each load run starts its readers' sequences above every earlier run's */
    load(ctx, duration) {
      const sequenceBase = ++ctx.runs * 100_000_000;
      return loadRun({ url: ctx.url, tokens: ctx.tokens, cardCount: ctx.accounts, duration, batch, sequenceBase, consistencyWait: CONSISTENCY_WAIT });
    },
    async teardown(ctx) {
      await ctx?.app?.close().catch(() => undefined);
      if (ctx?.dataDir) removeDir(ctx.dataDir);
      if (ctx?.schema) await dropPgSchema(ctx.schema);
    },
    ...overrides,
  };
}

/**
 * scan-to-console's consoles (BENCH_CONSOLES for a smaller run while developing; the label says so)
 * and offered scans/s; ceiling-ws-fanout.mjs, its ceiling, uses the same
 */
export const CONSOLE_CLIENTS = Number(process.env.BENCH_CONSOLES ?? 1_000);
export const CONSOLE_RATE = 100;
/** 100 scans/s with one request in flight per reader: 20 readers, 5 scans/s each on average */
const CONSOLE_READERS = 20;
const CONSOLE_WORKER = fileURLToPath(new URL('./console-worker.mjs', import.meta.url));

/** scan-to-console: one load run (consoles and the reader) in a child process */
function consoleRun(ctx, duration) {
  const options = { url: ctx.url, sessionToken: ctx.adminToken, readerTokens: ctx.tokens, clients: CONSOLE_CLIENTS, rate: CONSOLE_RATE, duration, sequenceBase: ++ctx.runs * 100_000_000, cardCount: ctx.accounts };
  return runWorker(CONSOLE_WORKER, options, 'console worker').then((result) => {
    if (result.failures.length || result.answered < result.posted) throw new Error(`${result.posted - result.answered} of ${result.posted} posts failed: ${result.failures.join(' | ')}`);
    return result;
  });
}

export const scenarios = [
  scanIngestScenario({
    name: 'scan-ingest-single',
    batch: 1,
    readers: (opts) => opts.connections ?? 64,
    figures: [
      { key: 'scansPerSec', label: 'scans/s', unit: 'scans/s', goal: { op: '>=', value: 20_000 } },
      { key: 'p50', label: 'p50 latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 latency', unit: 'ms', decimals: 2, goal: { op: '<=', value: 25 } },
      { key: 'mainCpuPer1k', label: 'main-thread CPU per 1,000 scans', unit: 'ms', decimals: 1 },
      { key: 'otherCpuPer1k', label: 'other threads\' CPU per 1,000 scans', unit: 'ms', decimals: 1 },
    ],
  }),
  scanIngestScenario({
    name: 'scan-ingest-batch',
    batch: BATCH,
    readers: () => BATCH_READERS,
    figures: [
      { key: 'scansPerSec', label: 'scans/s', unit: 'scans/s', goal: { op: '>=', value: 100_000 } },
      { key: 'p50', label: 'p50 latency of a batch', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 latency of a batch', unit: 'ms', decimals: 2 },
      { key: 'mainCpuPer1k', label: 'main-thread CPU per 1,000 scans', unit: 'ms', decimals: 1 },
      { key: 'otherCpuPer1k', label: 'other threads\' CPU per 1,000 scans', unit: 'ms', decimals: 1 },
    ],
  }),
  scanIngestScenario({
    name: 'scan-ingest-batch-pg',
    storage: 'pg',
    batch: BATCH,
    readers: () => BATCH_READERS,
    // reported, no goal (docs/benchmarks.md sets the goals on the default storage)
    figures: [
      { key: 'scansPerSec', label: 'scans/s', unit: 'scans/s' },
      { key: 'p50', label: 'p50 latency of a batch', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 latency of a batch', unit: 'ms', decimals: 2 },
      { key: 'mainCpuPer1k', label: 'main-thread CPU per 1,000 scans', unit: 'ms', decimals: 1 },
      { key: 'otherCpuPer1k', label: 'other threads\' CPU per 1,000 scans', unit: 'ms', decimals: 1 },
    ],
  }),
  scanIngestScenario({
    name: 'scan-to-console',
    batch: 1,
    readers: () => CONSOLE_READERS,
    figures: [
      { key: 'p50', label: 'p50 post-to-WS latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 post-to-WS latency', unit: 'ms', decimals: 2, goal: { op: '<=', value: 50 } },
      { key: 'deliveredShare', label: 'messages delivered', unit: '%', decimals: 1 },
      { key: 'scansPerSec', label: `scans/s answered (of ${CONSOLE_RATE} offered)`, unit: 'scans/s', decimals: 1 },
    ],
    params: (opts) => ({
      accounts: opts.accounts ?? DEFAULT_ACCOUNTS,
      consoles: `${CONSOLE_CLIENTS} tRPC live.attendance subscriptions over WebSocket (administrator session)`,
      scans: `${CONSOLE_RATE} single scans/s (open loop) from ${CONSOLE_READERS} door readers, X-Rollcall-Consistency: none`,
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      loadGenerator: 'consoles and reader in one separate process (console-worker.mjs)',
      ...(CONSOLE_CLIENTS === 1_000 ? {} : { labelExtras: [`${fmtInt(CONSOLE_CLIENTS)} consoles`] }),
    }),
    async warmup(ctx) {
      const result = await consoleRun(ctx, 3);
      log(`warm-up: ${fmtInt(result.deliveries)} of ${fmtInt(result.expectedDeliveries)} deliveries, p99 ${result.latencyMs.p99.toFixed(2)} ms`);
    },
    async run(ctx) {
      const result = await consoleRun(ctx, ctx.duration);
      log(`${fmtInt(result.answered)} scans (${fmtInt(result.noFreeReader)} not sent: every reader had a request in flight) to ${result.clients} consoles: ${fmtInt(result.deliveries)} of ${fmtInt(result.expectedDeliveries)} deliveries, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms, max ${result.latencyMs.max.toFixed(0)} ms; ${fmtInt(result.frames)} frames of ${result.meanScansPerFrame.toFixed(1)} scans and ${fmtInt(result.meanFrameBytes)} bytes on average`);
      return { p50: result.latencyMs.p50, p99: result.latencyMs.p99, scansPerSec: result.answered / ctx.duration, deliveredShare: (100 * result.deliveries) / Math.max(1, result.expectedDeliveries), worker: result };
    },
  }),
];
