#!/usr/bin/env node
// The consoles of ceiling-ws-fanout, in their own process (as console-worker.mjs holds
// scan-to-console's): `clients` WebSocket connections to the bare fan-out server, each parsing every
// push as a console parses a live push (JSON) and timing each scan in it from the moment the server
// offered it (`offered_at`: performance.timeOrigin + performance.now(), one clock for both processes
// on this machine). The run ends when the server has closed every socket. Prints one JSON line on
// stdout.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const { url, clients, timeoutSec } = JSON.parse(process.argv[2]);

let latencies = new Float64Array(1 << 20);
let count = 0;
let frames = 0;
let frameBytes = 0;
let unreadable = 0;
let closed = 0;
const failures = [];

const clock = () => performance.timeOrigin + performance.now();

function onMessage(raw) {
  const received = clock();
  frames++;
  frameBytes += raw.length;
  const messages = JSON.parse(raw).result?.data;
  if (!Array.isArray(messages)) {
    unreadable++;
    return;
  }
  for (const message of messages) {
    if (message.kind !== 'attendance.scan') continue;
    if (typeof message.offered_at !== 'number') {
      unreadable++;
      continue;
    }
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = received - message.offered_at;
  }
}

let report = () => undefined;
const connect = () =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const timer = setTimeout(() => reject(new Error('not connected within 30 s')), 30_000);
    socket.once('error', reject);
    socket.once('open', () => {
      clearTimeout(timer);
      socket.off('error', reject);
      socket.on('error', (error) => failures.length < 5 && failures.push(String(error)));
      socket.on('message', onMessage);
      socket.once('close', () => ++closed === clients && report());
      resolve(socket);
    });
  });

report = () => {
  const sorted = latencies.subarray(0, count).sort();
  const pct = (p) => (count ? sorted[Math.min(count, Math.max(1, Math.ceil((p / 100) * count))) - 1] : NaN);
  process.stdout.write(
    `${JSON.stringify({
      clients,
      closed,
      frames,
      deliveries: count,
      unreadable,
      meanFrameBytes: frames ? frameBytes / frames : NaN,
      failures,
      latencyMs: { min: count ? sorted[0] : NaN, p50: pct(50), p90: pct(90), p99: pct(99), max: count ? sorted[count - 1] : NaN },
    })}\n`,
  );
  process.exit(0);
};

// in groups of 50, as console-worker.mjs connects
for (let i = 0; i < clients; i += 50) await Promise.all(Array.from({ length: Math.min(50, clients - i) }, connect));
setTimeout(() => {
  failures.push(`only ${closed} of ${clients} sockets closed by the server within ${timeoutSec} s`);
  report();
}, timeoutSec * 1000).unref();
