// The ceiling of unbatched HTTP scans (docs/benchmarks.md, 'Ceilings'): what this machine does at all
// for scan-ingest-single's shape, without Nest, Express, the reader protocol or the domain. A bare
// `node:http` server in this process answers one POST route by appending the request's body as one
// row to a SQLite file, group-committed the way the SQLite event store commits
// (apps/api/src/platform/event-store/sqlite-event-store.ts): every request whose body arrived within
// one turn of the event loop is written in one transaction (`setImmediate`), WAL, `synchronous=FULL`,
// the same pragmas and the same `es_events` table, and each request is answered once its
// transaction is durable. No savepoint, no version check, no JSON parsing: those are the product's
// costs, which the ceiling leaves out.
//
// The load is scan-ingest-single's own: scan-worker.mjs in a separate process, `--connections`
// readers (default 64), each a closed loop with one request in flight on its keep-alive connection,
// posting the same single-scan bodies to the same path. The answer carries an ack shaped as the
// API's, so the worker counts it the same way.
import { createRequire } from 'node:module';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, fmtInt, log, removeDir, runWorker, tempDir } from './lib.mjs';

const require = createRequire(import.meta.url);
const Database = require('@rollcall/sqlite-driver').default;

const WORKER = fileURLToPath(new URL('./scan-worker.mjs', import.meta.url));
const SCAN_PATH = '/api/v2/reader/scans';
/** scan-ingest-single's defaults (scan-ingest.mjs): 64 readers, cards of 20,000 accounts */
const DEFAULT_READERS = 64;
const DEFAULT_CARDS = 20_000;
/** the SQLite event store's batch limit (SqliteEventStoreOptions.maxBatch) */
const MAX_BATCH = 1000;

/** es_events as the SQLite event store creates it (the same statement, from the built store) */
const { SCHEMA } = api('platform/event-store/sqlite-event-store');

/**
 * The bare server: POST SCAN_PATH appends the body as one row; the rows of every request queued in
 * one turn of the event loop share one transaction. Resolves with { url, stats, close }.
 */
function startAppendServer(file) {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.exec(SCHEMA);
  const insert = db.prepare("INSERT INTO es_events (stream_id, stream_version, type, data, metadata) VALUES (?, 0, 'ScanReceived', ?, '{}')");
  const stats = { rows: 0, transactions: 0, largestBatch: 0 };
  const queue = [];
  let flushHandle = null;
  let nextStream = 0;

  const answer = (response, status, body) => response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);

  function flush() {
    flushHandle = null;
    const batch = queue.splice(0, MAX_BATCH);
    if (queue.length > 0) flushHandle = setImmediate(flush);
    if (batch.length === 0) return;
    const positions = new Array(batch.length);
    try {
      db.exec('BEGIN IMMEDIATE');
      for (let i = 0; i < batch.length; i++) {
        // stream ids that grow, as the product's UUIDv7 ones do: each lands at the end of the index
        const streamId = `scan-${String(nextStream++).padStart(12, '0')}`;
        positions[i] = Number(insert.run(streamId, batch[i].body).lastInsertRowid);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      const body = JSON.stringify({ error: String(error) });
      for (const pending of batch) answer(pending.response, 503, body);
      return;
    }
    stats.rows += batch.length;
    stats.transactions++;
    stats.largestBatch = Math.max(stats.largestBatch, batch.length);
    for (let i = 0; i < batch.length; i++) {
      answer(batch[i].response, 200, `{"acks":[{"status":"accepted","outcome":"appended","position":"${positions[i]}.${positions[i]}"}]}`);
    }
  }

  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== SCAN_PATH) return void answer(response, 404, '{}');
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      queue.push({ body: Buffer.concat(chunks).toString('utf8'), response });
      flushHandle ??= setImmediate(flush);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        stats,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => {
              db.close();
              done();
            });
          }),
      });
    });
  });
}

/** one load run of scan-worker.mjs against the bare server; checks every request became one row */
async function load(ctx, duration) {
  const rowsBefore = ctx.server.stats.rows;
  const transactionsBefore = ctx.server.stats.transactions;
  const sequenceBase = ++ctx.runs * 100_000_000;
  const result = await runWorker(WORKER, { url: ctx.server.url, tokens: ctx.tokens, cardCount: ctx.cards, duration, batch: 1, sequenceBase, consistencyWait: false }, 'scan worker');
  const { non2xx, errors, refused, examples } = result.failures;
  if (non2xx + errors + refused > 0) throw new Error(`${non2xx} non-2xx, ${errors} errors, ${refused} refused of ${fmtInt(result.requests)} (${examples.join(' | ')})`);
  const rows = ctx.server.stats.rows - rowsBefore;
  if (rows !== result.requests) throw new Error(`${fmtInt(result.requests)} requests answered but ${fmtInt(rows)} rows appended`);
  const transactions = ctx.server.stats.transactions - transactionsBefore;
  return { ...result, rows, transactions, meanBatch: rows / Math.max(1, transactions) };
}

export const scenarios = [
  {
    name: 'ceiling-http-append',
    // run.mjs: which options change this scenario (and so its label)
    shapedBy: ['duration', 'connections'],
    figures: [
      { key: 'requestsPerSec', label: 'requests/s, one row each', unit: 'requests/s' },
      { key: 'p50', label: 'p50 latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 latency', unit: 'ms', decimals: 2 },
    ],
    params: (opts) => ({
      bounds: 'scan-ingest-single',
      server: `bare node:http, POST ${SCAN_PATH} appends the body as one es_events row; rows of one event-loop turn in one transaction (at most ${MAX_BATCH}); WAL, synchronous=FULL; answered after COMMIT`,
      readers: opts.connections ?? DEFAULT_READERS,
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      loadGenerator: "scan-ingest-single's: scan-worker.mjs in a separate process, one closed loop per reader",
    }),
    async setup(opts) {
      const dataDir = tempDir('ceiling-http-append');
      const ctx = { dataDir, duration: opts.duration ?? 10, runs: 0, cards: DEFAULT_CARDS, notes: [] };
      ctx.tokens = Array.from({ length: opts.connections ?? DEFAULT_READERS }, (_, i) => `ceiling-reader-${i}`);
      ctx.server = await startAppendServer(join(dataDir, 'events.db'));
      log(`bare append server at ${ctx.server.url}, ${ctx.tokens.length} readers`);
      return ctx;
    },
    async warmup(ctx) {
      const result = await load(ctx, 3);
      log(`warm-up: ${fmtInt(result.requestsPerSec)} requests/s, p99 ${result.latencyMs.p99.toFixed(2)} ms`);
    },
    async run(ctx) {
      const result = await load(ctx, ctx.duration);
      log(
        `${fmtInt(result.requests)} requests, ${result.seconds.toFixed(1)} s: ${fmtInt(result.requestsPerSec)} requests/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms; ${fmtInt(result.transactions)} transactions, ${result.meanBatch.toFixed(1)} rows each on average`,
      );
      return { requestsPerSec: result.requestsPerSec, p50: result.latencyMs.p50, p99: result.latencyMs.p99, transactions: result.transactions, meanBatch: result.meanBatch, worker: result };
    },
    async teardown(ctx) {
      await ctx?.server?.close().catch(() => undefined);
      if (ctx?.dataDir) removeDir(ctx.dataDir);
    },
  },
];
