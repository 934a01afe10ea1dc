// Shared helpers for the bench scenarios: the built API (CommonJS under apps/api/dist), temp
// directories, synthetic events, statistics and timing.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(BENCH_DIR, '..');
/** node's flags for the API as production starts it (package.json `start`, infra/systemd, infra/compose) */
export const API_NODE_FLAGS = ['--max-semi-space-size=16'];
export const CACHE_DIR = join(BENCH_DIR, '.cache');
/** scratch space on the same disk as the repository (fsync cost matters for the append scenarios) */
export const TMP_DIR = join(CACHE_DIR, 'tmp');

const require = createRequire(import.meta.url);

/** a module of the built API, e.g. api('platform/event-store/sqlite-event-store') */
export const api = (path) => require(join(REPO_ROOT, 'apps/api/dist', path));

export const PG_URL = process.env.ROLLCALL_BENCH_PG_URL ?? process.env.ROLLCALL_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** a fresh PostgreSQL schema name (one per scenario run, dropped after) */
export const newPgSchema = (prefix = 'bench') => `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

export async function dropPgSchema(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The API's environment for a storage: 'sqlite' (the default: event store and read DB under the
 * data dir) or 'pg' (both on PG_URL, in `schema`).
 */
export const storageEnv = (storage, schema) => (storage === 'pg' ? { ROLLCALL_EVENT_STORE: PG_URL, ROLLCALL_READ_DB: PG_URL, ROLLCALL_PG_SCHEMA: schema } : {});

/** the event store adapter a loaded config names (for seeding with the API stopped) */
/** the first administrator of every scenario's API */
export const ADMIN = { username: 'admin', password: 'bench admin password' };

/**
 * The API's environment for a scenario: its data dir, a storage ('sqlite', or 'pg' in `schema`), quiet
 * logs, no console files, and a cheap argon2id (sign-in is not what most scenarios measure;
 * `argon2: 'production'` keeps the API's defaults). `overrides` win.
 */
export function apiEnv(dataDir, { storage = 'sqlite', schema = undefined, argon2 = 'cheap', overrides = {} } = {}) {
  return {
    ...storageEnv(storage, schema),
    PORT: '0',
    HOST: '127.0.0.1',
    ROLLCALL_DATA_DIR: dataDir,
    ROLLCALL_ADMIN_USERNAME: ADMIN.username,
    ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
    ROLLCALL_LOG_LEVEL: 'error',
    ...(argon2 === 'cheap' ? { ROLLCALL_ARGON2_MEMORY_KIB: '4096', ROLLCALL_ARGON2_TIME_COST: '1' } : {}),
    ROLLCALL_CONSOLE_DIR: join(dataDir, 'no-console'),
    // the projections on a worker thread or this one (docs/adr/0026): the same scenarios both ways
    ...(storage === 'sqlite' && process.env.ROLLCALL_PROJECTIONS_THREAD ? { ROLLCALL_PROJECTIONS_THREAD: process.env.ROLLCALL_PROJECTIONS_THREAD } : {}),
    ...overrides,
  };
}

/** the API's configuration (startApp's) for apiEnv's environment */
export const apiConfig = (dataDir, options) => api('platform/config/app-config').loadConfig(apiEnv(dataDir, options));

export const openEventStore = (config) => api('platform/event-store/create-event-store').createEventStore(config.eventStore);

export function tempDir(prefix) {
  mkdirSync(TMP_DIR, { recursive: true });
  return mkdtempSync(join(TMP_DIR, `${prefix}-`));
}

export const removeDir = (dir) => rmSync(dir, { recursive: true, force: true });

export const now = () => performance.now();

/** kernel clock ticks per second (`getconf CLK_TCK`: 100 on Linux x86_64) */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time this process's threads used (Linux, /proc/self/task/<tid>/stat utime + stime), in ms:
 * the main thread (its tid is the pid) and all the others (a projection worker, libuv's pool, V8's
 * GC helpers). Unlike wall time, it holds on a machine that other work keeps busy: what the main
 * thread spends per scan bounds what it can take however quiet the machine. Null off Linux.
 */
export function threadCpuMs() {
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // fields after the command name, which is in parentheses and may hold spaces
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
      if (Number(tid) === process.pid) main += ms;
      else others += ms;
    }
    return { main, others };
  } catch {
    return null;
  }
}

/** progress on stderr, so stdout stays for the table */
export const log = (line) => process.stderr.write(`  ${line}\n`);

export function gc() {
  if (typeof globalThis.gc === 'function') globalThis.gc();
}

export const fmtInt = (n) => Math.round(n).toLocaleString('en');

// ---------------------------------------------------------------------------------------------
// synthetic events, shaped like the product's (see projection-crash.int.spec.ts)

export function systemMetadata() {
  return { eventId: randomUUID(), actor: 'system', actorKind: 'system', sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() };
}

export function accountCreatedData(accountId, i, prefix = 'bench') {
  return {
    accountId,
    username: `${prefix}.${i}.${accountId.slice(0, 8)}`,
    email: `${prefix}.${i}.${accountId.slice(0, 8)}@example.com`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    passwordHash: null,
    statusId: 4,
    policyId: null,
    expiresAt: null,
    organizationId: null,
    sendActivation: false,
    isProtected: false,
    createdAt: new Date(1_700_000_000_000 + i).toISOString(),
  };
}

/** one AccountCreated event for a new account stream */
export function accountCreated(i, prefix) {
  // the product's own id generator (time-ordered UUIDv7), so the indexes see what production sees
  const accountId = api('platform/runtime/ids.js').newAggregateId();
  return { stream: `account-${accountId}`, accountId, event: { type: 'AccountCreated', data: accountCreatedData(accountId, i, prefix), metadata: systemMetadata() } };
}

/** AccountCreated + AccountSignedIn for one new account (two events, one stream) */
export function accountPair(i, prefix) {
  const { stream, accountId, event } = accountCreated(i, prefix);
  const signedIn = { type: 'AccountSignedIn', data: { accountId, sessionId: randomUUID(), at: new Date(1_700_000_500_000 + i).toISOString() }, metadata: { ...event.metadata, eventId: randomUUID() } };
  return { stream, accountId, events: [event, signedIn] };
}

/**
 * Calls `task(i)` for i in [0, total) with at most `concurrency` calls in flight (a closed loop: a
 * new call starts as soon as one finishes).
 */
export async function inFlight(total, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

// ---------------------------------------------------------------------------------------------
// statistics

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** percentile (0..100) of an already sorted array, nearest-rank */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

/**
 * Runs a load generator in its own process (the API under test must not share its event loop) and
 * resolves with the JSON object it prints last; `name` names it in errors.
 */
export function runWorker(workerPath, options, name) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerPath, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${name} exited with ${code}: ${stderr}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()));
      } catch {
        reject(new Error(`${name} printed no result: ${stdout} ${stderr}`));
      }
    });
  });
}
