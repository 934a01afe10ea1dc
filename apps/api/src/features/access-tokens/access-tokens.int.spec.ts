import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { createAccount, http, makeSuperAdministrator, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

describe.each(storageKinds())('access tokens (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    // last-used times are written every 50 ms here instead of every 5 s
    app = await startTestApp(kind, { ROLLCALL_TOKEN_USAGE_FLUSH_MS: '50' });
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const issue = async (overrides: Record<string, unknown> = {}, client: Client = admin) => {
    const response = await client.post('/api/v1/token', { title: 'Payroll export', forever: true, permissions: ['accounts:read'], restrictions: [], account_id: adminId, ...overrides });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: string; token: string; unique_id: string };
  };
  const put = (path: string, body: unknown) => admin.raw('PUT', path, body);
  const tokenCount = async () => (await admin.get('/api/v1/tokens?limit=100')).body.total as number;

  it('shows the secret once, lists only its prefix, and stores nothing but its hash', async () => {
    const created = await issue({ title: 'Shown once', permissions: ['accounts:read', 'tokens:read'], restrictions: ['10.0.0.0/8', '192.168.1.7'] });
    expect(created.token).toMatch(/^rc_[\w-]{43}$/);
    expect(created.unique_id).toBe(created.token);
    const listed = (await admin.get(`/api/v2/account/${adminId}/bearer-tokens?page=1&limit=10&desc=true&sortBy=created_at`)).body.data;
    const row = listed.data.find((token: { id: string }) => token.id === created.id);
    expect(row).toMatchObject({ token_title: 'Shown once', unique_id: `${created.token.slice(0, 11)}…`, expires_at: null, last_used_at: null, permissions: ['accounts:read', 'tokens:read'], restrictions: ['10.0.0.0/8', '192.168.1.7'] });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const events = await app.app.get<EventStore>(EVENT_STORE).readAll({ commit: 0, sequence: 0 }, 100_000);
    expect(events.some((event) => event.type === 'AccessTokenIssued')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(created.token);
  });

  it('acts within its permissions only, names itself as the actor, and is refused on session-only calls', async () => {
    const { token, id } = await issue({ permissions: ['accounts:read', 'accounts:write'] });
    const client = http(app.url, token);
    expect((await client.get('/api/v2/accounts?limit=1')).status).toBe(200);
    const created = await createAccount(client);
    const denied = await client.raw('DELETE', `/api/v1/account/${created.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'auth.forbidden', message: 'This access token lacks the permission accounts:delete' });
    expect((await client.get('/api/v1/account/current')).status).toBe(403);
    expect((await client.get('/api/v1/admin/logout')).status).toBe(403);
    const stream = await app.app.get<EventStore>(EVENT_STORE).readStream(`account-${created.id}`);
    expect(stream[0].metadata).toMatchObject({ actor: id, actorKind: 'token' });
    // tRPC applies the same rule
    const trpcDenied = await client.post('/trpc/accounts.delete', { id: created.id });
    expect(trpcDenied.status).toBe(403);
    expect(trpcDenied.body.error.data.apiError.code).toBe('auth.forbidden');
    expect((await client.get(`/trpc/accounts.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`)).status).toBe(200);
  });

  it('cannot mint a token broader than itself', async () => {
    const { token } = await issue({ permissions: ['tokens:write', 'accounts:read'] });
    const client = http(app.url, token);
    const refused = await client.post('/api/v1/token', { title: 'Escalation', forever: true, permissions: ['accounts:read', 'accounts:delete'], account_id: adminId });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('accounts:delete');
    expect((await client.post('/api/v1/token', { title: 'Narrower', forever: true, permissions: ['accounts:read'], account_id: adminId })).status).toBe(201);
  });

  it('cannot give a token, nor itself, a later expiry or more places than it has (REST v1, v2, /api, tRPC)', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const narrow = await issue({ title: 'Narrow writer', forever: false, expires_at: expiresAt, permissions: ['tokens:write', 'accounts:read'], restrictions: ['127.0.0.1'] });
    const client = http(app.url, narrow.token);
    const later = new Date(Date.parse(expiresAt) + 60_000).toISOString();
    const refusedField = (answer: { status: number; body: { error: { code: string; fields?: Record<string, string[]>; data?: { apiError?: { code: string; fields?: Record<string, string[]> } } } } }, field: string) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      const error = answer.body.error.data?.apiError ?? answer.body.error;
      expect(error.code).toBe('auth.forbidden');
      expect(Object.keys(error.fields ?? {})).toEqual([field]);
    };
    const body = (overrides: Record<string, unknown>) => ({ title: 'Successor', forever: false, expires_at: expiresAt, permissions: ['accounts:read'], restrictions: ['127.0.0.1'], account_id: adminId, ...overrides });
    // a successor that never expires, or expires later, or works from anywhere or a wider range
    refusedField(await client.raw('POST', '/api/v1/token', body({ forever: true, expires_at: undefined })), 'expires_at');
    refusedField(await client.raw('POST', '/api/v2/token', body({ expires_at: later })), 'expires_at');
    refusedField(await client.raw('POST', '/api/token', body({ restrictions: [] })), 'restrictions');
    refusedField(await client.raw('POST', '/api/v2/token', body({ restrictions: ['127.0.0.0/8'] })), 'restrictions');
    refusedField(await client.post('/trpc/tokens.create', body({ forever: true, expires_at: undefined, restrictions: [] })), 'expires_at');
    refusedField(await client.post('/trpc/tokens.create', body({ restrictions: ['127.0.0.1', '10.0.0.1'] })), 'restrictions');
    // nor may it edit itself loose
    const self = (overrides: Record<string, unknown>) => ({ title: 'Narrow writer', forever: false, expires_at: expiresAt, permissions: ['tokens:write', 'accounts:read'], restrictions: ['127.0.0.1'], ...overrides });
    refusedField(await client.raw('PUT', `/api/v2/token/${narrow.id}`, self({ forever: true, expires_at: undefined, restrictions: [] })), 'expires_at');
    refusedField(await client.raw('PUT', `/api/v1/token/${narrow.id}`, self({ restrictions: [] })), 'restrictions');
    refusedField(await client.post('/trpc/tokens.update', { id: narrow.id, token: self({ expires_at: later }) }), 'expires_at');
    const stored = (await admin.get(`/api/v2/token/${narrow.id}`)).body.data;
    expect(stored).toMatchObject({ restrictions: ['127.0.0.1'], expires_at: expiresAt });
    // as narrow or narrower stays possible, and a session is not limited by a token's place or time
    expect((await client.raw('POST', '/api/v2/token', body({ restrictions: ['127.0.0.1/32'] }))).status).toBe(201);
    const sooner = new Date(Date.parse(expiresAt) - 60_000).toISOString();
    expect((await client.raw('PUT', `/api/v2/token/${narrow.id}`, self({ expires_at: sooner }))).status).toBe(200);
    expect((await admin.raw('PUT', `/api/v2/token/${narrow.id}`, self({ forever: true, expires_at: undefined, restrictions: [] }))).status).toBe(200);
    expect((await client.raw('POST', '/api/v2/token', body({ forever: true, expires_at: undefined, restrictions: [] }))).status).toBe(201);
  });

  it('is refused after its expiry', async () => {
    const { token } = await issue({ forever: false, expires_at: new Date(Date.now() + 1500).toISOString() });
    const client = http(app.url, token);
    expect((await client.get('/api/v1/accounts')).status).toBe(200);
    await sleep(1600);
    const expired = await client.get('/api/v1/accounts');
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('auth.token_expired');
  });

  it('is refused from outside its IP restrictions, and a spoofed X-Forwarded-For from an untrusted peer changes nothing', async () => {
    const elsewhere = http(app.url, (await issue({ restrictions: ['10.0.0.0/8'] })).token);
    const refused = await elsewhere.get('/api/v1/accounts');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'auth.address_not_allowed', message: 'This access token may not be used from 127.0.0.1' });
    expect((await elsewhere.get('/api/v1/accounts', { 'x-forwarded-for': '10.1.2.3' })).status).toBe(403);
    const here = http(app.url, (await issue({ restrictions: ['127.0.0.1'] })).token);
    expect((await here.get('/api/v1/accounts')).status).toBe(200);
    const range = http(app.url, (await issue({ restrictions: ['127.0.0.0/8', '::1'] })).token);
    expect((await range.get('/api/v1/accounts')).status).toBe(200);
  });

  it('stops working on the very next call after an edit narrows it or a delete revokes it', async () => {
    const { token, id } = await issue({ permissions: ['accounts:read', 'tokens:read'] });
    const client = http(app.url, token);
    expect((await client.get('/api/v1/accounts')).status).toBe(200);
    const edited = await put(`/api/v2/token/${id}`, { title: 'Narrowed', forever: true, permissions: ['tokens:read'], restrictions: [] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ id, token_title: 'Narrowed', permissions: ['tokens:read'] });
    expect((await client.get('/api/v1/accounts')).status).toBe(403);
    const deleted = await admin.raw('DELETE', `/api/v1/token/${id}`);
    expect(deleted.body).toEqual({ message: 'Token "Narrowed" deleted' });
    expect((await client.get('/api/v1/tokens')).status).toBe(401);
    expect((await admin.get(`/api/v1/token/${id}`)).status).toBe(404);
    expect((await admin.raw('DELETE', `/api/v1/token/${id}`)).status).toBe(404);
  });

  it('records the last use in batches', async () => {
    const used = await issue({ title: 'Used' });
    const unused = await issue({ title: 'Unused' });
    expect((await http(app.url, used.token).get('/api/v1/accounts')).status).toBe(200);
    await sleep(300);
    const rows = (await admin.get('/api/v1/tokens?limit=100&sortBy=created_at&desc=true')).body.data as Array<{ id: string; last_used_at: string | null }>;
    expect(Date.parse(rows.find((row) => row.id === used.id)!.last_used_at!)).toBeGreaterThan(Date.now() - 10_000);
    expect(rows.find((row) => row.id === unused.id)!.last_used_at).toBeNull();
  });

  it('ends with its account', async () => {
    const account = await createAccount(admin);
    await makeSuperAdministrator(admin, account.id);
    const { token, id } = await issue({ account_id: account.id });
    expect((await http(app.url, token).get('/api/v1/accounts')).status).toBe(200);
    expect((await admin.raw('DELETE', `/api/v1/account/${account.id}`)).status).toBe(200);
    expect((await http(app.url, token).get('/api/v1/accounts')).status).toBe(401);
    // the account is gone (its token list answers 404 like any unknown account's), and its token with it
    expect((await admin.get(`/api/v1/tokens?account_id=${account.id}`)).body.error.code).toBe('account.not_found');
    expect((await admin.get(`/api/v1/token/${id}`)).status).toBe(404);
  });

  it('refuses bad input field by field and stores nothing', async () => {
    const before = await tokenCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ permissions: [] }, 'permissions'],
      [{ permissions: ['accounts:everything'] }, 'permissions.0'],
      [{ restrictions: ['10.0.0.300'] }, 'restrictions.0'],
      [{ restrictions: ['10.0.0.0/33'] }, 'restrictions.0'],
      [{ forever: false }, 'expires_at'],
      [{ forever: false, expires_at: 'tomorrow' }, 'expires_at'],
      [{ forever: false, expires_at: '2020-01-01' }, 'expires_at'],
      [{ account_id: 'nobody' }, 'account_id'],
    ];
    for (const [overrides, field] of cases) {
      const response = await admin.post('/api/v1/token', { title: 'Bad', forever: true, permissions: ['accounts:read'], account_id: adminId, ...overrides });
      expect(response.status, `${JSON.stringify(overrides)} -> ${JSON.stringify(response.body)}`).toBe(400);
      expect(Object.keys(response.body.error.fields ?? {}), JSON.stringify(response.body)).toContain(field);
    }
    const missingAccount = await admin.post('/api/v1/token', { title: 'Bad', forever: true, permissions: ['accounts:read'], account_id: '0190a3c6-0000-7000-8000-000000000000' });
    expect(missingAccount.status).toBe(404);
    expect(await tokenCount()).toBe(before);
  });

  it('lists the system permissions on v1 and v2', async () => {
    const v1 = (await admin.get('/api/v1/permissions/system')).body as Array<{ slug: string; value: string }>;
    expect(v1.map((permission) => permission.slug)).toEqual(expect.arrayContaining(['accounts:read', 'tokens:write']));
    expect((await admin.get('/api/v2/permissions/system')).body.data).toEqual(v1);
  });
});

describe('access tokens behind a trusted proxy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { ROLLCALL_TRUSTED_PROXIES: 'loopback' });
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('believes X-Forwarded-For only because the peer is a configured proxy, and records that address', async () => {
    const admin = http(app.url, await signIn(app.url));
    const adminId = (await admin.get('/api/v1/account/current')).body.id;
    const { token } = (await admin.post('/api/v1/token', { title: 'Office only', forever: true, permissions: ['accounts:read', 'accounts:write'], restrictions: ['10.0.0.0/8'], account_id: adminId })).body;
    const client = http(app.url, token);
    expect((await client.get('/api/v1/accounts', { 'x-forwarded-for': '10.1.2.3' })).status).toBe(200);
    expect((await client.get('/api/v1/accounts', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
    expect((await client.get('/api/v1/accounts')).status).toBe(403);
    const viaProxy = await client.post('/api/v1/account', newAccount(), { 'x-forwarded-for': '10.4.4.4' });
    expect(viaProxy.status).toBe(201);
    const stream = await app.app.get<EventStore>(EVENT_STORE).readStream(`account-${viaProxy.body.id}`);
    expect(stream[0].metadata.sourceIp).toBe('10.4.4.4');
  });

  it('refuses a start with a malformed proxy list, naming the variable', async () => {
    await expect(startTestApp('sqlite', { ROLLCALL_TRUSTED_PROXIES: '10.0.0.0/99' })).rejects.toThrow(/ROLLCALL_TRUSTED_PROXIES/);
  });
});
