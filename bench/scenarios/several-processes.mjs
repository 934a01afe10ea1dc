// Writes through the real API on PostgreSQL, with 1 and with 3 API processes sharing one schema
// (docs/adr/0017-several-api-processes.md): a closed loop keeps CONNECTIONS
// `POST /api/v2/account` in flight, spread round-robin over the processes, for DURATION seconds.
// A write is counted when it answers 201, i.e. once the read models hold it (read your writes): with 3
// processes, two of them wait for the leader's checkpoints, so the figure includes that hop.
// Each measurement starts its processes (`node apps/api/dist/main.js`) on a fresh schema and stops
// them after; accounts are created without a password, so argon2 is not what is measured.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { pgUnreachable } from './append.mjs';
import { ADMIN, API_NODE_FLAGS, apiEnv, dropPgSchema, fmtInt, log, newPgSchema, now, percentile, PG_URL, REPO_ROOT, removeDir, tempDir } from './lib.mjs';

const API_MAIN = join(REPO_ROOT, 'apps/api/dist/main.js');
const DEFAULT_CONNECTIONS = 32;
const DEFAULT_DURATION = 10;
const WARMUP_DURATION = 3;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startProcess(schema, dataDir, secretsKey) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...API_NODE_FLAGS, API_MAIN], {
    // one deployment, one secrets key: the OpenID Connect keys in the shared read database are sealed with it
    env: { ...process.env, ...apiEnv(dataDir, { storage: 'pg', schema }), PORT: String(port), ROLLCALL_SECRETS_KEY: secretsKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/readyz`).catch(() => null);
    if (ready?.status === 200) return { url, child };
  }
  child.kill('SIGKILL');
  throw new Error(`API did not become ready: ${stderr}`);
}

async function stopProcess({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** `count` processes on a fresh schema: the first alone (it creates the administrator), then the rest */
async function startGroup(count) {
  const schema = newPgSchema('bench_multi');
  const dataDir = tempDir('several-processes');
  const group = { schema, dataDir, processes: [] };
  const secretsKey = randomBytes(32).toString('base64');
  try {
    group.processes.push(await startProcess(schema, join(dataDir, 'p0'), secretsKey));
    group.processes.push(...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => startProcess(schema, join(dataDir, `p${i + 1}`), secretsKey)))));
    const signIn = await fetch(`${group.processes[0].url}/api/v1/admin/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const body = await signIn.json();
    if (signIn.status !== 200 || !body.token) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(body)}`);
    group.token = body.token;
    return group;
  } catch (error) {
    await stopGroup(group);
    throw error;
  }
}

async function stopGroup(group) {
  await Promise.all(group.processes.map(stopProcess));
  await dropPgSchema(group.schema).catch(() => undefined);
  removeDir(group.dataDir);
}

/** the closed loop: CONNECTIONS creates in flight for `seconds`, round-robin over the group */
async function load(group, connections, seconds) {
  const latencies = [];
  let sent = 0;
  let stale = 0;
  const failures = [];
  const until = now() + seconds * 1000;
  const worker = async () => {
    while (now() < until) {
      const target = group.processes[sent++ % group.processes.length];
      const id = randomUUID().replace(/-/g, '').slice(0, 16);
      const started = now();
      const answer = await fetch(`${target.url}/api/v2/account`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${group.token}` },
        body: JSON.stringify({ first_name: 'Bench', last_name: `Writer ${id}`, email: `bench.${id}@example.com`, username: `bench.${id}`, no_password: true }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 201) failures.push(answer.status);
      else {
        latencies.push(now() - started);
        if (answer.headers.get('x-rollcall-consistency') !== 'consistent') stale++;
      }
    }
  };
  const started = now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (now() - started) / 1000;
  if (failures.length) throw new Error(`${failures.length} of ${sent} writes failed (statuses ${[...new Set(failures)].join(', ')}): the figures would be meaningless`);
  latencies.sort((a, b) => a - b);
  return { writesPerSec: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), writes: latencies.length, stale };
}

async function measure(count, connections, seconds) {
  const group = await startGroup(count);
  try {
    const result = await load(group, connections, seconds);
    log(`${count} process${count > 1 ? 'es' : ''}: ${fmtInt(result.writes)} writes in ${seconds} s: ${fmtInt(result.writesPerSec)} writes/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms${result.stale ? `, ${result.stale} answered stale` : ''}`);
    return result;
  } finally {
    await stopGroup(group);
  }
}

export const scenarios = [
  {
    name: 'api-writes-pg-1-vs-3-processes',
    figures: [
      { key: 'writesPerSec1', label: 'writes/s, 1 process', unit: 'writes/s' },
      { key: 'p99_1', label: 'p99, 1 process', unit: 'ms', decimals: 1 },
      { key: 'writesPerSec3', label: 'writes/s, 3 processes', unit: 'writes/s' },
      { key: 'p99_3', label: 'p99, 3 processes', unit: 'ms', decimals: 1 },
    ],
    params: (opts) => ({
      request: 'POST /api/v2/account (no password), answered once the read models hold it',
      connections: opts.connections ?? DEFAULT_CONNECTIONS,
      durationSec: opts.duration ?? DEFAULT_DURATION,
      warmupSec: WARMUP_DURATION,
      storage: 'PostgreSQL event store and read models, fresh schema per measurement',
      processes: '1, then 3 (node apps/api/dist/main.js, writes spread round-robin)',
      url: PG_URL.replace(/\/\/[^@/]*@/, '//***@'),
    }),
    async setup(opts) {
      const reason = await pgUnreachable();
      if (reason) return { skip: reason };
      return { connections: opts.connections ?? DEFAULT_CONNECTIONS, duration: opts.duration ?? DEFAULT_DURATION, notes: ['every process on the same machine as PostgreSQL and the load generator: 3 processes share its cores'] };
    },
    async warmup(ctx) {
      await measure(1, ctx.connections, WARMUP_DURATION);
      await measure(3, ctx.connections, WARMUP_DURATION);
    },
    async run(ctx) {
      const one = await measure(1, ctx.connections, ctx.duration);
      const three = await measure(3, ctx.connections, ctx.duration);
      return { writesPerSec1: one.writesPerSec, p99_1: one.p99, writesPerSec3: three.writesPerSec, p99_3: three.p99, one, three };
    },
  },
];
