// The ceiling of the live fan-out (docs/benchmarks.md, 'Ceilings'): what this machine does at all for
// scan-to-console's push, without the API, tRPC or per-subscription work. A bare `ws` server in this
// process holds CLIENTS sockets (opened by fanout-worker.mjs in a separate process, as
// console-worker.mjs opens scan-to-console's consoles). Scans are offered at scan-to-console's rate
// (open loop); whenever the event loop is free, the scans offered since the last write are encoded
// once as one push, framed once (`WebSocket.Sender.frame`) and that same buffer is written to every
// socket: one JSON encoding per push and one write per socket and push, nothing else.
//
// A push is shaped as live.attendance's (tRPC's data envelope around an `attendance.scan` and a
// `presence.changed` per scan, as apps/api/src/features/attendance/attendance.live.ts builds them):
// about 480 bytes for one scan, and 32 more for the moment the scan was offered, which rides in its
// `attendance.scan` as `offered_at`. While the writes keep up, a push holds one scan, the offered
// shape; when they fall behind, the scans that waited go out together, as the API's commits gather
// the scans that arrived meanwhile (console-worker.mjs records scan-to-console's `meanScansPerFrame`
// and `meanFrameBytes`, this scenario the same). The consoles parse every push and time each scan
// from its offer, as scan-to-console times a scan from its post. BENCH_CONSOLES sets the number of
// consoles of both scenarios (default 1,000).
import { createRequire } from 'node:module';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { fmtInt, log, runWorker } from './lib.mjs';
import { CONSOLE_CLIENTS as CLIENTS, CONSOLE_RATE as RATE } from './scan-ingest.mjs';

const require = createRequire(import.meta.url);
const { Sender, WebSocketServer } = require('ws');

const WORKER = fileURLToPath(new URL('./fanout-worker.mjs', import.meta.url));
/** as console-worker.mjs, the consoles stay 2 s after the last message for the last deliveries */
const SETTLE_MS = 2000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const clock = () => performance.timeOrigin + performance.now();

/** time-ordered ids of the product's length (UUIDv7), fixed for the run: the encoding is what costs */
const ACCOUNT_ID = '019ac3f2-5e1b-7d40-9a3e-4c2f1b7e8d90';
const SLOT_ID = '019ac3f2-6a0c-7b11-8f2d-2e9c4a1d7f35';
const READER_ID = '019ac3f1-0b7e-7c52-b4a1-7d3e9f0c2a68';

/** the live messages of one scan, as attendance.live.ts makes them for an arrival */
function scanMessages(index) {
  const at = new Date().toISOString();
  const position = `${40_000 + index}.${40_000 + index}`;
  return [
    { kind: 'attendance.scan', outcome: 'arrival', account_id: ACCOUNT_ID, slot_id: SLOT_ID, reader_id: READER_ID, door: 'Door 1', at, flags: [], position, offered_at: clock() },
    { kind: 'presence.changed', account_id: ACCOUNT_ID, present: true, at, position },
  ];
}

/** one live.attendance push of the scans' messages, encoded once and framed once for every socket */
function preparedFrame(messages) {
  const text = JSON.stringify({ id: 1, result: { type: 'data', data: messages } });
  return Buffer.concat(Sender.frame(Buffer.from(text), { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false }));
}

