// Resident memory of the API (issue 10): process.memoryUsage.rss() of the process running startApp,
// which is this scenario's own process (the load generator runs in another one).
//
// The set-up and the load are scan-ingest-batch's (scanIngestScenario in scan-ingest.mjs): 20,000
// accounts with a card each, 8 door readers posting batches of 500 scans. After the API starts, RSS
// is sampled every 100 ms for IDLE_SECONDS with no load, after a forced GC (this process seeded the
// event store first; a production start has no such garbage): "idle after start" (goal <= 200 MB;
// measured once, at set-up, so every run repeats it). Then each run samples IDLE_SECONDS idle again ("idle
// between loads", after the harness's forced GC and the previous run's load) and the whole load run
// (median and peak). The warm-up is a 3 s load, as scan-ingest-batch's. 1 MB = 2^20 bytes.
//
// This process also seeded the event store before the API started and runs the small harness and the
// sampling thread: they count in its RSS, so the figures lean high. It runs with --max-old-space-size=4096 (bench/run.mjs).
import { BATCH, BATCH_READERS, checked, scanIngestScenario } from './scan-ingest.mjs';
import { Worker } from 'node:worker_threads';
import { fmtInt, gc, log } from './lib.mjs';

const IDLE_SECONDS = 5;
const SAMPLE_MS = 100;
const MB = 2 ** 20;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Samples the process's RSS every SAMPLE_MS from a worker thread (the API's busy event loop would
 * delay a timer of its own) until stop(); stop() resolves with the samples in MB. The worker's own
 * few MB count in the figures.
 */
function sampleRss() {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const samples = [process.memoryUsage.rss()];
     const timer = setInterval(() => samples.push(process.memoryUsage.rss()), ${SAMPLE_MS});
     parentPort.once('message', () => { clearInterval(timer); samples.push(process.memoryUsage.rss()); parentPort.postMessage(samples); });`,
    { eval: true },
  );
  return async () => {
    const samples = new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage('stop');
    const bytes = await samples;
    await worker.terminate();
    return bytes.map((b) => b / MB);
  };
}

const medianOf = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

async function idleRss(seconds) {
  const stop = sampleRss();
  await sleep(seconds * 1000);
  const samples = await stop();
  return { median: medianOf(samples), max: Math.max(...samples), samples: samples.length };
}

const scanIngest = scanIngestScenario({ name: 'memory-rss', batch: BATCH, readers: () => BATCH_READERS, figures: [] });

export const scenarios = [
  {
    name: 'memory-rss',
    figures: [
      { key: 'idleAfterStartMB', label: 'RSS idle after start', unit: 'MB', decimals: 0, goal: { op: '<=', value: 200 } },
      { key: 'idleMB', label: 'RSS idle between loads', unit: 'MB', decimals: 0 },
      { key: 'loadMedianMB', label: 'RSS under scan ingest, median', unit: 'MB', decimals: 0 },
      { key: 'loadPeakMB', label: 'RSS under scan ingest, peak', unit: 'MB', decimals: 0 },
      { key: 'scansPerSec', label: 'scans/s during the load', unit: 'scans/s' },
    ],
    params: (opts) => ({
      ...scanIngest.params(opts),
      measured: 'process.memoryUsage.rss() of the process running startApp (this scenario process), every 100 ms',
      idleSec: IDLE_SECONDS,
      mb: '2^20 bytes',
    }),
    async setup(opts) {
      const ctx = await scanIngest.setup(opts);
      if (ctx?.skip) return ctx;
      gc(); // the seeding's garbage: a production start has none
      const idle = await idleRss(IDLE_SECONDS);
      ctx.idleAfterStart = idle;
      log(`RSS idle after start: median ${idle.median.toFixed(0)} MB, max ${idle.max.toFixed(0)} MB (${IDLE_SECONDS} s)`);
      ctx.notes.push(`RSS idle after start (${fmtInt(ctx.accounts)} accounts with a card): ${idle.median.toFixed(0)} MB; this process also seeded the store`);
      return ctx;
    },
    async warmup(ctx) {
      const result = checked(await scanIngest.load(ctx, 3));
      log(`warm-up: ${fmtInt(result.scansPerSec)} scans/s, RSS ${(process.memoryUsage.rss() / MB).toFixed(0)} MB`);
    },
    async run(ctx) {
      const idle = await idleRss(IDLE_SECONDS);
      const stop = sampleRss();
      let result;
      try {
        result = checked(await scanIngest.load(ctx, ctx.duration));
      } finally {
        ctx.lastSamples = await stop();
      }
      const samples = ctx.lastSamples;
      const loadMedianMB = medianOf(samples);
      const loadPeakMB = Math.max(...samples);
      log(`RSS idle ${idle.median.toFixed(0)} MB; under load (${fmtInt(result.scansPerSec)} scans/s) median ${loadMedianMB.toFixed(0)} MB, peak ${loadPeakMB.toFixed(0)} MB (${samples.length} samples)`);
      return {
        idleAfterStartMB: ctx.idleAfterStart.median,
        idleMB: idle.median,
        loadMedianMB,
        loadPeakMB,
        scansPerSec: result.scansPerSec,
        idle,
        samples: samples.length,
        heapUsedMB: process.memoryUsage().heapUsed / MB,
        worker: result,
      };
    },
    teardown: (ctx) => scanIngest.teardown(ctx),
  },
];
