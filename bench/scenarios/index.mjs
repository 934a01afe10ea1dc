// Every scenario, in the order `npm run bench` runs them, and the harness that runs one:
// set-up, one warm-up (not measured), N measured runs, then median and spread per figure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { scenarios as append } from './append.mjs';
import { scenarios as ceilingHttpAppend } from './ceiling-http-append.mjs';
import { scenarios as ceilingWsFanout } from './ceiling-ws-fanout.mjs';
import { CACHE_DIR, gc, log, now, summarize } from './lib.mjs';
import { scenarios as listAccounts } from './list-accounts.mjs';
import { scenarios as rebuild } from './rebuild.mjs';
import { scenarios as consoleFirstScreen } from './console-first-screen.mjs';
import { scenarios as memory } from './memory.mjs';
import { scenarios as scanIngest } from './scan-ingest.mjs';
import { scenarios as scanIngestStream } from './scan-ingest-stream.mjs';
import { scenarios as severalProcesses } from './several-processes.mjs';
import { scenarios as signIn } from './sign-in.mjs';

/**
 * The ceiling of a scenario (docs/benchmarks.md, 'Ceilings'): the scenario that measures what this
 * machine does at all for the same shape, and which of its figures bounds which of ours (our key ->
 * the ceiling's key). run.mjs runs a selected scenario's ceiling in the same invocation and puts it,
 * and the ratio figure / ceiling, beside each of these figures.
 */
export const CEILINGS = {
  'scan-ingest-single': { scenario: 'ceiling-http-append', figures: { scansPerSec: 'requestsPerSec', p50: 'p50', p99: 'p99' } },
  'scan-ingest-batch': { scenario: 'append-sqlite-grouped', figures: { scansPerSec: 'eventsPerSec' } },
  'scan-to-console': { scenario: 'ceiling-ws-fanout', figures: { p50: 'p50', p99: 'p99', deliveredShare: 'deliveredShare', scansPerSec: 'scansPerSec' } },
};

/** each ceiling not placed yet goes just before the first scenario it bounds: both see the same minutes of the machine */
function withCeilingsBeforeTheirScenarios(scenarios, ceilings) {
  const ordered = [...scenarios];
  for (const ceiling of ceilings) {
    const firstBounded = ordered.findIndex((s) => CEILINGS[s.name]?.scenario === ceiling.name);
    ordered.splice(firstBounded < 0 ? ordered.length : firstBounded, 0, ceiling);
  }
  return ordered;
}

export const SCENARIOS = withCeilingsBeforeTheirScenarios(
  [...append, ...rebuild, ...listAccounts, ...scanIngest, ...scanIngestStream, ...signIn, ...consoleFirstScreen, ...memory, ...severalProcesses],
  [...ceilingHttpAppend, ...ceilingWsFanout],
);

export const findScenario = (name) => SCENARIOS.find((s) => s.name === name);

function judge(goal, value) {
  if (!goal) return 'info';
  const met = goal.op === '>=' ? value >= goal.value : value <= goal.value;
  return met ? 'pass' : 'MISS';
}

/** CPU profile of the measured runs only (not set-up, not warm-up), via the inspector */
async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const dir = join(CACHE_DIR, 'profiles');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}

export async function runScenario(scenario, opts) {
  const started = now();
  const base = { name: scenario.name, measuredAt: new Date().toISOString(), params: scenario.params(opts), runsRequested: opts.runs };
  let ctx;
  try {
    ctx = await scenario.setup(opts);
    if (ctx?.skip) {
      log(`skipped: ${ctx.skip}`);
      return { ...base, status: 'skipped', reason: ctx.skip };
    }
    log('warm-up (not measured)');
    await scenario.warmup(ctx);
    const stopProfiler = opts.profile ? await startProfiler() : null;
    const runs = [];
    for (let i = 0; i < opts.runs; i++) {
      gc();
      log(`run ${i + 1}/${opts.runs}`);
      runs.push(await scenario.run(ctx, i));
    }
    const profile = stopProfiler ? await stopProfiler(scenario.name) : undefined;
    if (profile) log(`CPU profile of the measured runs: ${profile}`);
    const figures = scenario.figures.map((figure) => {
      const summary = summarize(runs.map((run) => run[figure.key]));
      const everyRunMeetsGoal = figure.goal ? summary.values.every((v) => judge(figure.goal, v) === 'pass') : undefined;
      return { ...figure, ...summary, verdict: judge(figure.goal, summary.median), everyRunMeetsGoal };
    });
    return { ...base, status: 'ok', figures, runs, notes: ctx.notes ?? [], profile, seconds: (now() - started) / 1000 };
  } catch (error) {
    log(`FAILED: ${error instanceof Error ? error.stack : String(error)}`);
    return { ...base, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await scenario.teardown?.(ctx);
  }
}
