#!/usr/bin/env node
// Rollcall benchmarks. `npm run bench` builds, then runs every scenario; `npm run bench -- <scenario>
// [<scenario>...] [--runs N] [--events N] [--accounts N] [--duration S] [--connections N] [--profile]`
// runs some. Each scenario runs in its own Node process: a warm-up, then N measured runs; the
// table shows the median with the spread (min-max), the scenario's ceiling (what this machine does at
// all for the same shape, measured in the same invocation) with the ratio figure / ceiling, and the
// verdict against the goal. Results go to
// bench/results/<YYYY-MM-DD>.json (merged per scenario with earlier runs of the same day).
// See docs/benchmarks.md.
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { CEILINGS, findScenario, SCENARIOS } from './scenarios/index.mjs';
import { BENCH_DIR, PG_URL, REPO_ROOT, TMP_DIR } from './scenarios/lib.mjs';
import { pgUnreachable } from './scenarios/append.mjs';
import { referenceWorkMs } from './reference-work.mjs';

const USAGE = `usage: npm run bench -- [scenario ...] [options]

scenarios (default: all, in this order):
${SCENARIOS.map((s) => `  ${s.name}`).join('\n')}

options:
  --runs N          measured runs per scenario after the warm-up (default 3)
  --events N        events per run (append-*: default 2,000 single / 100,000 sqlite grouped /
                    10,000 pg grouped; rebuild-1m: size of the replayed store, default 1,000,000)
  --accounts N      accounts in the read model for list-accounts-100k (default 100,000) and
                    list-accounts-100k-pg (default 20,000); accounts with a card each for
                    scan-ingest-* and memory-rss (default 20,000); accounts signing in for
                    sign-in-argon2 (default 32)
  --duration S      seconds per load run for list-accounts-*, scan-ingest-*, scan-to-console,
                    ceiling-*, sign-in-argon2 and memory-rss (default 10; memory-rss also samples
                    S seconds idle)
  --connections N   autocannon connections for list-accounts-* (default 50) and sign-in-argon2
                    (default 8); readers, one request in flight each, for scan-ingest-single and
                    ceiling-http-append (default 64)
  --no-ceilings     run a named scenario without its ceiling (ceiling-http-append for
                    scan-ingest-single, append-sqlite-grouped for scan-ingest-batch, ceiling-ws-fanout
                    for scan-to-console; docs/benchmarks.md, 'Ceilings'); without names, all but ceiling-*
  --profile         write a CPU profile of the measured runs to bench/.cache/profiles/
                    (slower figures; the results file is not written)
  --no-save         do not write bench/results/
`;

