// Password sign-in throughput (docs/benchmarks.md, 'Scenarios'): `POST /api/v2/admin/authenticate` on
// the real API (startApp: Nest, Express, the SignIn handler, argon2id verification, the session and
// sign-in events on the SQLite event store), with argon2id at the production parameters: the API's
// defaults (ROLLCALL_ARGON2_MEMORY_KIB=19456, ROLLCALL_ARGON2_TIME_COST=2, parallelism 1), left
// unset here.
//
// Set-up: a first start creates the policy and the administrator; the administrator creates N
// accounts with a password through `POST /api/v2/account` (so each hash is the API's own, at the
// production parameters). autocannon, in a separate process (autocannon-worker.mjs), signs them in
// round-robin with their correct passwords, so the lockout never counts a failure. Every answer must
// be 200 with a token. Figures: logins/s in total and per core (the load generator shares the cores).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ADMIN, api, apiConfig, fmtInt, inFlight, log, removeDir, runWorker, tempDir } from './lib.mjs';

const DEFAULT_ACCOUNTS = 32;
const DEFAULT_CONNECTIONS = 8;
/** long enough and strong enough for the default policy (the e2e suite's password) */
const PASSWORD = 'orbital mechanics 1962';
const PATH = '/api/v2/admin/authenticate';
const WORKER = fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url));
/** Keycloak's sizing guide: 1 vCPU per 15 password-based user logins per second */
const KEYCLOAK_PER_VCPU = 15;

// no cheap argon2id here: the production defaults are what is measured
const configFor = (dataDir) => apiConfig(dataDir, { argon2: 'production' });

async function call(url, method, path, { token, body } = {}) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, json: await response.json().catch(() => null) };
}

function checked(result) {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${bad} of ${result.requestsTotal} sign-ins failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}): the figures would be meaningless`);
  if (result.requestsTotal === 0) throw new Error('no sign-in answered');
  return result;
}

export const scenarios = [
  {
    name: 'sign-in-argon2',
    figures: [
      { key: 'loginsPerSec', label: 'total', unit: 'logins/s', decimals: 1 },
      { key: 'loginsPerSecPerCore', label: `per core (${os.cpus().length} cores)`, unit: 'logins/s', decimals: 1, goal: { op: '>=', value: 30 } },
      { key: 'p50', label: 'p50 latency', unit: 'ms', decimals: 1 },
      { key: 'p99', label: 'p99 latency', unit: 'ms', decimals: 1 },
    ],
    params: (opts) => ({
      accounts: opts.accounts ?? DEFAULT_ACCOUNTS,
      request: `POST ${PATH}, correct passwords, accounts round-robin`,
      connections: opts.connections ?? DEFAULT_CONNECTIONS,
      durationSec: opts.duration ?? 10,
      warmupSec: 3,
      cores: os.cpus().length,
      argon2: 'argon2id m=19456 KiB, t=2, p=1 (the API defaults)',
      storage: 'SQLite event store and read DB',
      loadGenerator: 'autocannon 8 in a separate process',
      reference: `Keycloak's sizing guide: ${KEYCLOAK_PER_VCPU} password logins/s per vCPU`,
    }),
    async setup(opts) {
      const { startApp } = api('create-app');
      const accounts = opts.accounts ?? DEFAULT_ACCOUNTS;
      const dataDir = tempDir('sign-in-argon2');
      const ctx = { dataDir, accounts, connections: opts.connections ?? DEFAULT_CONNECTIONS, duration: opts.duration ?? 10, cores: os.cpus().length, notes: [] };
      try {
        const config = configFor(dataDir);
        if (config.argon2.memoryCost !== 19456 || config.argon2.timeCost !== 2) throw new Error(`argon2 defaults changed: ${JSON.stringify(config.argon2)}; update this scenario`);
        ctx.app = await startApp(config, { print: () => undefined });
        ctx.url = ctx.app.url;
        const admin = await call(ctx.url, 'POST', PATH, { body: ADMIN });
        if (admin.status !== 200 || !admin.json?.data?.token) throw new Error(`administrator sign-in failed: ${admin.status} ${JSON.stringify(admin.json)}`);

        const stamp = Date.now().toString(36);
        ctx.credentials = Array.from({ length: accounts }, (_, i) => ({ username: `signin.${stamp}.${i}`, password: PASSWORD }));
        await inFlight(accounts, 4, async (i) => {
          const { username } = ctx.credentials[i];
          const created = await call(ctx.url, 'POST', '/api/v2/account', {
            token: admin.json.data.token,
            body: { first_name: 'Sign', last_name: `In ${i}`, email: `${username}@example.com`, username, password: PASSWORD },
          });
          if (created.status !== 201) throw new Error(`creating ${username}: ${created.status} ${JSON.stringify(created.json)}`);
        });
        // each hash carries the parameters it was made with (the config checked above): one probe sign-in
        const probe = await call(ctx.url, 'POST', PATH, { body: ctx.credentials[0] });
        if (probe.status !== 200 || !probe.json?.data?.token) throw new Error(`sign-in of a created account failed: ${probe.status} ${JSON.stringify(probe.json)}`);
        if (probe.json.data.password_change_required) ctx.notes.push('the created accounts must change their password (their sessions are restricted; sign-in is the same)');
        log(`API at ${ctx.url}; ${fmtInt(accounts)} accounts with a password (argon2id m=${config.argon2.memoryCost} KiB, t=${config.argon2.timeCost})`);
        ctx.notes.push(`reference: Keycloak's sizing guide allows ${KEYCLOAK_PER_VCPU} password logins/s per vCPU (${KEYCLOAK_PER_VCPU * ctx.cores}/s on ${ctx.cores})`);
        return ctx;
      } catch (error) {
        await this.teardown(ctx); // the harness gets no ctx from a set-up that throws
        throw error;
      }
    },
    load(ctx, duration) {
      const bodies = ctx.credentials.map((c) => JSON.stringify(c));
      return runWorker(WORKER, { url: ctx.url + PATH, connections: ctx.connections, duration, method: 'POST', headers: { 'content-type': 'application/json' }, bodies }, 'autocannon worker');
    },
    async warmup(ctx) {
      const result = checked(await this.load(ctx, 3));
      log(`warm-up: ${result.requestsPerSecComputed.toFixed(1)} logins/s, p99 ${result.latencyMs.p99.toFixed(1)} ms`);
    },
    async run(ctx) {
      const result = checked(await this.load(ctx, ctx.duration));
      // autocannon's requests.average is a mean of per-second counts: at tens a second, the total over the time is steadier
      const loginsPerSec = result.requestsPerSecComputed;
      log(`${fmtInt(result.requestsTotal)} sign-ins in ${result.duration.toFixed(1)} s: ${loginsPerSec.toFixed(1)} logins/s (${(loginsPerSec / ctx.cores).toFixed(1)} per core), p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms`);
      return { loginsPerSec, loginsPerSecPerCore: loginsPerSec / ctx.cores, p50: result.latencyMs.p50, p99: result.latencyMs.p99, autocannon: result };
    },
    async teardown(ctx) {
      await ctx?.app?.close().catch(() => undefined);
      if (ctx?.dataDir) removeDir(ctx.dataDir);
    },
  },
];
