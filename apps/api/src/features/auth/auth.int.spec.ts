import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ADMIN, createAccount, http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

describe.each(storageKinds())('sign-in and sessions (%s)', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    // X-Forwarded-For from loopback is believed: each throttling test signs in from addresses of its own
    app = await startTestApp(kind, { ROLLCALL_TRUSTED_PROXIES: 'loopback' });
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

  /** a sign-in as if from `address` (X-Forwarded-For, believed from loopback in this suite) */
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const authenticate = (path: string, { username, password }: { username: string; password: string }, address: string) => http(app.url).post(path, { username, password }, from(address));
  const credentialsOf = ({ username, password }: { username: string; password: string }) => ({ username, password });
  const REST_SIGN_INS = ['/api/v1/admin/authenticate', '/api/v2/admin/authenticate', '/api/admin/authenticate'];
  /** REST answers `{error}`; tRPC carries the same error under error.data.apiError */
  const apiErrorOf = (body: { error?: { code?: string; data?: { apiError?: unknown } } }) => (body.error?.data?.apiError ?? body.error) as { code: string; message: string } | undefined;

  /** An OIDC sign-in page's interaction (uid and the provider's cookies) for a public client, as a browser would reach it. */
  async function oidcInteraction(clientId: string): Promise<{ uid: string; cookie: string }> {
    const challenge = createHash('sha256').update(`verifier ${Math.random()}`).digest('base64url');
    const query = new URLSearchParams({ client_id: clientId, redirect_uri: 'http://127.0.0.1:9/callback', response_type: 'code', scope: 'openid', state: 'state-1', code_challenge: challenge, code_challenge_method: 'S256' });
    const cookies = new Map<string, string>();
    let location = `/oidc/auth?${query}`;
    for (let hop = 0; hop < 5; hop += 1) {
      const answer = await fetch(new URL(location, app.url), { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
      for (const line of answer.headers.getSetCookie()) {
        const [pair] = line.split(';');
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      location = answer.headers.get('location') ?? '';
      const uid = /\/oidc\/interaction\/([^/?]+)$/.exec(new URL(location, app.url).pathname)?.[1];
      if (uid) return { uid, cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
      if (!location) throw new Error(`no redirect from the provider: ${answer.status} ${await answer.text()}`);
    }
    throw new Error('no interaction reached');
  }
  const oidcLogin = (interaction: { uid: string; cookie: string }, credentials: { username: string; password: string }, address: string) =>
    http(app.url).post(`/oidc/interaction/${interaction.uid}/login`, credentials, { cookie: interaction.cookie, ...from(address) });

  it('locks the first administrator too: 200 wrong passwords from 200 addresses, then the right one is refused', async () => {
    const admin = http(app.url, await signIn(app.url));
    const adminId = (await admin.get('/api/v1/account/current')).body.id as string;
    try {
      for (let batch = 0; batch < 10; batch += 1) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => authenticate('/api/v1/admin/authenticate', { username: ADMIN.username, password: `wrong guess ${batch}-${i}` }, `10.1.${batch}.${i + 1}`)));
        for (const answer of answers) expect(answer.status).toBe(401);
      }
      // a fresh address, the right password: refused like a wrong one, because the account is locked
      const right = await authenticate('/api/v1/admin/authenticate', ADMIN, '10.1.99.1');
      expect([right.status, right.body.error?.code]).toEqual([401, 'auth.invalid_credentials']);
      const auth = (await admin.get(`/api/v1/account/${adminId}/auth`)).body;
      expect(auth.locked_until).toEqual(expect.any(String));
    } finally {
      // the rest of the suite signs in as the administrator
      expect((await admin.post(`/api/v1/account/${adminId}/unlock`)).status).toBeLessThan(300);
    }
    expect((await authenticate('/api/v1/admin/authenticate', ADMIN, '10.1.99.2')).status).toBe(200);
  });

  it("locks an account whose policy's lockout is 0 with the built-in default", async () => {
    const admin = http(app.url, await signIn(app.url));
    const policy = await admin.post('/api/v1/policy', { title: `No lockout ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: 0, lockout_duration: 60 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const account = await createAccount(admin, { policy: true, policy_id: policy.body.id });
    for (let i = 0; i < 10; i += 1) expect((await authenticate(REST_SIGN_INS[0], { username: account.username, password: `guess ${i}` }, `10.5.0.${i + 1}`)).status).toBe(401);
    expect((await authenticate(REST_SIGN_INS[0], account, '10.5.1.1')).status).toBe(401);
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toEqual(expect.any(String));
  });

  it('throttles a burst of failed sign-ins from one address over many usernames on REST v1, v2, /api, tRPC and the OIDC login form: 429 with Retry-After', async () => {
    const admin = http(app.url, await signIn(app.url));
    const client = await admin.post('/api/v2/application', { title: `Throttled ${Date.now()}`, client_type: 'public', redirect_uris: ['http://127.0.0.1:9/callback'], grant_types: ['authorization_code'] });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    const interaction = await oidcInteraction(client.body.data.app.id);
    const account = await createAccount(admin);
    const attacker = '10.2.0.1';
    const surfaces = [
      (credentials: { username: string; password: string }) => authenticate(REST_SIGN_INS[0], credentials, attacker),
      (credentials: { username: string; password: string }) => authenticate(REST_SIGN_INS[1], credentials, attacker),
      (credentials: { username: string; password: string }) => authenticate(REST_SIGN_INS[2], credentials, attacker),
      (credentials: { username: string; password: string }) => authenticate('/trpc/auth.signIn', credentials, attacker),
      (credentials: { username: string; password: string }) => oidcLogin(interaction, credentials, attacker),
    ];
    // 100 failures (the default per address and minute), spread over every path: they all count together
    for (let i = 0; i < 100; i += 1) {
      const answer = await surfaces[i % surfaces.length]({ username: `sprayed.${i}.${kind}`, password: 'Summer2026!' });
      expect([answer.status, apiErrorOf(answer.body)?.code], `attempt ${i}`).toEqual([401, 'auth.invalid_credentials']);
    }
    for (const [index, surface] of surfaces.entries()) {
      // the right password of a real account too: a throttled address learns nothing
      const answer = await surface(credentialsOf(account));
      expect([answer.status, apiErrorOf(answer.body)?.code], `surface ${index}`).toEqual([429, 'rate.limited']);
      expect(Number(answer.headers.get('retry-after')), `surface ${index}`).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers.get('retry-after')), `surface ${index}`).toBeLessThanOrEqual(60);
      expect(answer.headers.get('set-cookie') ?? '', `surface ${index}`).not.toContain('user_session=');
    }
    // another address is not affected
    expect((await authenticate(REST_SIGN_INS[0], account, '10.2.0.2')).status).toBe(200);
  });

  it('throttles failed sign-ins for one username from one address, alike for unknown, wrong, locked and disabled accounts', async () => {
    const admin = http(app.url, await signIn(app.url));
    const lenient = await admin.post('/api/v1/policy', { title: `Lenient ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: 100, lockout_duration: 60 });
    const strict = await admin.post('/api/v1/policy', { title: `Strict ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: 2, lockout_duration: 3600 });
    const wrong = await createAccount(admin, { policy: true, policy_id: lenient.body.id });
    const locked = await createAccount(admin, { policy: true, policy_id: strict.body.id });
    for (let i = 0; i < 2; i += 1) await authenticate(REST_SIGN_INS[0], { username: locked.username, password: 'not it at all' }, '10.3.9.9');
    const disabled = await createAccount(admin);
    expect((await admin.raw('PUT', `/api/v1/account/${disabled.id}/auth`, { status_id: 2 })).status).toBe(200);
    const kinds = {
      unknown: { username: `nobody.${Date.now().toString(36)}`, password: 'not it at all' },
      wrong: { username: wrong.username, password: 'not it at all' },
      locked: { username: locked.username, password: locked.password },
      disabled: { username: disabled.username, password: disabled.password },
    };
    const address = '10.3.0.1';
    const throttled = new Map<string, string>();
    for (const [name, credentials] of Object.entries(kinds)) {
      // 10 failures per username and address (the default) are answered as any failure ...
      for (let i = 0; i < 10; i += 1) expect((await authenticate(REST_SIGN_INS[i % 3], credentials, address)).status, `${name} ${i}`).toBe(401);
      // ... the 11th is refused before the password is looked at, the same way for every kind
      const answer = await authenticate(REST_SIGN_INS[0], credentials, address);
      expect(answer.headers.get('retry-after'), name).toMatch(/^\d+$/);
      throttled.set(name, JSON.stringify([answer.status, answer.body]));
    }
    expect(new Set(throttled.values()), JSON.stringify(Object.fromEntries(throttled))).toHaveProperty('size', 1);
    expect(JSON.parse(throttled.get('unknown')!)).toEqual([429, { error: { code: 'rate.limited', message: expect.any(String) } }]);
    // the right password from that address waits too; from another address the account signs in
    expect((await authenticate(REST_SIGN_INS[0], { username: wrong.username, password: wrong.password }, address)).status).toBe(429);
    expect((await authenticate(REST_SIGN_INS[0], { username: wrong.username, password: wrong.password }, '10.3.0.2')).status).toBe(200);
  });

  it('counts failures only: many successful sign-ins from one address are never throttled', async () => {
    const account = await createAccount(http(app.url, await signIn(app.url)));
    for (let i = 0; i < 25; i += 1) expect((await authenticate(REST_SIGN_INS[i % 3], account, '10.4.0.1')).status, `sign-in ${i}`).toBe(200);
    // failures per username and address count in a row: a successful sign-in starts them again
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 9; i += 1) expect((await authenticate(REST_SIGN_INS[0], { username: account.username, password: `typo ${i}` }, '10.4.0.2')).status, `round ${round}, typo ${i}`).toBe(401);
      expect((await authenticate(REST_SIGN_INS[0], account, '10.4.0.2')).status, `round ${round}`).toBe(200);
    }
  });

  /** the own change of a signed-in account as if from `address`, on REST (v1, v2, /api) or tRPC */
  const OWN_CHANGES = ['/api/v1/account/password/change', '/api/v2/account/password/change', '/api/account/password/change', '/trpc/auth.changePassword'];
  const changeOwn = (path: string, token: string, current_password: string, address: string) =>
    http(app.url, token).post(path, { current_password, new_password: `A new secret ${Math.random()}` }, from(address));
  /** one HTTP request carrying a tRPC batch of own changes, one per guess; answers each call's error code (or 'ok') */
  async function changeOwnBatch(token: string, guesses: string[], address: string) {
    const body = Object.fromEntries(guesses.map((current_password, i) => [i, { current_password, new_password: `A new secret ${i} ${Math.random()}` }]));
    const answer = await http(app.url, token).post(`/trpc/${guesses.map(() => 'auth.changePassword').join(',')}?batch=1`, body, from(address));
    const codes = (answer.body as Array<{ error?: { data?: { apiError?: { code: string } } } }>).map((call) => call.error?.data?.apiError?.code ?? 'ok');
    return { answer, codes, count: (code: string) => codes.filter((c) => c === code).length };
  }

  it("counts a wrong current password of the own change as a failed sign-in on REST v1, v2, /api and tRPC (one batch too): the account locks, and its change is refused then, the right password included", async () => {
    const admin = http(app.url, await signIn(app.url));
    const policy = await admin.post('/api/v1/policy', { title: `Five tries ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: 5, lockout_duration: 3600 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const account = await createAccount(admin, { policy: true, policy_id: policy.body.id });
    const token = await signIn(app.url, credentialsOf(account));
    // a stolen session guessing: each wrong guess counts against the account, whatever the surface
    for (const [i, path] of OWN_CHANGES.slice(0, 3).entries()) {
      const answer = await changeOwn(path, token, `guess ${i}`, '10.6.0.1');
      expect([answer.status, apiErrorOf(answer.body)?.code], path).toEqual([400, 'password.current_wrong']);
    }
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toBeNull();
    // six guesses in parallel in one request: exactly the two left before the lock are answered as wrong, the rest as locked
    const batch = await changeOwnBatch(token, Array.from({ length: 6 }, (_, i) => `parallel guess ${i}`), '10.6.0.2');
    expect([batch.count('password.current_wrong'), batch.count('rate.limited')], batch.codes.join(' ')).toEqual([2, 4]);
    expect(batch.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toEqual(expect.any(String));
    // locked: the right current password is refused too, on every surface, with the lock's wait
    for (const path of OWN_CHANGES) {
      const answer = await changeOwn(path, token, account.password, '10.6.0.3');
      expect([answer.status, apiErrorOf(answer.body)?.code], path).toEqual([429, 'rate.limited']);
      expect(Number(answer.headers.get('retry-after')), path).toBeGreaterThan(60);
      expect(Number(answer.headers.get('retry-after')), path).toBeLessThanOrEqual(3600);
    }
    // unlocked by an administrator: the password is still the first one (no guess, no refused change, changed it)
    expect((await admin.post(`/api/v1/account/${account.id}/unlock`)).status).toBeLessThan(300);
    expect((await authenticate(REST_SIGN_INS[0], account, '10.6.0.4')).status).toBe(200);
    expect((await changeOwn(OWN_CHANGES[3], token, account.password, '10.6.0.4')).status).toBe(200);
  });

  it("throttles the own change's current password with the sign-in's throttle: a tRPC batch of 30 guesses gets 10 answers, then 429 with Retry-After for the change and the sign-in from that address", async () => {
    const admin = http(app.url, await signIn(app.url));
    // a lockout far away: only the throttle stops the guesses here
    const lenient = await admin.post('/api/v1/policy', { title: `Lenient change ${Date.now()} ${kind}`, min_length: 8, min_strength: 0, lockout: 100, lockout_duration: 60 });
    const account = await createAccount(admin, { policy: true, policy_id: lenient.body.id });
    const token = await signIn(app.url, credentialsOf(account));
    const address = '10.7.0.1';
    // 10 failures per username and address (the default), whatever the surface: the other 20 guesses are refused unchecked
    const batch = await changeOwnBatch(token, Array.from({ length: 30 }, (_, i) => `batched guess ${i}`), address);
    expect([batch.count('password.current_wrong'), batch.count('rate.limited')], batch.codes.join(' ')).toEqual([10, 20]);
    expect(batch.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    for (const path of OWN_CHANGES) {
      const answer = await changeOwn(path, token, account.password, address);
      expect([answer.status, apiErrorOf(answer.body)?.code], path).toEqual([429, 'rate.limited']);
      expect(Number(answer.headers.get('retry-after')), path).toBeGreaterThanOrEqual(1);
    }
    // one throttle: the sign-in from that address waits as well; from another address both work
    expect((await authenticate(REST_SIGN_INS[0], account, address)).status).toBe(429);
    expect((await authenticate(REST_SIGN_INS[0], account, '10.7.0.2')).status).toBe(200);
    expect((await changeOwn(OWN_CHANGES[1], token, account.password, '10.7.0.2')).status).toBe(200);
    expect((await admin.get(`/api/v1/account/${account.id}/auth`)).body.locked_until).toBeNull();
  });

  it("refuses an expired account's open sessions on the next request, not only its sign-ins", async () => {
    const admin = http(app.url, await signIn(app.url));
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const account = await createAccount(admin, { expiry: true, expires_at: expiresAt });
    const token = await signIn(app.url, credentialsOf(account));
    expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(200);
    expect((await http(app.url, token).get('/trpc/auth.me')).status).toBe(200);
    // two hours on: the account has expired, its 12-hour session has not
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2 * 3_600_000);
      expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(401);
      expect((await http(app.url, token).get('/api/v2/accounts')).status).toBe(401);
      expect((await http(app.url, token).get('/trpc/auth.me')).status).toBe(401);
      expect((await http(app.url).get('/api/v1/account/current', { cookie: `user_session=${token}` })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  /** does the WebSocket upgrade with this session succeed (open) or get refused (its status)? */
  const upgrade = (token: string) =>
    new Promise<'open' | number>((resolve, reject) => {
      const socket = new WebSocket(`${app.url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${token}`, origin: app.url } });
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('error', reject);
    });

  it('ends every other session of an account that changes its own password, over REST and tRPC, and keeps the one that changed it', async () => {
    const admin = http(app.url, await signIn(app.url));
    const account = await createAccount(admin);
    const current = await signIn(app.url, credentialsOf(account));
    const other = await signIn(app.url, credentialsOf(account));
    expect(await upgrade(other)).toBe('open');
    const changed = await http(app.url, current).post('/api/v1/account/password/change', { current_password: account.password, new_password: 'a brand new secret 2026' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await http(app.url, current).get('/api/v1/account/current')).status).toBe(200);
    expect((await http(app.url, other).get('/api/v1/account/current')).status).toBe(401);
    expect((await http(app.url).get('/api/v2/account/current', { cookie: `user_session=${other}` })).status).toBe(401);
    expect(await upgrade(other)).toBe(401);
    expect(await upgrade(current)).toBe('open');

    // the console's own call (tRPC auth.changePassword) ends the others alike
    const third = await signIn(app.url, { username: account.username, password: 'a brand new secret 2026' });
    const byTrpc = await http(app.url, current).post('/trpc/auth.changePassword', { current_password: 'a brand new secret 2026', new_password: 'yet another secret 2027' });
    expect(byTrpc.status, JSON.stringify(byTrpc.body)).toBe(200);
    expect((await http(app.url, third).get('/trpc/auth.me')).status).toBe(401);
    expect((await http(app.url, current).get('/trpc/auth.me')).status).toBe(200);
  });

  it("ends every session of an account when an administrator sets its password (v1, v2) or requires a change on next login", async () => {
    const admin = http(app.url, await signIn(app.url));
    const account = await createAccount(admin);
    const first = await signIn(app.url, credentialsOf(account));
    const second = await signIn(app.url, credentialsOf(account));
    expect(await upgrade(second)).toBe('open');
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: 'set by the administrator 1' })).status).toBe(200);
    for (const token of [first, second]) expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(401);
    expect(await upgrade(second)).toBe(401);
    const third = await signIn(app.url, { username: account.username, password: 'set by the administrator 1' });
    expect((await admin.raw('PATCH', `/api/v2/account/${account.id}/password`, { password: 'set by the administrator 2' })).status).toBe(200);
    expect((await http(app.url, third).get('/api/v2/account/current')).status).toBe(401);
    // the administrator's own session is another account's: untouched
    expect((await admin.get('/api/v1/account/current')).status).toBe(200);
    // the other reset, 'require a password change on next login', ends the open sessions too
    const fourth = await signIn(app.url, { username: account.username, password: 'set by the administrator 2' });
    expect((await admin.raw('PATCH', `/api/v2/account/${account.id}/password/next-login`)).status).toBe(200);
    expect((await http(app.url, fourth).get('/api/v1/account/current')).status).toBe(401);
    const next = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: 'set by the administrator 2' });
    expect(next.body).toEqual({ token: expect.any(String), password_change_required: true });
  });

  it('refuses a cookie-only GET logout whose Origin or Referer is foreign, or that carries none of Sec-Fetch-Site, Origin and Referer', async () => {
    const token = await signIn(app.url);
    const cookie = { cookie: `user_session=${token}` };
    const foreign: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }, { origin: 'null' }, {}, { referer: 'not a url' }];
    for (const headers of foreign) {
      const answer = await http(app.url).get('/api/v1/admin/logout', { ...cookie, ...headers });
      expect([answer.status, answer.body.error?.code], JSON.stringify(headers)).toEqual([403, 'auth.forbidden']);
    }
    expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(200);
    // from our own origin, by Origin or by Referer, it works on v1 and v2; a bearer header needs neither
    expect((await http(app.url).get('/api/v1/admin/logout', { ...cookie, referer: `${app.url}/accounts` })).status).toBe(200);
    expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(401);
    const second = await signIn(app.url);
    expect((await http(app.url).get('/api/v2/admin/logout', { cookie: `user_session=${second}`, origin: app.url })).body).toEqual({ data: { message: 'Signed out' } });
    expect((await http(app.url, second).get('/api/v1/account/current')).status).toBe(401);
    const third = await signIn(app.url);
    expect((await http(app.url, third).get('/api/logout'.replace('/logout', '/admin/logout'))).status).toBe(200);
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
