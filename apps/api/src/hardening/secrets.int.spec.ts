import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { accountStream } from '@rollcall/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, liveClient, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../../test/test-app';
import { eventStoreOf, streamOf } from './hardening-helpers';
import { START } from '../event-store/event-store.port';

/**
 * Every stored byte as text: on SQLite the database files themselves (main files and WAL, so freed
 * pages count too); on PostgreSQL every row of every table of the schema (events and read models).
 */
async function storedText(app: TestApp): Promise<Array<[string, string]>> {
  const config = app.config.readDb;
  if (config.kind === 'sqlite') {
    return readdirSync(app.config.dataDir)
      .filter((name) => /\.db(-wal)?$/.test(name))
      .map((name) => [`file ${name}`, readFileSync(join(app.config.dataDir, name)).toString('latin1')]);
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [config.schema]);
    const found: Array<[string, string]> = [];
    for (const { table_name: table } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${config.schema}"."${table}" t`);
      found.push([`table ${table}`, rows.map((row) => row.row).join('\n')]);
    }
    return found;
  } finally {
    await client.end();
  }
}

/**
 * Issue 11, scenario 5 (secrets), on SQLite and PostgreSQL: a canary password and a canary access token are used
 * through sign-in (REST, tRPC, a wrong attempt), a password change, the token's own calls and a live
 * WebSocket; afterwards neither (nor the canary account's session token) appears in the event store, the read models' files, the JSON logs
 * (debug level, one line per request), the WS frames or the event log export. The stored hashes are
 * argon2id with the production parameters (m=19456 KiB, t=2, p=1).
 */
describe.each(storageKinds())('secrets never stored or shown (%s)', (kind: StorageKind) => {
  let app: TestApp;
  const logs: string[] = [];
  const frames: string[] = [];
  const CANARY_PASSWORD = `Canary-Password-${Date.now().toString(36)}-zq9`;
  const NEXT_PASSWORD = `Canary-Next-${Date.now().toString(36)}-xk7`;
  let canaryToken = '';
  let canarySession = '';
  let accountId = '';

  beforeAll(async () => {
    app = await startTestApp(kind, { ROLLCALL_ARGON2_MEMORY_KIB: '19456', ROLLCALL_ARGON2_TIME_COST: '2', ROLLCALL_LOG_FORMAT: 'json', ROLLCALL_LOG_LEVEL: 'debug' }, undefined, { write: (line: string) => void logs.push(line) });
    const adminToken = await signIn(app.url);
    const admin = http(app.url, adminToken);
    const live = liveClient(app.url, adminToken);
    const subscription = live.client.live.accounts.subscribe(undefined, { onData: (message) => void frames.push(JSON.stringify(message)) });

    const account = await createAccount(admin, { password: CANARY_PASSWORD });
    accountId = account.id;
    await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: `${CANARY_PASSWORD}x` });
    const session = await signIn(app.url, { username: account.username, password: CANARY_PASSWORD });
    canarySession = session;
    expect((await http(app.url).post('/trpc/auth.signIn', { username: account.username, password: CANARY_PASSWORD })).status).toBe(200);
    expect((await http(app.url, session).post('/api/v1/account/password/change', { current_password: CANARY_PASSWORD, new_password: NEXT_PASSWORD })).status).toBeLessThan(300);
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: CANARY_PASSWORD })).status).toBe(200);

    // a token acts within its holder's permissions: the administrator's own token can read accounts
    const administratorId = (await admin.get('/api/v1/account/current')).body.id as string;
    const issued = await admin.post('/api/v2/token', { title: 'Canary token', forever: true, permissions: ['accounts:read'], restrictions: [], account_id: administratorId });
    canaryToken = issued.body.data.token;
    expect(canaryToken).toMatch(/^rc_/);
    for (let i = 0; i < 3; i += 1) expect((await http(app.url, canaryToken).get('/api/v1/accounts')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    subscription.unsubscribe();
    live.close();
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
  });

  it('stores argon2id hashes with the production parameters', async () => {
    const events = await streamOf(app, accountStream(accountId));
    const hashes = events.flatMap((event) => JSON.stringify(event.data).match(/\$argon2[a-z]*\$[^"]+/g) ?? []);
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    for (const hash of hashes) expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('keeps the canary password and token out of the event store, the read models, the logs, the WS frames and the export', async () => {
    const adminToken = await signIn(app.url);
    const events = JSON.stringify(await eventStoreOf(app).readAll(START, 1_000_000));
    const stored = await storedText(app);
    const exported = await (await fetch(`${app.url}/api/v2/audit/events/export`, { headers: { authorization: `Bearer ${adminToken}` } })).text();
    const places: Array<[string, string]> = [['event store', events], ['logs', logs.join('\n')], ['WS frames', frames.join('\n')], ['event log export', exported], ...stored];
    console.log(`searched: ${places.map(([where, text]) => `${where} (${text.length} chars)`).join(', ')}`);
    expect(logs.length, 'the access log was captured').toBeGreaterThan(5);
    expect(frames.length, 'the live feed was captured').toBeGreaterThan(0);
    expect(exported.split('\n').length, 'the export was read').toBeGreaterThan(5);
    for (const [where, text] of places) {
      for (const secret of [CANARY_PASSWORD, NEXT_PASSWORD, canaryToken, canaryToken.slice(3), canarySession]) expect(text.includes(secret), `${secret.slice(0, 14)}... in ${where}`).toBe(false);
    }
  });
});
