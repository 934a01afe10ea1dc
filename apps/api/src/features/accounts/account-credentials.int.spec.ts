import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, http, signIn, startTestApp, storageKinds, type TestApp, createAccount } from '../../../test/test-app';
import { passwordChangeRequired } from '../auth/queries/resolve-session.query';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';

const WRONG = { status: 401, body: { error: { code: 'auth.invalid_credentials', message: 'Wrong username or password' } } };

describe.each(storageKinds())('account credentials over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let policies = 0;

  beforeAll(async () => {
    // 50 parallel wrong passwords for one account from one address test the lockout's count, not the
    // sign-in throttle (10 failures per username and address), which would answer most of them 429
    app = await startTestApp(kind, { ROLLCALL_SIGNIN_USERNAME_FAILURES: '1000' });
    admin = http(app.url, await signIn(app.url));
  });

  afterAll(async () => {
    await app?.destroy();
  });

  const create = (overrides: Record<string, unknown> = {}) => createAccount(admin, overrides);
  const createPolicy = async (rules: Record<string, unknown> = {}) => {
    policies += 1;
    const created = await admin.post('/api/v1/policy', { title: `Credentials ${Date.now().toString(36)} ${policies}`, description: '', min_length: 6, min_strength: 0, lockout: 0, lockout_duration: 60, ...rules });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return String(created.body.id);
  };
  const authenticate = async (username: string, password: string) => {
    const { status, body } = await http(app.url).post('/api/v1/admin/authenticate', { username, password });
    return { status, body };
  };
  const put = (path: string, body?: unknown) => admin.raw('PUT', path, body);
  const patch = (path: string, body?: unknown) => admin.raw('PATCH', path, body);

  it('reads and writes auth info on v1, v2 and unprefixed, one field at a time', async () => {
    const policyId = await createPolicy();
    for (const [prefix, unwrap] of [
      ['/api/v1', (b: unknown) => b],
      ['/api/v2', (b: { data?: unknown }) => b.data],
      ['/api', (b: { data?: unknown }) => b.data],
    ] as const) {
      const account = await create();
      const read = async () => unwrap((await admin.get(`${prefix}/account/${account.id}/auth`)).body);
      expect(await read()).toEqual({ username: account.username, policy_id: null, status_id: 1, locked_until: null });
      // the spec's write: the whole auth info with one field replaced; a number for the policy is accepted
      const written = await put(`${prefix}/account/${account.id}/auth`, { username: account.username, status_id: 1, policy_id: Number.isNaN(Number(policyId)) ? policyId : Number(policyId) });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      expect(await read()).toEqual({ username: account.username, policy_id: policyId, status_id: 1, locked_until: null });
      // a status alone keeps the policy; policy off sends null
      expect((await put(`${prefix}/account/${account.id}/auth`, { status_id: '2' })).status).toBe(200);
      expect(await read()).toEqual({ username: account.username, policy_id: policyId, status_id: 2, locked_until: null });
      expect((await put(`${prefix}/account/${account.id}/auth`, { policy_id: null })).status).toBe(200);
      expect(await read()).toEqual({ username: account.username, policy_id: null, status_id: 2, locked_until: null });
    }
  });

  it('refuses a username change, an unknown status, an unknown policy and an unknown account', async () => {
    const account = await create();
    const renamed = await put(`/api/v1/account/${account.id}/auth`, { username: 'somebody.else', status_id: 1, policy_id: null });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error).toMatchObject({ code: 'account.username_unchangeable', message: 'username cannot be changed here', fields: { username: ['username cannot be changed here'] } });
    const badStatus = await put(`/api/v1/account/${account.id}/auth`, { status_id: 7 });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.fields.status_id).toBeDefined();
    const badPolicy = await put(`/api/v1/account/${account.id}/auth`, { policy_id: '00000000-0000-4000-8000-000000000000' });
    expect(badPolicy.status).toBe(404);
    expect(badPolicy.body.error.code).toBe('policy.not_found');
    expect((await admin.get('/api/v1/account/00000000-0000-4000-8000-000000000000/auth')).status).toBe(404);
  });

  it('moves the status totals of the list with a status change', async () => {
    const account = await create();
    const total = async (status: number) => (await admin.get(`/api/v1/accounts?status=${status}&limit=1`)).body.total as number;
    const [active, disabled] = [await total(1), await total(2)];
    expect((await put(`/api/v1/account/${account.id}/auth`, { status_id: 2 })).status).toBe(200);
    expect([await total(1), await total(2)]).toEqual([active - 1, disabled + 1]);
  });

  it('refuses a disabled and an expired account exactly like a wrong password', async () => {
    const disabled = await create();
    expect((await authenticate(disabled.username, disabled.password)).status).toBe(200);
    await put(`/api/v1/account/${disabled.id}/auth`, { status_id: 2 });
    expect(await authenticate(disabled.username, disabled.password)).toEqual(WRONG);
    const expired = await create({ expiry: true, expires_at: '2020-01-01' });
    expect(await authenticate(expired.username, expired.password)).toEqual(WRONG);
    expect(await authenticate(disabled.username, 'not the password')).toEqual(WRONG);
    expect(await authenticate('nobody.at.all', 'whatever it is')).toEqual(WRONG);
  });

  it('restricts a status-3 session to changing the password until it is changed', async () => {
    const account = await create();
    const required = await patch(`/api/v2/account/${account.id}/password/next-login`);
    expect(required.status, JSON.stringify(required.body)).toBe(200);
    expect(required.body.data.status_id).toBe(3);

    const signedIn = await authenticate(account.username, account.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ token: expect.any(String), password_change_required: true });
    const own = http(app.url, signedIn.body.token);
    expect((await own.get('/api/v1/account/current')).status).toBe(200);
    for (const path of ['/api/v1/accounts', `/api/v2/account/${account.id}`, '/api/account/statuses']) {
      const refused = await own.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe('auth.password_change_required');
    }
    // tRPC too
    const trpc = await own.get('/trpc/accounts.statuses');
    expect(trpc.status).toBe(403);

    const wrongCurrent = await own.post('/api/v1/account/password/change', { current_password: 'not it at all', new_password: 'a brand new secret 2' });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.error.code).toBe('password.current_wrong');
    const changed = await own.post('/api/v1/account/password/change', { current_password: account.password, new_password: 'a brand new secret 2' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // the same session is no longer restricted (a plain account: its own routes, no administration), and status 3 is cleared
    expect((await own.get('/api/v1/account/current')).status).toBe(200);
    const administration = await own.get('/api/v1/accounts');
    expect(administration.status).toBe(403);
    expect(administration.body.error.code).toBe('auth.forbidden');
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.status_id).toBe(1);
    expect(await authenticate(account.username, account.password)).toEqual(WRONG);
    const again = await authenticate(account.username, 'a brand new secret 2');
    expect(again).toEqual({ status: 200, body: { token: expect.any(String) } });
  });

  it('treats a password older than the policy allows as one that must be changed', () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    expect(passwordChangeRequired(1, '2026-11-21T12:00:01.000Z', 1, now)).toBe(false);
    expect(passwordChangeRequired(1, '2026-11-21T12:00:00.000Z', 1, now)).toBe(true);
    expect(passwordChangeRequired(1, '2000-01-01T00:00:00.000Z', null, now)).toBe(false);
    expect(passwordChangeRequired(3, now.toISOString(), null, now)).toBe(true);
  });

  it('sets a password under the policy, naming the rule that failed (length, strength, history)', async () => {
    const policyId = await createPolicy({ min_length: 12, min_strength: 3, history: 2 });
    const account = await create({ policy: true, policy_id: policyId, password: 'correct orbit lantern 77' });
    const set = (password: string, method: 'PUT' | 'PATCH' = 'PUT') => admin.raw(method, `/api/v1/account/${account.id}/password`, { password });

    const short = await set('short');
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ code: 'password.too_short', fields: { password: [expect.stringContaining('at least 12 characters')] } });
    const weak = await set('passwordpassword');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toMatchObject({ code: 'password.too_weak', fields: { password: [expect.stringContaining('too weak')] } });
    const reused = await set('correct orbit lantern 77');
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: 'password.reused', fields: { password: [expect.stringContaining('password history')] } });

    const first = await set('violet harbour engine 31');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ message: 'Password updated successfully' });
    const second = await set('amber quarry whistle 58', 'PATCH');
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    // history 2: the two most recent are refused, the one before them is allowed again
    expect((await set('violet harbour engine 31')).body.error?.code).toBe('password.reused');
    expect((await set('correct orbit lantern 77')).status).toBe(200);
    expect((await authenticate(account.username, 'correct orbit lantern 77')).status).toBe(200);
    expect(await authenticate(account.username, 'amber quarry whistle 58')).toEqual(WRONG);
  });

  it('accepts any password without a policy, and v2 wraps the answer', async () => {
    const account = await create();
    const set = await put(`/api/v2/account/${account.id}/password`, { password: 'x' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ data: { message: 'Password updated successfully' } });
    expect((await authenticate(account.username, 'x')).status).toBe(200);
    expect((await put(`/api/v1/account/${account.id}/password`, { password: '' })).status).toBe(400);
  });

  it('locks an account after exactly `lockout` failures under 50 parallel wrong passwords', async () => {
    const policyId = await createPolicy({ lockout: 5, lockout_duration: 3600 });
    const account = await create({ policy: true, policy_id: policyId });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => authenticate(account.username, `wrong password ${i}`)));
    for (const answer of answers) expect(answer).toEqual(WRONG);

    const store = app.app.get<EventStore>(EVENT_STORE);
    const types = (await store.readStream(`account-${account.id}`)).map((event) => event.type);
    const lockedAt = types.indexOf('AccountLocked');
    expect(lockedAt).toBeGreaterThan(0);
    expect(types.slice(0, lockedAt).filter((type) => type === 'SignInFailed')).toHaveLength(5);
    // attempts against the locked account count nothing
    expect(types.filter((type) => type === 'SignInFailed')).toHaveLength(5);
    expect(types.filter((type) => type === 'AccountLocked')).toHaveLength(1);

    // the right password is refused while locked, with the same answer as a wrong one
    expect(await authenticate(account.username, account.password)).toEqual(WRONG);
    // and the administrator is not affected
    expect((await authenticate(ADMIN.username, ADMIN.password)).status).toBe(200);
  });
});
