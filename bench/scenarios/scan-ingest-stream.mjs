#!/usr/bin/env node
// Unbatched scans over the reader's WebSocket (docs/readers.md, 'Scans over the channel'; docs/benchmarks.md,
// 'Scan ingest'): scan-ingest-single's set-up (scan-ingest.mjs: seeded accounts with a card each, readers
// and their tokens through the admin routes), readers (`--connections`, default 64) and duration, but each
// reader holds its WebSocket to /api/v2/reader/ws, as the door agent does, and sends one scan per
// `scan_batch` frame, awaiting its `scan_batch_ack` before the next (one request in flight per reader, as
// over HTTP). `consistency: 'none'`, as the agent sends it (BENCH_SCAN_WAIT=1: the answer waits for the
// read models). Figures: scans/s, p50 and p99 from a frame's send to its acknowledgement.
//
// This file is three things:
// - the scenario (`scenarios`, for bench/scenarios/index.mjs);
// - its load generator, in its own process: `node scan-ingest-stream.mjs '<json options>'` prints one
//   JSON line, the shape of scan-worker.mjs's;
// - a runner while the scenario is not in index.mjs: `node bench/scenarios/scan-ingest-stream.mjs
//   [--compare] [--duration S] [--connections N] [--runs N] [--accounts N]` runs it (and with --compare
//   scan-ingest-single first, same options), each in its own process like bench/run.mjs, and prints
//   their figures side by side. Needs the built API (npx tsc -b apps/api).
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const isMain = process.argv[1] === SELF;
const CONSISTENCY_WAIT = process.env.BENCH_SCAN_WAIT === '1';

// ------------------------------------------------------------------------------------------------
// the load generator (a process of its own)

async function streamWorker({ url, tokens, cardCount, duration, sequenceBase, consistencyWait }) {
  const WebSocket = createRequire(import.meta.url)('ws');
  const wsUrl = `${url.replace('http', 'ws')}/api/v2/reader/ws`;
  /** the seeded cards' UIDs (scan-ingest.mjs cardUid), 8 bytes of upper-case hex */
  const cards = Array.from({ length: cardCount }, (_, i) => `BE${i.toString(16).toUpperCase().padStart(14, '0')}`);
  let nextCard = Math.floor(Math.random() * cards.length);
  const card = () => cards[nextCard++ % cards.length];

  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let scans = 0;
  const outcomes = {};
  const failures = { non2xx: 0, errors: 0, refused: 0, examples: [] };
  const record = (ms) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  };
  const example = (text) => failures.examples.length < 5 && failures.examples.push(text);

  /** one reader's socket, open and configured (the server sends `configure` first) */
  const connect = (token) =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      socket.on('message', function configured(data) {
        if (JSON.parse(data.toString()).type !== 'configure') return;
        socket.off('message', configured);
        resolve(socket);
      });
    });

  async function reader(socket, deadline) {
    let answer = null;
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'scan_batch_ack' || frame.type === 'error') answer?.(frame);
    });
    socket.on('close', (code) => answer?.({ type: 'closed', code }));
    let sequence = sequenceBase;
    let requests = 0;
    while (performance.now() < deadline) {
      const at = new Date().toISOString();
      const frame = JSON.stringify({ type: 'scan_batch', request_id: `s${++requests}`, ...(consistencyWait ? {} : { consistency: 'none' }), sent_at: at, scans: [{ card_uid: card(), sequence: ++sequence, device_time: at }] });
      const started = performance.now();
      const reply = await new Promise((resolve) => {
        answer = resolve;
        socket.send(frame);
      });
      const elapsed = performance.now() - started;
      if (reply.type === 'closed') {
        failures.errors++;
        example(`socket closed ${reply.code}`);
        return;
      }
      if (reply.type === 'error' || reply.request_id !== `s${requests}`) {
        failures.non2xx++;
        example(JSON.stringify(reply).slice(0, 300));
        continue;
      }
      record(elapsed);
      for (const ack of reply.acks) {
        if (ack.status !== 'accepted') {
          failures.refused++;
          example(JSON.stringify(ack));
          continue;
        }
        scans++;
        outcomes[ack.outcome] = (outcomes[ack.outcome] ?? 0) + 1;
      }
    }
  }

  // every reader connected before the clock starts, as scan-worker's keep-alive connections are opened lazily but reused
  const sockets = await Promise.all(tokens.map(connect));
  const started = performance.now();
  const deadline = started + duration * 1000;
  await Promise.all(sockets.map((socket) => reader(socket, deadline)));
  const seconds = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.close();

  const sorted = latencies.subarray(0, count).sort();
  const pct = (p) => (count ? sorted[Math.min(count, Math.max(1, Math.ceil((p / 100) * count))) - 1] : NaN);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i];
  return {
    seconds,
    requests: count,
    scans,
    scansPerSec: scans / seconds,
    requestsPerSec: count / seconds,
    outcomes,
    failures,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), p999: pct(99.9), max: count ? sorted[count - 1] : NaN, mean: count ? sum / count : NaN },
  };
}

