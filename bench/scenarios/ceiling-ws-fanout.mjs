// The ceiling of the live fan-out (docs/benchmarks.md, 'Ceilings'): what this machine does at all for
// scan-to-console's push, without the API, tRPC or per-subscription work. A bare `ws` server in this
// process holds CLIENTS sockets (opened by fanout-worker.mjs in a separate process, as
// console-worker.mjs opens scan-to-console's consoles) and, at scan-to-console's offered rate, encodes
// each message once, frames it once (`WebSocket.Sender.frame`) and writes that same buffer to every
// socket: one JSON encoding and one write per socket and message, nothing else.
//
// The message is shaped as live.attendance's push of one scan (tRPC's data envelope around an
// `attendance.scan` and a `presence.changed`, as apps/api/src/features/attendance/attendance.live.ts
// builds them), about 480 bytes and 29 more for the send time, which rides in the first message as
// `sent_at`. scan-to-console's consoles receive one such frame per commit: one scan a frame while
// the API keeps up with the 100 scans/s, several when it lags (console-worker.mjs records
// `meanScansPerFrame` and `meanFrameBytes`); one scan a frame is the most frames, the offered shape.
// The consoles parse every frame and time it from its send time. BENCH_CONSOLES sets the number of
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

/** one live.attendance push of one scan, encoded once and framed once for every socket */
function preparedFrame(index) {
  const at = new Date().toISOString();
  const position = `${40_000 + index}.${40_000 + index}`;
  const text = JSON.stringify({
    id: 1,
    result: {
      type: 'data',
      data: [
        { kind: 'attendance.scan', outcome: 'arrival', account_id: ACCOUNT_ID, slot_id: SLOT_ID, reader_id: READER_ID, door: 'Door 1', at, flags: [], position, sent_at: clock() },
        { kind: 'presence.changed', account_id: ACCOUNT_ID, present: true, at, position },
      ],
    },
  });
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

/** writes RATE frames/s (open loop: a late tick does not push the next one back) for `duration` s */
async function offer(sockets, duration) {
  const total = Math.round(RATE * duration);
  let writeMs = 0;
  let writeBlocked = 0;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const writing = performance.now();
    const frame = preparedFrame(i);
    for (const socket of sockets) if (!socket.write(frame)) writeBlocked++;
    writeMs += performance.now() - writing;
  }
  return { sent: total, seconds: (performance.now() - started) / 1000, writeMsPerFrame: writeMs / total, writeBlocked };
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
  if (result.failures.length || result.unreadable) throw new Error(`${result.unreadable} unreadable frames; ${result.failures.join(' | ')}`);
  const expected = offered.sent * result.clients;
  return {
    p50: result.latencyMs.p50,
    p99: result.latencyMs.p99,
    deliveredShare: (100 * result.deliveries) / Math.max(1, expected),
    framesPerSec: offered.sent / offered.seconds,
    writeMsPerFrame: offered.writeMsPerFrame,
    worker: { ...result, ...offered, expectedDeliveries: expected },
  };
}

const describe = (run) =>
  `${fmtInt(run.worker.sent)} frames to ${run.worker.clients} consoles: ${fmtInt(run.worker.deliveries)} of ${fmtInt(run.worker.expectedDeliveries)} deliveries, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, max ${run.worker.latencyMs.max.toFixed(1)} ms; ${run.writeMsPerFrame.toFixed(2)} ms to write a frame to every socket, ${Math.round(run.worker.meanFrameBytes)} bytes a frame`;

export const scenarios = [
  {
    name: 'ceiling-ws-fanout',
    // run.mjs: which options change this scenario (and so its label)
    shapedBy: ['duration'],
    figures: [
      { key: 'p50', label: 'p50 send-to-console latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 send-to-console latency', unit: 'ms', decimals: 2 },
      { key: 'deliveredShare', label: 'frames delivered', unit: '%', decimals: 1 },
      { key: 'framesPerSec', label: `frames/s written (of ${RATE} offered)`, unit: 'frames/s', decimals: 1 },
      { key: 'writeMsPerFrame', label: `time to write one frame to ${fmtInt(CLIENTS)} sockets`, unit: 'ms', decimals: 2 },
    ],
    params: (opts) => ({
      bounds: 'scan-to-console',
      consoles: `${CLIENTS} WebSocket connections from a separate process (fanout-worker.mjs), each parsing every frame`,
      frames: `${RATE}/s (open loop), each one live.attendance-shaped push of one scan, JSON-encoded and framed once, the same buffer written to every socket`,
      server: 'bare ws (WebSocketServer, noServer) on node:http in the scenario process',
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      ...(CLIENTS === 1_000 ? {} : { labelExtras: [`${fmtInt(CLIENTS)} consoles`] }),
    }),
    async setup(opts) {
      const server = await startFanOutServer();
      log(`bare fan-out server at ${server.url}, ${CLIENTS} consoles, ${RATE} frames/s`);
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
