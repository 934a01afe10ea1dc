import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../test/test-app';

describe.each(storageKinds())('sign-in and sessions (%s)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('signs in on v1, v2 and unprefixed, with the token in the answer and the session cookie', async () => {
    const v1 = await http(app.url).post('/api/v1/admin/authenticate', ADMIN);
    expect(v1.status).toBe(200);
    expect(typeof v1.body.token).toBe('string');
    expect(v1.headers.get('set-cookie')).toMatch(/^user_session=[\w-]+; .*HttpOnly; SameSite=Lax/);
    for (const prefix of ['/api/v2', '/api']) {
      const v2 = await http(app.url).post(`${prefix}/admin/authenticate`, ADMIN);
      expect(v2.status).toBe(200);
      expect(typeof v2.body.data.token).toBe('string');
    }
  });

  it('answers a wrong password, an unknown user and a malformed sign-in without telling them apart', async () => {
    const wrong = await http(app.url).post('/api/v1/admin/authenticate', { username: ADMIN.username, password: 'nope nope nope' });
    const unknown = await http(app.url).post('/api/v1/admin/authenticate', { username: 'nobody-here', password: 'nope nope nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.code).toBe('auth.invalid_credentials');
    const missing = await http(app.url).post('/api/v1/admin/authenticate', { username: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.password).toBeDefined();
  });

  it('authenticates with the bearer header or the user_session cookie, and refuses forged tokens', async () => {
    const token = await signIn(app.url);
    expect((await http(app.url, token).get('/api/v1/account/current')).body.username_readable).toBe(ADMIN.username);
    const byCookie = await http(app.url).get('/api/v2/account/current', { cookie: `user_session=${token}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.data.first_name).toBe('Rollcall');
    const forged = await http(app.url, `${token.slice(0, -2)}xx`).get('/api/v1/account/current');
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: { code: 'auth.required', message: expect.any(String) } });
  });

  it('requires a session on every route but sign-in and the API documents', async () => {
    for (const path of ['/api/v1/accounts', '/api/v2/accounts', '/api/accounts', '/api/v1/account/statuses', '/api/v2/account/current', '/api/v1/admin/logout']) {
      expect((await http(app.url).get(path)).status, path).toBe(401);
    }
    expect((await http(app.url).post('/api/v2/account', newAccount())).status).toBe(401);
    expect((await http(app.url).get('/trpc/accounts.list')).status).toBe(401);
    expect((await http(app.url).get('/api/openapi.json')).status).toBe(200);
  });

  it('revokes the session on logout: the same token fails on the very next call', async () => {
    const token = await signIn(app.url);
    const client = http(app.url, token);
    expect((await client.get('/api/v1/admin/logout')).status).toBe(200);
    expect((await client.get('/api/v1/account/current')).status).toBe(401);
    const other = await signIn(app.url);
    expect((await http(app.url, other).post('/api/v2/admin/logout')).body).toEqual({ data: { message: 'Signed out' } });
    expect((await http(app.url, other).get('/api/v2/accounts')).status).toBe(401);
  });

  it('refuses a cross-site GET logout that relies on the cookie alone', async () => {
    const token = await signIn(app.url);
    const crossSite = await http(app.url).get('/api/v1/admin/logout', { cookie: `user_session=${token}`, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(200);
  });

  it('records the last login of an account', async () => {
    const account = newAccount();
    const admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v1/account', account);
    expect((await admin.get(`/api/v1/account/${created.body.id}`)).body.last_login_at).toBeNull();
    await signIn(app.url, { username: account.username.toUpperCase(), password: account.password });
    expect((await admin.get(`/api/v1/account/${created.body.id}`)).body.last_login_at).toEqual(expect.any(String));
  });
});

describe('expired sessions', () => {
  it('refuses a token once its session has expired', async () => {
    const app = await startTestApp('sqlite', { ROLLCALL_SESSION_HOURS: String(1.5 / 3600) });
    try {
      const token = await signIn(app.url);
      expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(401);
    } finally {
      await app.destroy();
    }
  });
});