if (isMain && process.argv[2]?.startsWith('{')) {
  const result = await streamWorker(JSON.parse(process.argv[2]));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

// ------------------------------------------------------------------------------------------------
// the scenario

const { runWorker } = await import('./lib.mjs');
const { scanIngestScenario } = await import('./scan-ingest.mjs');

const base = scanIngestScenario({
  name: 'scan-ingest-stream',
  batch: 1,
  readers: (opts) => opts.connections ?? 64,
  figures: [
    { key: 'scansPerSec', label: 'scans/s', unit: 'scans/s', goal: { op: '>=', value: 20_000 } },
    { key: 'p50', label: 'p50 latency', unit: 'ms', decimals: 2 },
    { key: 'p99', label: 'p99 latency', unit: 'ms', decimals: 2, goal: { op: '<=', value: 25 } },
  ],
});

export const scenarios = [
  {
    ...base,
    params: (opts) => ({
      ...base.params(opts),
      request: 'a scan_batch frame of one scan on /api/v2/reader/ws, awaiting its scan_batch_ack',
      loadGenerator: 'ws clients (one socket per reader, one frame in flight each) in a separate process',
      consistencyWait: CONSISTENCY_WAIT ? 'waits for the read models' : "consistency: 'none'",
    }),
    /** each load run starts its readers' sequences above every earlier run's (scan-ingest.mjs does the same) */
    load(ctx, duration) {
      const sequenceBase = ++ctx.runs * 100_000_000;
      return runWorker(SELF, { url: ctx.url, tokens: ctx.tokens, cardCount: ctx.accounts, duration, sequenceBase, consistencyWait: CONSISTENCY_WAIT }, 'stream worker');
    },
  },
];

// ------------------------------------------------------------------------------------------------
// the runner (until index.mjs lists the scenario)

async function runOne(name, opts) {
  const { findScenario, runScenario } = await import('./index.mjs');
  const scenario = name === scenarios[0].name ? scenarios[0] : findScenario(name);
  return runScenario(scenario, opts);
}

if (isMain && process.argv[2] === '--child') {
  const result = await runOne(process.argv[3], JSON.parse(process.argv[4]));
  process.send(result, () => process.exit(0));
} else if (isMain) {
  const opts = { runs: 1 };
  const names = ['scan-ingest-stream'];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--compare') names.unshift('scan-ingest-single');
    else if (['--duration', '--connections', '--runs', '--accounts'].includes(flag)) opts[flag.slice(2)] = Number(argv[++i]);
    else {
      process.stderr.write(`unknown option ${flag}\nusage: node bench/scenarios/scan-ingest-stream.mjs [--compare] [--duration S] [--connections N] [--runs N] [--accounts N]\n`);
      process.exit(2);
    }
  }
  const results = [];
  for (const name of names) {
    process.stderr.write(`${name}\n`);
    results.push(
      await new Promise((resolve) => {
        let result = null;
        const child = fork(SELF, ['--child', name, JSON.stringify(opts)], { execArgv: ['--expose-gc', '--max-old-space-size=4096'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        child.on('message', (message) => (result = message));
        child.on('exit', (code) => resolve(result ?? { name, status: 'failed', reason: `exited with ${code} before reporting` }));
      }),
    );
  }
  for (const result of results) {
    if (result.status !== 'ok') {
      process.stdout.write(`${result.name}: ${result.status} ${result.reason ?? ''}\n`);
      continue;
    }
    const figures = result.figures.map((figure) => `${figure.label} ${figure.median.toFixed(figure.decimals ?? 0)} (${figure.min.toFixed(figure.decimals ?? 0)}-${figure.max.toFixed(figure.decimals ?? 0)})`);
    process.stdout.write(`${result.name}: ${figures.join(', ')}\n`);
  }
  process.stdout.write(`${JSON.stringify(results.map((result) => ({ name: result.name, status: result.status, figures: result.figures?.map(({ key, median, min, max }) => ({ key, median, min, max })), outcomes: result.runs?.map((run) => run.worker?.outcomes) })))}\n`);
}
