// GET /api/v2/accounts?page=1&limit=10 on the real API (startApp: Nest, Express, auth guard,
// Kysely over the SQLite read DB) holding N accounts, loaded by autocannon from a separate process.
//
// Seeding: a first start on an empty data dir creates the default policy and the administrator;
// then, with the API stopped, N AccountCreated events (with their username/e-mail reservations) are
// appended straight into the SQLite event store; the second start catches the projections up before
// it listens, as a production restart would.
//
// list-accounts-100k-pg is the same scenario with the event store and the read DB on PostgreSQL
// (PG_URL, a fresh ROLLCALL_PG_SCHEMA per scenario run, dropped after), 20,000 accounts by default
// (seeding through the PostgreSQL adapter runs at about 2,000 events/s).
import { fileURLToPath } from 'node:url';
import { pgUnreachable } from './append.mjs';
import { accountCreated, ADMIN, api, apiConfig, dropPgSchema, fmtInt, inFlight, log, newPgSchema, now, openEventStore, removeDir, runWorker, tempDir } from './lib.mjs';

const DEFAULT_ACCOUNTS = 100_000;
const DEFAULT_ACCOUNTS_PG = 20_000;
const WORKER = fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url));
const PATH = '/api/v2/accounts?page=1&limit=10';

/** the API's config on a temp data dir; `storage` 'sqlite' or 'pg' (then `schema`); `overrides` last */
/** the list scenarios' API configuration (also console-first-screen's) */
export const configFor = (dataDir, storage = 'sqlite', schema = undefined, overrides = {}) => apiConfig(dataDir, { storage, schema, overrides });

/** N AccountCreated events with their reservations, through the configured event store's adapter */
export async function seedAccounts(config, count, prefix = 'list') {
  const store = await openEventStore(config);
  try {
    await inFlight(count, 1000, async (i) => {
      const { stream, event } = accountCreated(i, prefix);
      const reservations = [
        { scope: 'account.username', value: event.data.username.toLowerCase() },
        { scope: 'account.email', value: event.data.email.toLowerCase() },
      ];
      await store.appendToStream(stream, [event], { expectedVersion: 'no_stream', reservations });
    });
  } finally {
    await store.close();
  }
}

/** one autocannon run in a child process; resolves with the worker's JSON */
function autocannonRun({ url, token, connections, duration }) {
  return runWorker(WORKER, { url: url + PATH, connections, duration, headers: { authorization: `Bearer ${token}` } }, 'autocannon worker');
}

function checked(result) {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${bad} of ${result.requestsTotal} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}): the figures would be meaningless`);
  return result;
}

function listScenario({ name, storage, defaultAccounts }) {
  const accountsOf = (opts) => opts.accounts ?? defaultAccounts;
  return {
    name,
    // on PostgreSQL the figures are reported without a goal (docs/benchmarks.md: goals on the default storage)
    figures: [
      { key: 'p50', label: 'p50 latency', unit: 'ms', decimals: 2 },
      { key: 'p99', label: 'p99 latency', unit: 'ms', decimals: 2, ...(storage === 'pg' ? {} : { goal: { op: '<=', value: 5 } }) },
      { key: 'requestsPerSec', label: 'req/s', unit: 'req/s', ...(storage === 'pg' ? {} : { goal: { op: '>=', value: 5_000 } }) },
    ],
    params: (opts) => ({
      accounts: accountsOf(opts),
      request: `GET ${PATH}`,
      connections: opts.connections ?? 50,
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      storage: storage === 'pg' ? 'PostgreSQL event store and read DB, fresh schema per scenario run, dropped after' : 'SQLite event store and read DB',
      loadGenerator: 'autocannon 8 in a separate process',
      // the label names the size when it is not the scenario name's 100k
      ...(defaultAccounts !== DEFAULT_ACCOUNTS && !opts.accounts ? { labelExtras: [`${defaultAccounts.toLocaleString('en')} accounts`] } : {}),
    }),
    async setup(opts) {
      if (storage === 'pg') {
        const reason = await pgUnreachable();
        if (reason) return { skip: reason };
      }
      const { startApp } = api('create-app');
      const accounts = accountsOf(opts);
      const dataDir = tempDir(name);
      const schema = storage === 'pg' ? newPgSchema('bench_list') : undefined;
      const ctx = { dataDir, schema, accounts, connections: opts.connections ?? 50, duration: opts.duration ?? 10, notes: [] };
      const config = configFor(dataDir, storage, schema);
      try {
        const first = await startApp(config, { print: () => undefined });
        await first.close();

        let started = now();
        await seedAccounts(config, accounts);
        log(`seeded ${fmtInt(accounts)} AccountCreated events in ${((now() - started) / 1000).toFixed(1)} s`);

        started = now();
        ctx.app = await startApp(config, { print: () => undefined });
        const startSeconds = (now() - started) / 1000;
        ctx.url = ctx.app.url;
        ctx.notes.push(`API start with projections catching up ${fmtInt(accounts + 3)} events: ${startSeconds.toFixed(1)} s`);
        ctx.startSeconds = startSeconds;
        log(`API started (catch-up included) in ${startSeconds.toFixed(1)} s at ${ctx.url}`);

        const signIn = await fetch(`${ctx.url}/api/v1/admin/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
        const signInBody = await signIn.json();
        if (signIn.status !== 200 || !signInBody.token) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signInBody)}`);
        ctx.token = signInBody.token;

        const probe = await fetch(ctx.url + PATH, { headers: { authorization: `Bearer ${ctx.token}` } });
        const page = await probe.json();
        if (probe.status !== 200 || page.data?.total !== accounts + 1 || page.data?.data?.length !== 10) {
          throw new Error(`unexpected list answer ${probe.status}: total ${page.data?.total}, ${page.data?.data?.length} rows`);
        }
        ctx.responseBytes = Buffer.byteLength(JSON.stringify(page));
        return ctx;
      } catch (error) {
        await this.teardown(ctx); // the harness gets no ctx from a set-up that throws
        throw error;
      }
    },
    async warmup(ctx) {
      const result = checked(await autocannonRun({ ...ctx, duration: 3 }));
      log(`warm-up: ${fmtInt(result.requestsPerSec)} req/s, p99 ${result.latencyMs.p99.toFixed(2)} ms`);
    },
    async run(ctx) {
      const result = checked(await autocannonRun(ctx));
      log(`${fmtInt(result.requestsTotal)} requests in ${result.duration.toFixed(1)} s: ${fmtInt(result.requestsPerSec)} req/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms`);
      return { p50: result.latencyMs.p50, p99: result.latencyMs.p99, requestsPerSec: result.requestsPerSec, autocannon: result };
    },
    async teardown(ctx) {
      await ctx?.app?.close().catch(() => undefined);
      if (ctx?.dataDir) removeDir(ctx.dataDir);
      if (ctx?.schema) await dropPgSchema(ctx.schema);
    },
  };
}

export const scenarios = [
  listScenario({ name: 'list-accounts-100k', storage: 'sqlite', defaultAccounts: DEFAULT_ACCOUNTS }),
  listScenario({ name: 'list-accounts-100k-pg', storage: 'pg', defaultAccounts: DEFAULT_ACCOUNTS_PG }),
];
