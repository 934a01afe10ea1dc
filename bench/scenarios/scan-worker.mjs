#!/usr/bin/env node
// The reader load generator for scan-ingest-*, in its own process (so it does not share the API's
// event loop). Usage: node scan-worker.mjs '<json options>'; prints one JSON line on stdout.
//
// Each simulated reader is a closed loop over its own keep-alive connection: one request in flight,
// as the reader protocol asks (docs/readers.md), its own sequence numbers, counting up from
// `sequenceBase` (each run starts above the previous one, so nothing is refused as going backwards).
// Cards are taken round-robin from the `cardCount` seeded ones, shared by all readers. autocannon is not used here: its
// per-connection context is reset before every request, so it cannot keep a reader's sequence.
import http from 'node:http';

const { url, tokens, cardCount, duration, batch, sequenceBase, consistencyWait } = JSON.parse(process.argv[2]);
const target = new URL(url);
const single = batch <= 1;
const path = single ? '/api/v2/reader/scans' : '/api/v2/reader/scans/batch';
const agent = new http.Agent({ keepAlive: true, maxSockets: tokens.length, maxFreeSockets: tokens.length });

// a reader reads nothing back: it skips the API's wait for the read models, as the door agent does
// (docs/readers.md); BENCH_SCAN_WAIT=1 in scan-ingest.mjs measures the wait
const extraHeaders = consistencyWait ? {} : { 'x-rollcall-consistency': 'none' };

/** the seeded cards' UIDs (scan-ingest.mjs cardUid), 8 bytes of upper-case hex */
const cards = Array.from({ length: cardCount }, (_, i) => `BE${i.toString(16).toUpperCase().padStart(14, '0')}`);
let nextCard = Math.floor(Math.random() * cards.length);
const card = () => cards[nextCard++ % cards.length];

let latencies = new Float64Array(1 << 16);
let count = 0;
let scans = 0;
const outcomes = {};
const failures = { non2xx: 0, errors: 0, refused: 0, examples: [] };

function record(ms) {
  if (count === latencies.length) {
    const bigger = new Float64Array(latencies.length * 2);
    bigger.set(latencies);
    latencies = bigger;
  }
  latencies[count++] = ms;
}

function post(token, body) {
  return new Promise((resolve) => {
    const request = http.request(
      { host: target.hostname, port: target.port, path, method: 'POST', agent, headers: { ...extraHeaders, authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
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

async function reader(token, deadline) {
  let sequence = sequenceBase;
  while (performance.now() < deadline) {
    const at = new Date().toISOString();
    let body;
    if (single) body = JSON.stringify({ card_uid: card(), sequence: ++sequence, device_time: at, sent_at: at });
    else {
      const list = new Array(batch);
      for (let i = 0; i < batch; i++) list[i] = { card_uid: card(), sequence: ++sequence, device_time: at };
      body = JSON.stringify({ sent_at: at, scans: list });
    }
    const started = performance.now();
    const answer = await post(token, body);
    const elapsed = performance.now() - started;
    if (answer.status !== 200) {
      if (answer.status === 0) failures.errors++;
      else failures.non2xx++;
      if (failures.examples.length < 5) failures.examples.push(`${answer.status} ${answer.body.slice(0, 300)}`);
      continue;
    }
    record(elapsed);
    for (const ack of JSON.parse(answer.body).acks) {
      if (ack.status !== 'accepted') {
        failures.refused++;
        if (failures.examples.length < 5) failures.examples.push(JSON.stringify(ack));
        continue;
      }
      scans++;
      outcomes[ack.outcome] = (outcomes[ack.outcome] ?? 0) + 1;
    }
  }
}

const started = performance.now();
const deadline = started + duration * 1000;
await Promise.all(tokens.map((token) => reader(token, deadline)));
const seconds = (performance.now() - started) / 1000;
agent.destroy();

const sorted = latencies.subarray(0, count).sort();
const pct = (p) => (count ? sorted[Math.min(count, Math.max(1, Math.ceil((p / 100) * count))) - 1] : NaN);
let sum = 0;
for (let i = 0; i < count; i++) sum += sorted[i];
process.stdout.write(
  `${JSON.stringify({
    seconds,
    requests: count,
    scans,
    scansPerSec: scans / seconds,
    requestsPerSec: count / seconds,
    outcomes,
    failures,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), p999: pct(99.9), max: count ? sorted[count - 1] : NaN, mean: count ? sum / count : NaN },
  })}\n`,
);
