import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { undeclaredEventFields } from '@rollcall/contracts';
import { accountStream, secondFactorStream } from '@rollcall/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationTokenFor } from '../mail-log';
import { createAccount, http, liveClient, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../test-app';
import { eventStoreOf, proceduresOf, streamOf } from './hardening-helpers';
import { START } from '../../src/platform/event-store/event-store.port';
import { backupSqlite } from '../../src/platform/operations/sqlite-backup';
import { hashRecoveryCode } from '../../src/features/auth/second-factor/recovery-codes';
import { totpCodeAt } from '../../src/features/auth/second-factor/totp-codes';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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

/** every directory and file under `root` with its permission bits (symbolic links left out) */
function modesUnder(root: string): Array<{ path: string; directory: boolean; mode: number }> {
  const found: Array<{ path: string; directory: boolean; mode: number }> = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    found.push({ path, directory: stats.isDirectory(), mode: stats.mode & 0o777 });
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return found;
}

/** the entries whose modes are not the private ones (0700 directories, 0600 files), as 'path mode' */
const widerThanPrivate = (root: string) =>
  modesUnder(root)
    .filter(({ directory, mode }) => mode !== (directory ? 0o700 : 0o600))
    .map(({ path, mode }) => `${path.slice(root.length) || '/'} ${mode.toString(8)}`);

/**
 * Secrets (docs/security.md: "5. Secrets", "Credentials never leave through events", "Nothing that
 * grants access is written to disk"), on SQLite and PostgreSQL. Canary secrets: a password and an
 * access token used through sign-in (REST, tRPC, a wrong attempt), a password change, the token's own
 * calls and a live WebSocket; the canary account's session token; an activation link mailed (to a log
 * file outside the data directory) and never used; the client secret of a confidential OIDC
 * application; a door reader's token.
 * - None of them appears in the event store, the SQLite files (main files and WAL, so what was
 *   written and later blanked counts too) or PostgreSQL tables, the JSON logs (debug level), the WS
 *   frames or the event log export.
 * - No read route or procedure answers any of them, their SHA-256 (what the store keeps of tokens and
 *   secrets) or an argon2 hash, to the super administrator or to an access token holding only
 *   audit:read: every GET of the OpenAPI document (REST v1, v2 and /api) with real ids, every page of
 *   the log and of the histories, the NDJSON export, tRPC's audit procedures (log, history of every
 *   kind, time travel) and every other query procedure.
 * - The data directory, its files and a backup are created 0700/0600 under a umask of 000, and wider
 *   modes left by an older version are narrowed at start.
 * The stored hashes are argon2id with the production parameters (m=19456 KiB, t=2, p=1).
 */
describe.each(storageKinds())('secrets never stored or shown (%s)', (kind: StorageKind) => {
  let app: TestApp;
  const logs: string[] = [];
  const frames: string[] = [];
  const CANARY_PASSWORD = `Canary-Password-${Date.now().toString(36)}-zq9`;
  const NEXT_PASSWORD = `Canary-Next-${Date.now().toString(36)}-xk7`;
  const mailDir = mkdtempSync(join(tmpdir(), 'rollcall-canary-mail-'));
  let canaryToken = '';
  let canarySession = '';
  let canaryActivation = '';
  let canaryClientSecret = '';
  let canaryReaderToken = '';
  // second factors (docs/adr/0025): the TOTP secret is stored only sealed, the recovery codes only hashed
  let canaryTotpSecret = '';
  let canaryRecoveryCodes: string[] = [];
  let auditToken = '';
  let accountId = '';
  const ids = { account: '', invitee: '', organization: '', team: '', application: '', reader: '', token: '' };
  let umaskBefore = 0;

  beforeAll(async () => {
    // everything the app creates is created under a umask that would leave it world-readable
    umaskBefore = process.umask(0o000);
    app = await startTestApp(
      kind,
      { ROLLCALL_ARGON2_MEMORY_KIB: '19456', ROLLCALL_ARGON2_TIME_COST: '2', ROLLCALL_LOG_FORMAT: 'json', ROLLCALL_LOG_LEVEL: 'debug', ROLLCALL_MAIL_LOG_FILE: join(mailDir, 'mail.log'), ROLLCALL_MAIL_POLL_MS: '50' },
      undefined,
      { write: (line: string) => void logs.push(line) },
    );
    const adminToken = await signIn(app.url);
    const admin = http(app.url, adminToken);
    const live = liveClient(app.url, adminToken);
    const subscription = live.client.live.accounts.subscribe(undefined, { onData: (message) => void frames.push(JSON.stringify(message)) });

    const account = await createAccount(admin, { password: CANARY_PASSWORD });
    accountId = account.id;
    ids.account = account.id;
    await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: `${CANARY_PASSWORD}x` });
    const session = await signIn(app.url, { username: account.username, password: CANARY_PASSWORD });
    canarySession = session;
    expect((await http(app.url).post('/trpc/auth.signIn', { username: account.username, password: CANARY_PASSWORD })).status).toBe(200);
    expect((await http(app.url, session).post('/api/v1/account/password/change', { current_password: CANARY_PASSWORD, new_password: NEXT_PASSWORD })).status).toBeLessThan(300);
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: CANARY_PASSWORD })).status).toBe(200);

    // an authenticator app and recovery codes, used to sign in over REST (both steps) and tRPC, and a wrong code
    const own = http(app.url, await signIn(app.url, { username: account.username, password: CANARY_PASSWORD }));
    const enrolment = (await own.post('/api/v2/second-factors/totp')).body.data;
    canaryTotpSecret = enrolment.secret;
    const confirmed = await own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: enrolment.enrolment_id, code: totpCodeAt(canaryTotpSecret, new Date()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    canaryRecoveryCodes = confirmed.body.data.recovery_codes;
    const challenge = (await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: CANARY_PASSWORD })).body.second_factor.challenge;
    expect((await http(app.url).post('/api/v1/admin/authenticate', { challenge, code: '123456' })).status).toBe(401);
    expect((await http(app.url).post('/api/v1/admin/authenticate', { challenge, code: canaryRecoveryCodes[0] })).status).toBe(200);
    const viaTrpc = (await http(app.url).post('/trpc/auth.signIn', { username: account.username, password: CANARY_PASSWORD })).body.result.data.second_factor.challenge;
    expect((await http(app.url).post('/trpc/auth.completeSignIn', { challenge: viaTrpc, code: canaryRecoveryCodes[1] })).status).toBe(200);
    const regenerated = await own.post('/api/v2/second-factors/recovery-codes', { code: canaryRecoveryCodes[2] });
    expect(regenerated.status).toBe(200);
    canaryRecoveryCodes = [...canaryRecoveryCodes, ...regenerated.body.data.recovery_codes];

    // a token acts within its holder's permissions: the administrator's own token can read accounts
    const administratorId = (await admin.get('/api/v1/account/current')).body.id as string;
    const issued = await admin.post('/api/v2/token', { title: 'Canary token', forever: true, permissions: ['accounts:read'], restrictions: [], account_id: administratorId });
    canaryToken = issued.body.data.token;
    ids.token = String(issued.body.data.id ?? '');
    expect(canaryToken).toMatch(/^rc_/);
    for (let i = 0; i < 3; i += 1) expect((await http(app.url, canaryToken).get('/api/v1/accounts')).status).toBe(200);

    // an auditor's token: audit:read and nothing else
    const auditor = await admin.post('/api/v2/token', { title: 'Auditor', forever: true, permissions: ['audit:read'], restrictions: [], account_id: administratorId });
    expect(auditor.status, JSON.stringify(auditor.body)).toBe(201);
    auditToken = auditor.body.data.token;

    // an activation link, mailed and never used
    const invitee = await createAccount(admin, { password: undefined, no_password: true, activation: true });
    ids.invitee = invitee.id;
    canaryActivation = await activationTokenFor(mailDir, invitee.email);

    // a confidential OpenID Connect client and its secret
    const application = await admin.post('/api/v2/application', { title: `Canary app ${Date.now().toString(36)}`, client_type: 'confidential', redirect_uris: ['http://127.0.0.1:9/cb'], grant_types: ['authorization_code'] });
    expect(application.status, JSON.stringify(application.body)).toBe(201);
    ids.application = application.body.data.app.id;
    canaryClientSecret = application.body.data.client_secret.client_secret;
    expect(canaryClientSecret).toBeTruthy();

    // a door reader and its token
    const reader = await admin.post('/api/v2/readers', { name: `Canary reader ${Date.now().toString(36)}`, door: 'Canary door', role: 'door' });
    expect(reader.status, JSON.stringify(reader.body)).toBe(201);
    ids.reader = reader.body.data.id;
    canaryReaderToken = (await admin.post(`/api/v2/readers/${ids.reader}/token`)).body.data.token;
    expect(canaryReaderToken).toBeTruthy();

    const team = await admin.post('/api/v1/team', { title: `Canary team ${Date.now().toString(36)}`, description: '', interorg: true, accounts: [account.id] });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    ids.team = team.body.id;
    ids.organization = (await admin.get('/api/v1/organizations?search=rollcall')).body.data[0].id;

    await new Promise((resolve) => setTimeout(resolve, 300));
    subscription.unsubscribe();
    live.close();
  }, 120_000);
  afterAll(async () => {
    process.umask(umaskBefore);
    await app?.destroy();
    rmSync(mailDir, { recursive: true, force: true });
  });

  /** the clear secrets: never stored, never shown */
  const clearSecrets = () => [CANARY_PASSWORD, NEXT_PASSWORD, canaryToken, canaryToken.slice(3), canarySession, canaryActivation, canaryClientSecret, canaryReaderToken, canaryTotpSecret, ...canaryRecoveryCodes];
  /** what the store keeps of them, or anything derived from a credential: never shown */
  const derivedSecrets = () => [...[canaryToken, canarySession, canaryActivation, canaryClientSecret, canaryReaderToken].map(sha256), '$argon2', ...canaryRecoveryCodes.map((code) => hashRecoveryCode(accountId, code))];

  it('stores argon2id hashes with the production parameters', async () => {
    const events = await streamOf(app, accountStream(accountId));
    const hashes = events.flatMap((event) => JSON.stringify(event.data).match(/\$argon2[a-z]*\$[^"]+/g) ?? []);
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    for (const hash of hashes) expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('keeps the canary secrets out of the event store, the data files (WAL included), the logs, the WS frames and the export', async () => {
    const adminToken = await signIn(app.url);
    const storedEvents = await eventStoreOf(app).readAll(START, 1_000_000);
    // every event written here (accounts, sessions, tokens, an application, a reader, a team) has a full read declaration
    expect(storedEvents.flatMap((event) => undeclaredEventFields(event.type, event.data).map((field) => `${event.type}.${field}`))).toEqual([]);
    const events = JSON.stringify(storedEvents);
    const stored = await storedText(app);
    const exported = await (await fetch(`${app.url}/api/v2/audit/events/export`, { headers: { authorization: `Bearer ${adminToken}` } })).text();
    const places: Array<[string, string]> = [['event store', events], ['logs', logs.join('\n')], ['WS frames', frames.join('\n')], ['event log export', exported], ...stored];
    console.log(`searched: ${places.map(([where, text]) => `${where} (${text.length} chars)`).join(', ')}`);
    expect(logs.length, 'the access log was captured').toBeGreaterThan(5);
    expect(frames.length, 'the live feed was captured').toBeGreaterThan(0);
    expect(exported.split('\n').length, 'the export was read').toBeGreaterThan(5);
    if (kind === 'sqlite') expect(stored.map(([where]) => where)).toEqual(expect.arrayContaining(['file events.db', 'file events.db-wal', 'file read.db', 'file read.db-wal']));
    for (const [where, text] of places) {
      for (const secret of clearSecrets()) expect(text.includes(secret), `${secret.slice(0, 14)}... in ${where}`).toBe(false);
    }
    // what is read out (the live pushes, the export) holds no hash either
    for (const [where, text] of places.filter(([name]) => name === 'WS frames' || name === 'event log export')) {
      for (const secret of derivedSecrets()) expect(text.includes(secret), `${secret.slice(0, 14)}... in ${where}`).toBe(false);
    }
  });

  it('answers no secret, no hash of one and no argon2 hash on any read route or procedure, to the administrator and to an audit:read token', async () => {
    const callers: Array<[string, string]> = [
      ['administrator', await signIn(app.url)],
      ['audit:read token', auditToken],
    ];
    const document = (await http(app.url).get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const now = new Date().toISOString();
    /** a real id for a path parameter, by the resource the path names before it */
    const idFor = (path: string, parameter: string): string => {
      const before = path.slice(0, path.indexOf(`{${parameter}}`)).split('/').filter(Boolean).pop() ?? '';
      if (/activation/.test(before)) return canaryActivation;
      if (/token/.test(before)) return ids.token;
      if (/reader/.test(before)) return ids.reader;
      if (/application/.test(before)) return ids.application;
      if (/team/.test(before)) return ids.team;
      if (/organi[sz]ation/.test(before)) return ids.organization;
      return ids.account;
    };
    const withMoment = (path: string) => (/as-of$/.test(path) ? `${path}?at=${encodeURIComponent(now)}` : path);
    const restCalls: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      // signing out by GET (docs/security.md, 'Sign-in: lockout, throttling, sessions') would end the
      // walk's own session
      if (!operations.get || /logout/.test(path)) continue;
      const filled = path.replace(/\{(\w+)\}/g, (_, parameter: string) => encodeURIComponent(idFor(path, parameter)));
      restCalls.push(withMoment(filled));
      // the invitee's history and time travel too: its stream holds the activation link's hash
      if (/\/account\/\{id\}\/(history|as-of)$/.test(path)) restCalls.push(withMoment(filled.replace(ids.account, ids.invitee)));
    }
    // the audit module's routes (history, time travel, the log and its export), whether the document names them or not
    for (const prefix of ['/api/v2', '/api']) {
      for (const [resource, id] of [['account', ids.account], ['account', ids.invitee], ['organization', ids.organization], ['team', ids.team], ['application', ids.application], ['readers', ids.reader]]) {
        restCalls.push(`${prefix}/${resource}/${id}/history`);
        if (resource === 'account' || resource === 'organization') restCalls.push(withMoment(`${prefix}/${resource}/${id}/as-of`));
      }
      restCalls.push(`${prefix}/audit/events`, `${prefix}/audit/events/export`);
    }
    expect(restCalls.filter((call) => call.startsWith('/api/v1/')).length, 'REST v1 read routes').toBeGreaterThan(20);
    const expected = [
        `/api/v2/account/${ids.account}/history`,
        `/api/account/${ids.invitee}/history`,
        `/api/v2/readers/${ids.reader}/history`,
        `/api/v2/application/${ids.application}/history`,
        `/api/v2/team/${ids.team}/history`,
        `/api/v2/organization/${ids.organization}/history`,
        `/api/v2/account/${ids.account}/as-of?at=${encodeURIComponent(now)}`,
        '/api/v2/audit/events',
        '/api/audit/events',
        '/api/v2/audit/events/export',
        '/api/audit/events/export',
    ];
    expect(expected.filter((call) => !restCalls.includes(call)), 'read routes walked').toEqual([]);

    const history = (kind: string, id: string) => ({ kind, id, limit: 100 });
    const trpcCalls: Array<[string, unknown]> = [
      ['audit.events', { limit: 100 }],
      ...Object.entries({ account: ids.account, organization: ids.organization, team: ids.team, application: ids.application, reader: ids.reader }).map(([kind, id]): [string, unknown] => ['audit.history', history(kind, id)]),
      ['audit.history', history('account', ids.invitee)],
      ['audit.asOf', { kind: 'account', id: ids.account, at: now }],
      ['audit.asOf', { kind: 'account', id: ids.invitee, at: now }],
      ['audit.asOf', { kind: 'organization', id: ids.organization, at: now }],
    ];
    // every other query, without input and with each real id (those that want other inputs answer 400)
    for (const { name, type } of proceduresOf(app)) {
      if (type !== 'query' || name.startsWith('audit.')) continue;
      trpcCalls.push([name, undefined], ...[ids.account, ids.application, ids.reader, ids.team, ids.organization].map((id): [string, unknown] => [name, { id }]));
    }

    let answers = 0;
    let ok = 0;
    const forbidden = [...clearSecrets(), ...derivedSecrets()];
    const check = (who: string, where: string, text: string) => {
      answers += 1;
      for (const secret of forbidden) expect(text.includes(secret), `${secret.slice(0, 14)}... in ${where} as the ${who}`).toBe(false);
    };
    for (const [who, token] of callers) {
      const client = http(app.url, token);
      for (const call of new Set(restCalls)) {
        // every page, following `next_before` (the log's and the histories' cursors) to the end
        for (let path: string | null = call; path; ) {
          const response = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` } });
          const text = await response.text();
          if (response.status === 200) ok += 1;
          check(who, `GET ${path}`, text);
          const next: unknown = response.status === 200 && response.headers.get('content-type')?.startsWith('application/json') ? ((JSON.parse(text) as { data?: { next_before?: unknown } }).data?.next_before ?? null) : null;
          path = typeof next === 'string' ? `${call.split('?')[0]}?limit=100&before=${encodeURIComponent(next)}` : null;
        }
      }
      for (const [procedure, input] of trpcCalls) {
        const response = await client.get(`/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`);
        if (response.status === 200) ok += 1;
        if (procedure.startsWith('audit.')) expect(response.status, `${procedure} ${JSON.stringify(input)} as the ${who}`).toBe(200);
        check(who, `tRPC ${procedure} ${JSON.stringify(input)}`, JSON.stringify(response.body));
      }
      // the audit:read token reads the whole log: the credentials' events are there, their secrets redacted
      for (const path of [`/api/v2/audit/events?limit=100&stream=${encodeURIComponent(accountStream(ids.account))}`, `/api/v2/audit/events?limit=100&stream=${encodeURIComponent(accountStream(ids.invitee))}`, `/api/v2/audit/events?limit=100&stream=${encodeURIComponent(secondFactorStream(ids.account))}`]) {
        const page = await client.get(path);
        expect(page.status, `${path} as the ${who}`).toBe(200);
        const events = page.body.data.data as Array<{ type: string; data: Record<string, unknown> }>;
        for (const [type, field] of [['PasswordChanged', 'passwordHash'], ['ActivationIssued', 'tokenHash'], ['TotpEnrolmentStarted', 'sealedSecret'], ['RecoveryCodesGenerated', 'codeHashes']]) {
          for (const event of events.filter((found) => found.type === type)) expect(event.data[field], `${type}.${field} as the ${who}`).toBe('[redacted]');
        }
        if (path.includes('second-factors-')) {
          // the stream's secrets were there to redact
          expect(events.map((event) => event.type), `second-factor events as the ${who}`).toEqual(expect.arrayContaining(['TotpEnrolmentStarted', 'RecoveryCodesGenerated', 'RecoveryCodeUsed']));
        }
      }
    }
    console.log(`read routes: ${restCalls.length} REST GETs and ${trpcCalls.length} tRPC queries per caller; ${answers} answers searched, ${ok} of them 200`);
    expect(ok, 'most read routes answered with data').toBeGreaterThan(restCalls.length);
  }, 180_000);

  it('creates the data directory, its files and a backup readable by the service user alone, and narrows wider modes at the next start', async () => {
    if (kind !== 'sqlite') return;
    const root = app.config.dataDir;
    await backupSqlite(app.config, join(root, 'backups', 'canary'));
    const files = modesUnder(root)
      .filter(({ directory }) => !directory)
      .map(({ path }) => path.slice(root.length + 1));
    expect(files).toEqual(expect.arrayContaining(['events.db', 'events.db-wal', 'events.db-shm', 'read.db', 'read.db-wal', 'read.db-shm', 'backups/canary/events.db', 'backups/canary/read.db']));
    expect(widerThanPrivate(root), 'created under umask 000').toEqual([]);

    // what an older version left: a world-readable directory and files
    await app.stop();
    chmodSync(root, 0o755);
    chmodSync(join(root, 'backups'), 0o755);
    for (const file of ['events.db', 'read.db', 'backups/canary/events.db']) chmodSync(join(root, file), 0o644);
    writeFileSync(join(root, 'events.db-wal'), '', { mode: 0o644 });
    chmodSync(join(root, 'events.db-wal'), 0o644);
    writeFileSync(join(root, 'left-by-an-operator.txt'), 'x', { mode: 0o666 });
    chmodSync(join(root, 'left-by-an-operator.txt'), 0o666);
    expect(widerThanPrivate(root).length).toBeGreaterThanOrEqual(7);
    app = await startTestApp(kind, {}, { ...app.config, logLevel: 'error', logFormat: 'text' });
    expect(widerThanPrivate(root), 'after a start').toEqual([]);
  }, 60_000);
});
