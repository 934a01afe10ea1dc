import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * An administrator's password setting never names the caller's own account (review R24c G2,
 * docs/adr/0025 'Amendment'): without the current password, a stolen administrator's session would
 * set a password it knows, sign in afresh and plant a second factor. One's own password changes on
 * one's own page, with the current one; other accounts' passwords are set as before. One's own
 * status, policy and lockout change only from a session that signed in within five minutes.
 */
describe.each(storageKinds())("an administrator's own password through the administrators' route (%s)", (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const refusedEverywhere = async (client: ReturnType<typeof http>, ownId: string) => {
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const own = await client.raw(method, `${prefix}/account/${ownId}/password`, { password: 'attacker chosen phrase 1' });
        expect([own.status, own.body.error?.code], `${method} ${prefix}`).toEqual([403, 'account.own_password_via_own_page']);
        expect(own.body.error.message).toContain('your own page');
      }
    }
    const trpc = await client.post('/trpc/accounts.setPassword', { id: ownId, password: 'attacker chosen phrase 1' });
    expect([trpc.status, trpc.body.error?.data.apiError.code]).toEqual([403, 'account.own_password_via_own_page']);
  };

  it("refuses the super administrator's own account on REST v1, v2, unprefixed and tRPC; the password and the session stay", async () => {
    const ownId = (await admin.get('/api/v2/account/current')).body.data.id as string;
    await refusedEverywhere(admin, ownId);
    expect((await admin.get('/api/v2/account/current')).status).toBe(200);
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: ADMIN.username, password: 'attacker chosen phrase 1' })).status).toBe(401);
    expect((await http(app.url).post('/api/v1/admin/authenticate', ADMIN)).status).toBe(200);
  });

  it("refuses an organization administrator's own account, sets another account's password, and the own page still changes one's own", async () => {
    const organization = (await admin.post('/api/v2/organization', { title: `Own password ${Date.now().toString(36)}`, description: '', parent_id: null })).body.data.id as string;
    const permissions: string[] = [];
    for (const slug of ['accounts:read', 'accounts:credentials']) {
      permissions.push((await admin.post('/api/v2/permission', { organization_id: organization, title: `P ${slug} ${Date.now().toString(36)}`, slug, description: '' })).body.data.id as string);
    }
    const role = (await admin.post(`/api/v2/organization/${organization}/role`, { title: `R ${Date.now().toString(36)}`, slug: `own-password-${Date.now().toString(36)}`, description: '', permissions })).body.data.id as string;
    const administrator = await createAccount(admin, { organization });
    expect((await admin.post(`/api/v2/organization/${organization}/account-role`, { account_id: administrator.id, role_id: role })).status).toBe(200);
    const session = http(app.url, await signIn(app.url, { username: administrator.username, password: administrator.password }));

    await refusedEverywhere(session, administrator.id);
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: administrator.username, password: 'attacker chosen phrase 1' })).status).toBe(401);

    const other = await createAccount(admin, { organization });
    const set = await session.raw('PUT', `/api/v1/account/${other.id}/password`, { password: 'a new phrase for the other' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: other.username, password: 'a new phrase for the other' })).status).toBe(200);

    const changed = await session.post('/api/v2/me/password', { current_password: administrator.password, new_password: 'my own new phrase 1' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: administrator.username, password: 'my own new phrase 1' })).status).toBe(200);
  });

  const createPolicy = async () => {
    const created = await admin.post('/api/v2/policy', { title: `Own ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, min_length: 6, min_strength: 0, lockout: 0, lockout_duration: 60 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };
  const trpcCode = (answer: { status: number; body: { error?: { data?: { apiError?: { code?: string } } } } }) => [answer.status, answer.body.error?.data?.apiError?.code];
  const REFUSED = [403, 'account.own_credentials_need_recent_sign_in'];

  it("refuses one's own status, policy and unlock from a session that signed in more than 5 minutes ago, on REST v1, v2, unprefixed and tRPC; other accounts pass", async () => {
    const session = http(app.url, await signIn(app.url));
    const ownId = (await session.get('/api/v2/account/current')).body.data.id as string;
    const policy = await createPolicy();
    const before = (await session.get(`/api/v2/account/${ownId}/auth`)).body.data;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      for (const body of [{ policy_id: policy }, { status_id: 3 }, { status_id: 2 }]) {
        const own = await session.raw('PUT', `${prefix}/account/${ownId}/auth`, body);
        expect([own.status, own.body.error?.code], `${prefix} ${JSON.stringify(body)}`).toEqual(REFUSED);
      }
      const unlock = await session.post(`${prefix}/account/${ownId}/unlock`);
      expect([unlock.status, unlock.body.error?.code], prefix).toEqual(REFUSED);
    }
    expect(trpcCode(await session.post('/trpc/accounts.setAuth', { id: ownId, policy_id: policy }))).toEqual(REFUSED);
    expect(trpcCode(await session.post('/trpc/accounts.unlock', { id: ownId }))).toEqual(REFUSED);
    expect((await session.get(`/api/v2/account/${ownId}/auth`)).body.data).toEqual(before);
    // what the console's status card sends again unchanged is no change, and passes
    expect((await session.raw('PUT', `/api/v2/account/${ownId}/auth`, { status_id: before.status_id, policy_id: before.policy_id })).status).toBe(200);
    const other = await createAccount(session);
    expect((await session.raw('PUT', `/api/v1/account/${other.id}/auth`, { policy_id: policy })).status).toBe(200);
    expect((await session.post(`/api/v1/account/${other.id}/unlock`)).status).toBe(200);
    expect((await session.post('/trpc/accounts.setAuth', { id: other.id, status_id: 2 })).status).toBe(200);
  });

  it("lets a session that signed in within 5 minutes change its own policy and unlock itself; an access token never", async () => {
    const session = http(app.url, await signIn(app.url));
    const ownId = (await session.get('/api/v2/account/current')).body.data.id as string;
    const policy = await createPolicy();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 4 * 60_000);
    const changed = await session.raw('PUT', `/api/v2/account/${ownId}/auth`, { policy_id: policy });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.policy_id).toBe(policy);
    expect((await session.post('/trpc/accounts.unlock', { id: ownId })).status).toBe(200);
    expect((await session.raw('PUT', `/api/v2/account/${ownId}/auth`, { policy_id: null })).status).toBe(200);
    vi.useRealTimers();

    const token = await session.post('/api/v2/token', { title: `Own ${Date.now().toString(36)}`, forever: true, permissions: ['accounts:read', 'accounts:credentials'], restrictions: [], account_id: ownId });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    const bearer = http(app.url, token.body.data.token as string);
    expect(((r) => [r.status, r.body.error?.code])(await bearer.raw('PUT', `/api/v2/account/${ownId}/auth`, { policy_id: policy }))).toEqual(REFUSED);
    expect(((r) => [r.status, r.body.error?.code])(await bearer.post(`/api/v2/account/${ownId}/unlock`))).toEqual(REFUSED);
    expect(((r) => [r.status, r.body.error?.code])(await bearer.raw('PUT', `/api/v2/account/${ownId}/password`, { password: 'attacker chosen phrase 1' }))).toEqual([403, 'account.own_password_via_own_page']);
    expect((await session.get(`/api/v2/account/${ownId}/auth`)).body.data.policy_id).toBeNull();
  });
});
