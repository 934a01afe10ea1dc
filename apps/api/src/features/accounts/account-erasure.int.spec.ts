import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { openStorage } from '../../cli/open-storage';
import { allProjections } from '../../all-projections';
import { rebuildProjections } from '../../platform/projections/projection-runner';
import { createReadDb } from '../../platform/read-db/create-read-db';

type Client = ReturnType<typeof http>;

/** a PNG whose bytes carry a recognizable run, so its base64 text is a canary too */
const CANARY_PNG = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('canary-picture-bytes'.repeat(8))]).toString('base64')}`;

/** every file under the data directory (events, read models, WAL files, keys), as bytes */
const filesOf = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => ({ name: entry.name, bytes: readFileSync(join(entry.parentPath, entry.name)) }));

/**
 * Erasure of personal data (docs/adr/0015): after 'Erase personal data' the account's name, e-mail, phone,
 * address and picture appear nowhere: not in the read database file (nor any file of the data
 * directory, WAL included), not in the exports, not in its history or time travel, not in a read
 * model replayed from the events. Before the erasure the same searches find them, so the test can fail.
 */
describe.each(storageKinds())('erasing an account\'s personal data (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const canary = {
    first_name: `Zorblat${tag}`,
    last_name: `Quimbly${tag}`,
    email: `canary.${tag}@example.com`,
    username: `canary.${tag}`,
    phone: `+49 30 ${tag.length}${Date.now() % 1_000_000}77`,
    address: `${tag} Canary Wharf`,
    picture: CANARY_PNG.slice(40, 100),
  };
  const canaries = Object.values(canary);
  let accountId = '';

  const found = (text: string) => canaries.filter((value) => text.includes(value));
  const eventLogExport = async () => (await fetch(`${app.url}/api/v2/audit/events/export`, { headers: { authorization: `Bearer ${await signIn(app.url)}` } })).text();
  const statisticsExport = async () => (await fetch(`${app.url}/api/v2/accounts/statistics/attendance/download?format=csv`, { headers: { authorization: `Bearer ${await signIn(app.url)}` } })).text();
  const inFiles = () => filesOf(app.config.dataDir).flatMap(({ name, bytes }) => canaries.filter((value) => bytes.includes(value)).map((value) => `${name}: ${value}`));

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const account = await createAccount(admin, { first_name: canary.first_name, last_name: canary.last_name, email: canary.email, username: canary.username });
    accountId = account.id;
    const profile = {
      first_name: canary.first_name,
      last_name: canary.last_name,
      email: canary.email,
      birth_date: '1980-02-29',
      address: canary.address,
      additional: { telephone: [{ value: canary.phone, type: 'mobile' }] },
    };
    const updated = await admin.raw('PUT', `/api/v1/account/${accountId}`, profile);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const pictured = await admin.raw('PATCH', `/api/v2/account/${accountId}/profile-picture`, { picture: CANARY_PNG });
    expect(pictured.status, JSON.stringify(pictured.body)).toBe(200);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('finds the personal data before the erasure, in the account, its history and the export', async () => {
    const read = await admin.get(`/api/v2/account/${accountId}`);
    expect(read.status).toBe(200);
    expect(found(JSON.stringify(read.body))).toEqual(expect.arrayContaining([canary.first_name, canary.email, canary.phone, canary.address]));
    expect(found(JSON.stringify((await admin.get(`/api/v2/account/${accountId}/history`)).body))).toContain(canary.last_name);
    expect(found(await eventLogExport())).toEqual(expect.arrayContaining([canary.first_name, canary.email, canary.phone]));
    // the read database holds them in clear: the file search below is able to see them
    if (kind === 'sqlite') expect(inFiles().length).toBeGreaterThan(0);
  });

  it('refuses the protected administrator, and a caller without accounts:delete', async () => {
    const me = await admin.get('/api/v2/account/current');
    const adminId = (me.body.data?.account?.id ?? me.body.data?.id ?? me.body.id) as string;
    expect(adminId, JSON.stringify(me.body)).toBeTruthy();
    const protectedAnswer = await admin.post(`/api/v2/account/${adminId}/erase`);
    expect(protectedAnswer.status).toBe(403);
    expect(protectedAnswer.body.error.code).toBe('account.protected');
    expect((await http(app.url).post(`/api/v2/account/${accountId}/erase`)).status).toBe(401);
    expect((await admin.post('/api/v2/account/not-an-id/erase')).status).toBe(400);
  });

  it('erases: the account is gone, its username free again, and a second erasure is refused', async () => {
    const erased = await admin.post(`/api/v2/account/${accountId}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body.data.message).toBe('Personal data erased');
    expect((await admin.get(`/api/v2/account/${accountId}`)).status).toBe(404);
    const again = await admin.post(`/api/v2/account/${accountId}/erase`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('account.erased');
    // a new person may take the released username and e-mail; they are the canaries too, so this one is erased as well
    const successor = await admin.post('/api/v1/account', { first_name: 'New', last_name: 'Person', email: canary.email, username: canary.username, password: 'analytical engine 1843' });
    expect(successor.status, JSON.stringify(successor.body)).toBe(201);
    expect((await admin.post(`/api/v2/account/${successor.body.id as string}/erase`)).status).toBe(200);
  });

  it('keeps the history in shape, as an erased person, with nothing personal left', async () => {
    const history = await admin.get(`/api/v2/account/${accountId}/history?limit=100`);
    expect(history.status).toBe(200);
    const entries = history.body.data.data as Array<{ type: string; changes: Array<{ field: string; after: string | null }> }>;
    expect(entries.map((entry) => entry.type)).toEqual(['AccountPersonalDataErased', 'AccountDeleted', 'AccountProfilePictureChanged', 'AccountProfileUpdated', 'AccountCreated']);
    expect(entries[4].changes).toContainEqual({ field: 'first name', before: null, after: 'Erased' });
    expect(found(JSON.stringify(history.body))).toEqual([]);
    for (const at of [new Date(Date.now() - 60_000).toISOString(), new Date().toISOString()]) {
      const asOf = await admin.get(`/api/v2/account/${accountId}/as-of?at=${at}`);
      expect(asOf.status).toBe(200);
      expect(found(JSON.stringify(asOf.body))).toEqual([]);
    }
  });

  it('leaves nothing in the exports', async () => {
    const log = await eventLogExport();
    expect(log).toContain(`"account-${accountId}"`);
    expect(found(log)).toEqual([]);
    expect(found(await statisticsExport())).toEqual([]);
  });

  it('leaves nothing in the stored data: every file of the data directory, or the PostgreSQL tables', async () => {
    if (kind === 'sqlite') {
      expect(inFiles()).toEqual([]);
      return;
    }
    // events, keys and read models share the test's schema: every live row of every table, as text
    const storage = await openStorage(app.config);
    try {
      const schema = app.config.readDb.kind === 'postgres' ? app.config.readDb.schema : '';
      const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables WHERE table_schema = ${schema}`.execute(storage.db);
      expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['es_events', 'pd_keys', 'accounts_v2', 'event_log_v1']));
      for (const { table_name } of tables.rows) {
        const rows = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table_name)} AS t`.execute(storage.db);
        expect(found(rows.rows.map((row) => row.row).join('\n')), table_name).toEqual([]);
      }
    } finally {
      await storage.close();
    }
  });

  it('leaves nothing in a read model replayed from the events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-erasure-replay-'));
    const storage = await openStorage(app.config);
    const replayed = await createReadDb({ kind: 'sqlite', file: join(dir, 'read.db') });
    try {
      expect(await rebuildProjections(storage.store, replayed.db, allProjections())).toBeGreaterThan(0);
      const rows = await replayed.db.selectFrom('event_log_v1').select(['event_type', 'payload']).where('stream_id', '=', `account-${accountId}`).execute();
      expect(rows.find((row) => row.event_type === 'AccountCreated')?.payload).toContain('"firstName":"Erased"');
      await replayed.close();
      expect(filesOf(dir).flatMap(({ bytes }) => canaries.filter((value) => bytes.includes(value)))).toEqual([]);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still signs the administrator in (nothing else was erased)', async () => {
    expect(await signIn(app.url, ADMIN)).toBeTruthy();
  });
});
