// Resident memory of the API (docs/benchmarks.md, 'Scenarios'). The goal's figure is the API alone:
// `node apps/api/dist/main.js` started as its own process on the seeded data, its VmRSS sampled idle.
// The others are process.memoryUsage.rss() of the process running startApp, which is this scenario's own
// process (the load generator runs in another one).
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
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BATCH, BATCH_READERS, checked, scanIngestScenario } from './scan-ingest.mjs';
import { API_NODE_FLAGS, api, apiConfig, apiEnv, fmtInt, gc, log, REPO_ROOT } from './lib.mjs';

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

/** VmRSS of a process, in MB, from /proc (Linux) */
function rssOf(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return (Number(match[1]) * 1024) / MB;
}

/**
 * The figure the goal is about: the API as it runs in production, `node apps/api/dist/main.js` in a
 * process of its own on the seeded data (nothing else in it), sampled for IDLE_SECONDS once it is ready.
 */
async function idleRssOfOwnProcess(dataDir) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [...API_NODE_FLAGS, join(REPO_ROOT, 'apps/api/dist/main.js')], { env: { ...process.env, ...apiEnv(dataDir), PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  try {
    for (let deadline = Date.now() + 60_000; ; await sleep(200)) {
      if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}: ${stderr}`);
      if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`the API did not become ready: ${stderr}`);
    }
    const samples = [];
    for (let i = 0; i < (IDLE_SECONDS * 1000) / SAMPLE_MS; i++) {
      samples.push(rssOf(child.pid));
      await sleep(SAMPLE_MS);
    }
    return { median: medianOf(samples), max: Math.max(...samples), samples: samples.length };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const scanIngest = scanIngestScenario({ name: 'memory-rss', batch: BATCH, readers: () => BATCH_READERS, figures: [] });

export const scenarios = [
  {
    name: 'memory-rss',
    figures: [
      { key: 'ownProcessIdleMB', label: 'RSS idle after start, API in its own process', unit: 'MB', decimals: 0, goal: { op: '<=', value: 200 } },
      { key: 'idleAfterStartMB', label: 'RSS idle after start, in the seeding process', unit: 'MB', decimals: 0 },
      { key: 'idleMB', label: 'RSS idle between loads', unit: 'MB', decimals: 0 },
      { key: 'loadMedianMB', label: 'RSS under scan ingest, median', unit: 'MB', decimals: 0 },
      { key: 'loadPeakMB', label: 'RSS under scan ingest, peak', unit: 'MB', decimals: 0 },
      { key: 'scansPerSec', label: 'scans/s during the load', unit: 'scans/s' },
    ],
    params: (opts) => ({
      ...scanIngest.params(opts),
      measured: 'VmRSS of node apps/api/dist/main.js alone on the seeded data (the goal), then process.memoryUsage.rss() of the process running startApp (this scenario process), every 100 ms',
      idleSec: IDLE_SECONDS,
      mb: '2^20 bytes',
    }),
    async setup(opts) {
      const ctx = await scanIngest.setup(opts);
      if (ctx?.skip) return ctx;
      // the goal's figure first: the same data, the API alone in its own process
      await ctx.app.close();
      const own = await idleRssOfOwnProcess(ctx.dataDir);
      ctx.ownProcessIdle = own;
      log(`RSS idle after start, API in its own process: median ${own.median.toFixed(0)} MB, max ${own.max.toFixed(0)} MB (${IDLE_SECONDS} s)`);
      ctx.notes.push(`RSS idle after start, API in its own process (${fmtInt(ctx.accounts)} accounts with a card): ${own.median.toFixed(0)} MB`);
      const { startApp } = api('create-app');
      ctx.app = await startApp(apiConfig(ctx.dataDir), { print: () => undefined });
      ctx.url = ctx.app.url;
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
        ownProcessIdleMB: ctx.ownProcessIdle.median,
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
