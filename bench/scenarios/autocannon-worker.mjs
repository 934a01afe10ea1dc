#!/usr/bin/env node
// One autocannon run in its own process (so the load generator does not share the API's event
// loop). Usage: node autocannon-worker.mjs '<json options>'; prints one JSON line on stdout.
//
// autocannon's own latency histogram has a resolution of 1 ms (values are truncated to whole
// milliseconds); the per-response times it emits are sub-millisecond, so we also record those and
// report percentiles from them.
//
// Options: url, connections, duration, headers; `method` (default GET) and `bodies` (optional: the
// requests' bodies, taken round-robin across all connections, e.g. one sign-in per account).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const { url, connections, duration, headers, method = 'GET', bodies } = JSON.parse(process.argv[2]);
let nextBody = 0;
// autocannon calls setupRequest before every request (a connection's own context is reset each time)
const requests = bodies?.length ? [{ method, setupRequest: (request) => ({ ...request, body: bodies[nextBody++ % bodies.length] }) }] : undefined;

let samples = new Float64Array(1 << 16);
let count = 0;
let statusOther = 0;

const instance = autocannon({ url, connections, duration, headers, method, ...(requests ? { requests } : {}) }, (error, result) => {
  if (error) {
    process.stderr.write(`autocannon failed: ${error.stack ?? error}\n`);
    process.exit(1);
  }
  const sorted = samples.subarray(0, count).sort();
  const pct = (p) => (count ? sorted[Math.min(count, Math.max(1, Math.ceil((p / 100) * count))) - 1] : NaN);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i];
  const output = {
    duration: result.duration,
    requestsTotal: result.requests.total,
    requestsPerSec: result.requests.average,
    requestsPerSecComputed: result.requests.total / result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusOther,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), p999: pct(99.9), max: count ? sorted[count - 1] : NaN, mean: count ? sum / count : NaN, samples: count },
    autocannonLatencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
});

instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode < 200 || statusCode >= 300) {
    statusOther++;
    return;
  }
  if (count === samples.length) {
    const bigger = new Float64Array(samples.length * 2);
    bigger.set(samples);
    samples = bigger;
  }
  samples[count++] = responseTime;
});