function parseArgs(argv) {
  const opts = { runs: 3 };
  const names = [];
  const numeric = { '--runs': 'runs', '--events': 'events', '--accounts': 'accounts', '--duration': 'duration', '--connections': 'connections' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    if (flag in numeric) {
      const value = Number(inline ?? argv[++i]);
      if (!Number.isFinite(value) || value <= 0) fail(`${flag} needs a positive number`);
      opts[numeric[flag]] = value;
    } else if (arg === '--profile') opts.profile = true;
    else if (arg === '--no-save') opts.noSave = true;
    else if (arg === '--no-ceilings') opts.noCeilings = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) fail(`unknown option ${arg}`);
    else names.push(arg);
  }
  opts.runs = Math.floor(opts.runs);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) fail(`unknown scenario ${unknown.join(', ')}`);
  // a figure is judged beside its ceiling measured in the same invocation (the machine's speed varies
  // from day to day and within minutes), so a named scenario brings its ceiling along
  const wanted = new Set(names);
  if (!opts.noCeilings) for (const name of names) if (CEILINGS[name]) wanted.add(CEILINGS[name].scenario);
  // without names: everything, less the scenarios that are only ceilings (ceiling-*) if asked
  const selected = names.length ? SCENARIOS.filter((s) => wanted.has(s.name)) : SCENARIOS.filter((s) => !(opts.noCeilings && s.name.startsWith('ceiling-')));
  return { opts, selected };
}

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** `npm run bench` builds first; `node bench/run.mjs` alone rebuilds the API only if dist is stale */
function ensureBuilt() {
  const marker = join(REPO_ROOT, 'apps/api/dist/tsconfig.tsbuildinfo');
  const builtAt = existsSync(join(REPO_ROOT, 'apps/api/dist/create-app.js')) && existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const newestSource = (dir) => {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
    return newest;
  };
  const sources = ['apps/api/src', 'libs/domain/src', 'libs/contracts/src'].map((d) => join(REPO_ROOT, d)).filter(existsSync);
  if (builtAt > 0 && Math.max(...sources.map(newestSource)) <= builtAt) return;
  process.stderr.write('apps/api/dist is missing or older than its sources: npx tsc -b apps/api\n');
  execFileSync('npx', ['tsc', '-b', 'apps/api'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

function runInChild(scenario, opts) {
  return new Promise((resolve) => {
    let result = null;
    const child = fork(join(BENCH_DIR, 'scenarios/child.mjs'), [scenario.name, JSON.stringify(opts)], {
      execArgv: ['--expose-gc', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message) => (result = message));
    child.on('exit', (code, signal) => {
      resolve(result ?? { name: scenario.name, status: 'failed', reason: `scenario process exited with ${signal ?? code} before reporting` });
    });
  });
}

// ------------------------------------------------------------------------------------------------
// machine facts

async function machineFacts() {
  const require = createRequire(import.meta.url);
  const cpus = os.cpus();
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  let sqlite = null;
  try {
    const Database = require('@rollcall/sqlite-driver').default;
    const db = new Database(':memory:');
    sqlite = db.prepare('select sqlite_version() as v').get().v;
    db.close();
  } catch {
    // reported as null
  }
  let postgres = null;
  if (!(await pgUnreachable())) {
    const pg = require('pg');
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    postgres = (await client.query('show server_version')).rows[0].server_version;
    await client.end();
  }
  const status = git('status', '--porcelain');
  return {
    date: new Date().toISOString(),
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    sqlite,
    postgres,
    gitCommit: git('rev-parse', 'HEAD'),
    gitDirty: status === null ? null : status.length > 0,
  };
}

// ------------------------------------------------------------------------------------------------
// table

const number = (value, decimals) =>
  value === undefined || Number.isNaN(value)
    ? '-'
    : decimals
      ? value.toFixed(decimals)
      : Math.round(value).toLocaleString('en');

function figureText(figure) {
  const d = figure.decimals ?? 0;
  const label = figure.label === figure.unit ? '' : `${figure.label} `;
  return `${label}${number(figure.median, d)} ${figure.unit} (${number(figure.min, d)}-${number(figure.max, d)})`;
}

function goalText(goal, unit) {
  if (!goal) return '-';
  return `${goal.op} ${goal.value.toLocaleString('en')} ${unit}`;
}

function scenarioLabel(result, opts) {
  const extras = [];
  // options that shape the HTTP scenarios (list-accounts-*, scan-ingest-*, sign-in-argon2, memory-rss);
  // a scenario may name its own (`shapedBy`)
  const isList = ['list-', 'scan-', 'sign-in-', 'memory-'].some((prefix) => result.name.startsWith(prefix));
  const shapedBy = findScenario(result.name)?.shapedBy ?? (isList ? ['accounts', 'duration', 'connections'] : ['events']);
  // what a scenario's defaults differ in from its name (list-accounts-100k-pg: 20,000 accounts)
  extras.push(...(result.params?.labelExtras ?? []));
  if (opts.events && shapedBy.includes('events')) extras.push(`${opts.events.toLocaleString('en')} events`);
  if (opts.accounts && shapedBy.includes('accounts')) extras.push(`${opts.accounts.toLocaleString('en')} accounts`);
  if (opts.duration && shapedBy.includes('duration')) extras.push(`${opts.duration} s`);
  if (opts.connections && shapedBy.includes('connections')) extras.push(`${opts.connections} connections`);
  if (opts.runs !== 3) extras.push(`${opts.runs} run${opts.runs === 1 ? '' : 's'}`);
  return extras.length ? `${result.name} (${extras.join(', ')})` : result.name;
}

/** figure / ceiling: two significant digits (0.052 of the ceiling's throughput, 14 times its latency) */
const ratioText = (ratio) => (ratio === undefined || !Number.isFinite(ratio) ? '-' : ratio >= 100 ? Math.round(ratio).toLocaleString('en') : ratio.toPrecision(2));

function ceilingText(figure) {
  const ceiling = figure.ceiling;
  if (!ceiling) return '-';
  if (ceiling.median === undefined) return `${ceiling.scenario}: ${ceiling.status}`;
  return `${number(ceiling.median, ceiling.decimals ?? 0)} ${ceiling.unit} (${ceiling.scenario})`;
}

/**
 * Puts each bounded figure's ceiling (CEILINGS in scenarios/index.mjs), measured in this invocation,
 * beside it: `ceiling` names the ceiling scenario on the result; each figure gets `ceiling` (that
 * scenario's figure: median, min, max) and `ratio` (figure median / ceiling median).
 */
function withCeilings(results) {
  return results.map((result) => {
    const bound = CEILINGS[result.name];
    if (!bound || result.status !== 'ok') return result;
    const ceilingResult = results.find((r) => r.name === bound.scenario);
    const figures = result.figures.map((figure) => {
      const key = bound.figures[figure.key];
      if (!key) return figure;
      const match = ceilingResult?.status === 'ok' ? ceilingResult.figures.find((f) => f.key === key) : undefined;
      if (!match) return { ...figure, ceiling: { scenario: bound.scenario, key, status: ceilingResult ? ceilingResult.status : 'not run' } };
      const { label, unit, decimals, median: ceilingMedian, min, max } = match;
      return { ...figure, ceiling: { scenario: bound.scenario, key, label, unit, decimals, median: ceilingMedian, min, max }, ratio: figure.median / ceilingMedian };
    });
    return { ...result, ceiling: bound.scenario, figures };
  });
}

function tableOf(results, opts) {
  const rows = [];
  for (const result of results) {
    const label = scenarioLabel(result, opts);
    if (result.status === 'skipped') rows.push([label, `skipped: ${result.reason}`, '-', '-', '-', 'SKIP']);
    else if (result.status === 'failed') rows.push([label, `failed: ${result.reason.split('\n')[0].slice(0, 160)}`, '-', '-', '-', 'FAIL']);
    else for (const figure of result.figures) rows.push([label, figureText(figure), ceilingText(figure), ratioText(figure.ratio), goalText(figure.goal, figure.unit), figure.verdict]);
  }
  const header = ['scenario', 'figure: median (min-max)', 'ceiling: median', 'figure / ceiling', 'goal', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

// ------------------------------------------------------------------------------------------------

const localDate = (date = new Date()) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

async function main() {
  const { opts, selected } = parseArgs(process.argv.slice(2));
  ensureBuilt();
  rmSync(TMP_DIR, { recursive: true, force: true }); // leftovers of an interrupted run
  const startedAt = Date.now();
  const referenceBefore = referenceWorkMs();
  const measured = [];
  for (const scenario of selected) {
    process.stderr.write(`\n== ${scenario.name}\n`);
    measured.push(await runInChild(scenario, opts));
  }
  rmSync(TMP_DIR, { recursive: true, force: true });
  const results = withCeilings(measured);

  const machine = { ...(await machineFacts()), referenceWorkMs: { before: referenceBefore, after: referenceWorkMs() } };
  const table = tableOf(results, opts);
  const notes = results.flatMap((r) => (r.notes ?? []).map((n) => `${r.name}: ${n}`));
  const totalSeconds = (Date.now() - startedAt) / 1000;
  process.stdout.write(`\n${table}\n`);
  if (results.some((r) => r.ceiling)) {
    process.stdout.write('  figure / ceiling: throughput as a share of the ceiling (1 = all the machine does for that shape), latency as a multiple of the ceiling\'s\n');
  }
  for (const note of notes) process.stdout.write(`  ${note}\n`);
  process.stdout.write(
    `\n${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}, SQLite ${machine.sqlite}, PostgreSQL ${machine.postgres ?? 'n/a'}; commit ${machine.gitCommit?.slice(0, 10)}${machine.gitDirty ? ' (with uncommitted changes)' : ''}; ${totalSeconds.toFixed(0)} s\n`,
  );
  process.stdout.write(
    `machine speed: the reference work (bench/reference-work.mjs) took ${machine.referenceWorkMs.before} ms before the scenarios and ${machine.referenceWorkMs.after} ms after (lower is faster; 2026-11-26: 500 to 860 ms)\n`,
  );

  if (opts.profile || opts.noSave) {
    process.stdout.write(opts.profile ? 'profiled run: results not saved (profiling slows the figures)\n' : 'results not saved (--no-save)\n');
  } else {
    const dir = join(BENCH_DIR, 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${localDate()}.json`);
    let previous = { scenarios: {} };
    try {
      previous = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // first run of the day
    }
    // keyed by the table's label, so a shrunk run (`--events 200000`) does not replace a full one
    const scenarios = { ...previous.scenarios };
    for (const result of results) scenarios[scenarioLabel(result, opts)] = { ...result, options: opts, machine };
    const rank = (key) => SCENARIOS.findIndex((s) => key === s.name || key.startsWith(`${s.name} (`));
    const ordered = Object.fromEntries(Object.keys(scenarios).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((key) => [key, scenarios[key]]));
    writeFileSync(file, `${JSON.stringify({ machine, lastInvocation: { options: opts, scenarios: results.map((r) => r.name), seconds: totalSeconds, table }, scenarios: ordered }, null, 2)}\n`);
    process.stdout.write(`results: ${file}\n`);
  }
  if (results.some((r) => r.status === 'failed')) process.exitCode = 1;
}

await main();