function startFanOutServer() {
  const sockets = new Set();
  const server = http.createServer((request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => undefined);
    wss.handleUpgrade(request, socket, head, (ws) => {
      // the frames go straight to the TCP socket; `ws` keeps the handshake, pings and the close
      sockets.add(socket);
      ws.once('close', () => sockets.delete(socket));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `ws://127.0.0.1:${server.address().port}`,
        sockets,
        closeClients: () => {
          for (const ws of wss.clients) ws.close(1000, 'run over');
        },
        close: () =>
          new Promise((done) => {
            for (const ws of wss.clients) ws.terminate();
            wss.close();
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

/**
 * Offers RATE scans/s for `duration` s (open loop: a late tick does not push the next one back) and
 * writes, on the next turn of the event loop, every scan offered since the last write as one push.
 */
async function offer(sockets, duration) {
  const total = Math.round(RATE * duration);
  const stats = { pushes: 0, writeMs: 0, writeBlocked: 0 };
  let pending = [];
  let flushHandle = null;
  const flush = () => {
    flushHandle = null;
    const writing = performance.now();
    const frame = preparedFrame(pending);
    pending = [];
    for (const socket of sockets) if (!socket.write(frame)) stats.writeBlocked++;
    stats.pushes++;
    stats.writeMs += performance.now() - writing;
  };
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(...scanMessages(i));
    flushHandle ??= setImmediate(flush);
  }
  const seconds = (performance.now() - started) / 1000;
  while (flushHandle) await sleep(1);
  return { scans: total, seconds, pushes: stats.pushes, scansPerPush: total / stats.pushes, writeMsPerPush: stats.writeMs / stats.pushes, writeBlocked: stats.writeBlocked };
}

async function fanOutRun(ctx, duration) {
  const { server } = ctx;
  let workerFailure = null;
  const worker = runWorker(WORKER, { url: server.url, clients: CLIENTS, timeoutSec: duration + 90 }, 'fan-out worker');
  worker.catch((error) => (workerFailure = error));
  const deadline = performance.now() + 60_000;
  while (server.sockets.size < CLIENTS && !workerFailure) {
    if (performance.now() > deadline) throw new Error(`only ${server.sockets.size} of ${CLIENTS} consoles connected within 60 s`);
    await sleep(20);
  }
  if (workerFailure) throw workerFailure;
  const offered = await offer(server.sockets, duration);
  await sleep(SETTLE_MS);
  server.closeClients();
  const result = await worker;
  if (result.failures.length || result.unreadable) throw new Error(`${result.unreadable} unreadable pushes or scans; ${result.failures.join(' | ')}`);
  const expected = offered.scans * result.clients;
  return {
    p50: result.latencyMs.p50,
    p99: result.latencyMs.p99,
    deliveredShare: (100 * result.deliveries) / Math.max(1, expected),
    scansPerSec: offered.scans / offered.seconds,
    writeMsPerPush: offered.writeMsPerPush,
    scansPerPush: offered.scansPerPush,
    worker: { ...result, ...offered, expectedDeliveries: expected },
  };
}

const describe = (run) =>
  `${fmtInt(run.worker.scans)} scans in ${fmtInt(run.worker.pushes)} pushes (${run.scansPerPush.toFixed(1)} scans, ${fmtInt(run.worker.meanFrameBytes)} bytes each on average) to ${run.worker.clients} consoles: ${fmtInt(run.worker.deliveries)} of ${fmtInt(run.worker.expectedDeliveries)} deliveries, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, max ${run.worker.latencyMs.max.toFixed(1)} ms; ${run.writeMsPerPush.toFixed(2)} ms to write a push to every socket`;

export const scenarios = [
  {
    name: 'ceiling-ws-fanout',
    // run.mjs: which options change this scenario (and so its label)
    shapedBy: ['duration'],
    figures: [
      { key: 'p50', label: 'p50 offer-to-console latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 offer-to-console latency', unit: 'ms', decimals: 2 },
      { key: 'deliveredShare', label: 'messages delivered', unit: '%', decimals: 1 },
      { key: 'scansPerSec', label: `scans/s offered and sent (of ${RATE})`, unit: 'scans/s', decimals: 1 },
      { key: 'writeMsPerPush', label: `time to write one push to ${fmtInt(CLIENTS)} sockets`, unit: 'ms', decimals: 2 },
      { key: 'scansPerPush', label: 'scans per push', unit: 'scans', decimals: 1 },
    ],
    params: (opts) => ({
      bounds: 'scan-to-console',
      consoles: `${CLIENTS} WebSocket connections from a separate process (fanout-worker.mjs), each parsing every frame`,
      scans: `${RATE}/s offered (open loop); the scans offered since the last write go out as one live.attendance-shaped push, JSON-encoded and framed once, the same buffer written to every socket`,
      server: 'bare ws (WebSocketServer, noServer) on node:http in the scenario process',
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      ...(CLIENTS === 1_000 ? {} : { labelExtras: [`${fmtInt(CLIENTS)} consoles`] }),
    }),
    async setup(opts) {
      const server = await startFanOutServer();
      log(`bare fan-out server at ${server.url}, ${CLIENTS} consoles, ${RATE} scans/s offered`);
      return { server, duration: opts.duration ?? 10, notes: [] };
    },
    async warmup(ctx) {
      log(`warm-up: ${describe(await fanOutRun(ctx, 3))}`);
    },
    async run(ctx) {
      const run = await fanOutRun(ctx, ctx.duration);
      log(describe(run));
      return run;
    },
    async teardown(ctx) {
      await ctx?.server?.close().catch(() => undefined);
    },
  },
];
