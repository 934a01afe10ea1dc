#!/usr/bin/env node
// The load for scan-to-console, in its own process: `clients` consoles subscribed to tRPC
// `live.attendance` over the API's WebSocket (a session cookie and the API's own Origin, as the
// console opens it), and door readers posting single scans at `rate` per second in all (each reader
// one request in flight, as the protocol asks). Each scan's
// device time is unique and comes back as the live message's `at`, so every delivery to every client
// is matched to the moment its scan was posted. Prints one JSON line on stdout.
import { createRequire } from 'node:module';
import http from 'node:http';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const { url, sessionToken, readerTokens, clients, rate, duration, sequenceBase, cardCount } = JSON.parse(process.argv[2]);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const cards = Array.from({ length: cardCount }, (_, i) => `BE${i.toString(16).toUpperCase().padStart(14, '0')}`);

const postedAt = new Map();
let latencies = new Float64Array(1 << 20);
let count = 0;
let unmatched = 0;
// the size of the pushes, which ceiling-ws-fanout's frames mirror
let frames = 0;
let frameBytes = 0;
let scansInFrames = 0;
const failures = [];

function onMessage(raw) {
  const received = performance.now();
  const message = JSON.parse(raw);
  // live.attendance sends one commit's messages together, as an array
  const batch = message.result?.type === 'data' ? message.result.data : null;
  if (!Array.isArray(batch)) return;
  frames++;
  frameBytes += raw.length;
  for (const data of batch) {
    if (data.kind !== 'attendance.scan') continue;
    scansInFrames++;
    const started = postedAt.get(data.at);
    if (started === undefined) {
      unmatched++;
      continue;
    }
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = received - started;
  }
}

function connect() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${sessionToken}`, origin: url } });
    const timer = setTimeout(() => reject(new Error('no subscription started within 30 s')), 30_000);
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'live.attendance' } })));
    socket.on('message', function first(raw) {
      const message = JSON.parse(raw);
      if (message.error) return reject(new Error(`subscription refused: ${JSON.stringify(message.error)}`));
      if (message.result?.type !== 'started') return;
      clearTimeout(timer);
      socket.off('message', first);
      socket.on('message', onMessage);
      resolve(socket);
    });
  });
}

function post(token, body) {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: '/api/v2/reader/scans',
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'x-rollcall-consistency': 'none', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', (error) => resolve({ status: 0, body: String(error) }));
    request.end(body);
  });
}

const sockets = [];
for (let i = 0; i < clients; i += 50) sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, clients - i) }, connect))));

// an open loop at `rate` scans/s (a post does not wait for the previous answer), each scan from the
// next reader with no request in flight
const readers = readerTokens.map((token) => ({ token, sequence: sequenceBase, busy: false }));
let nextReader = 0;
let noFreeReader = 0;
let nextCard = Math.floor(Math.random() * cards.length);
let lastMs = 0;
const inFlight = [];
const total = Math.round(rate * duration);
const started = performance.now();
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  let reader = null;
  for (let k = 0; k < readers.length && !reader; k++) {
    const candidate = readers[(nextReader + k) % readers.length];
    if (!candidate.busy) reader = candidate;
  }
  if (!reader) {
    noFreeReader++;
    continue;
  }
  nextReader = (readers.indexOf(reader) + 1) % readers.length;
  reader.busy = true;
  lastMs = Math.max(Date.now(), lastMs + 1);
  const at = new Date(lastMs).toISOString();
  postedAt.set(at, performance.now());
  const body = JSON.stringify({ card_uid: cards[nextCard++ % cards.length], sequence: ++reader.sequence, device_time: at, sent_at: at });
  inFlight.push(
    post(reader.token, body).then((answer) => {
      reader.busy = false;
      if (answer.status !== 200 && failures.length < 5) failures.push(`${answer.status} ${answer.body.slice(0, 200)}`);
      return answer.status === 200;
    }),
  );
}
const answered = (await Promise.all(inFlight)).filter(Boolean).length;
await new Promise((resolve) => setTimeout(resolve, 2000)); // the last deliveries
for (const socket of sockets) socket.close();
agent.destroy();

const sorted = latencies.subarray(0, count).sort();
const pct = (p) => (count ? sorted[Math.min(count, Math.max(1, Math.ceil((p / 100) * count))) - 1] : NaN);
process.stdout.write(
  `${JSON.stringify({
    clients: sockets.length,
    posted: inFlight.length,
    noFreeReader,
    answered,
    deliveries: count,
    expectedDeliveries: answered * sockets.length,
    unmatched,
    frames,
    meanFrameBytes: frames ? frameBytes / frames : NaN,
    meanScansPerFrame: frames ? scansInFrames / frames : NaN,
    failures,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: count ? sorted[count - 1] : NaN },
  })}\n`,
);
process.exit(0);
