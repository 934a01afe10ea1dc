import { createServer } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import { createAccount, http, signIn, startTestApp, storageKinds, type StorageKind, type TestApp } from '../../../test/test-app';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { totpCodeAt } from '../auth/second-factor/totp-codes';

const RP = 'http://127.0.0.1:9/callback';

/** a free port, so the issuer (ROLLCALL_PUBLIC_URL + /oidc) names the very address the app listens on */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** answers are read loosely in tests, as test-app.ts's http() does */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** A browser's part: follows the provider's redirects by hand and keeps its cookies. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** a cookie's value as the browser holds it (a signed cookie's own value, without its signature) */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async fetch(url: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<LooseResponse> {
    const response = await fetch(new URL(url, this.base), {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.set(pair.slice(0, at), value);
      else this.cookies.delete(pair.slice(0, at));
    }
    return response;
  }

  /** the next interaction's uid, or the final redirect to the relying party */
  async follow(url: string): Promise<{ uid: string } | { callback: URL }> {
    let location = url;
    for (let hops = 0; hops < 5; hops += 1) {
      const response = await this.fetch(location);
      const next = response.headers.get('location');
      if (!next) throw new Error(`no redirect from ${location}: ${response.status} ${await response.text()}`);
      const target = new URL(next, this.base);
      const interaction = /^\/oidc\/interaction\/([^/]+)$/.exec(target.pathname);
      if (interaction) return { uid: interaction[1] };
      if (!target.pathname.startsWith('/oidc/')) return { callback: target };
      location = target.href;
    }
    throw new Error('too many redirects');
  }
}

describe.each(storageKinds())('the OpenID Connect provider (%s)', (kind: StorageKind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let issuer: string;
  let applicationId: string;
  let secret: string;
  let publicId: string;
  let alice: { id: string; username: string; password: string; email: string };

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp(kind, { PORT: String(port), ROLLCALL_PUBLIC_URL: `http://127.0.0.1:${port}` });
    issuer = `${app.url}/oidc`;
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/application', {
      title: 'Reports',
      scopes: [{ scope: 'reports', description: 'See the reports you are given' }],
      client_type: 'confidential',
      redirect_uris: [RP],
      post_logout_redirect_uris: ['http://127.0.0.1:9/signed-out'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    applicationId = created.body.data.app.id;
    secret = created.body.data.client_secret.client_secret;
    const permission = await admin.post(`/api/v2/application/${applicationId}/permission`, { permission: { slug: 'reports.read', description: 'Read the quarterly reports' } });
    expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
    const unheld = await admin.post(`/api/v2/application/${applicationId}/permission`, { permission: { slug: 'reports.delete', description: 'Delete reports' } });
    expect(unheld.status).toBeLessThan(300);
    const details = (await admin.get(`/api/v2/application/${applicationId}`)).body.data;
    const readId = details.permissions.find((p: { slug: string }) => p.slug === 'reports.read').id;
    const role = await admin.post(`/api/v2/application/${applicationId}/role`, { title: 'Reader', slug: 'reader', description: '', permissions: [readId] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    alice = await createAccount(admin, { first_name: 'Alice', last_name: 'Liddell' });
    const granted = await admin.post(`/api/v2/account/${alice.id}/application-role`, { role_id: role.body.data.id });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);

    const spa = await admin.post('/api/v2/application', { title: 'Single page', client_type: 'public', redirect_uris: [RP], grant_types: ['authorization_code'] });
    expect(spa.status, JSON.stringify(spa.body)).toBe(201);
    publicId = spa.body.data.app.id;
  });

  afterAll(async () => {
    vi.useRealTimers();
    await app?.destroy();
  });

  const relyingParty = (clientSecret = secret) => oidc.discovery(new URL(issuer), applicationId, clientSecret, oidc.ClientSecretBasic(clientSecret), { execute: [oidc.allowInsecureRequests] });

  /** authorization code + PKCE through the sign-in and consent endpoints, up to the callback */
  async function authorize(browser: Browser, config: oidc.Configuration, scope: string, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: RP, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra });
    return { verifier, state, step: await browser.follow(url.href) };
  }

  it('serves discovery and a JWKS with the signing key', async () => {
    const discovery = await http(app.url).get('/oidc/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body).toMatchObject({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, userinfo_endpoint: `${issuer}/me`, jwks_uri: `${issuer}/jwks` });
    expect(discovery.body.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.body.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'roles', 'offline_access']));
    const jwks = await http(app.url).get('/oidc/jwks');
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
  });

  it('signs an account in with code + PKCE, consent, an ID token signed by the JWKS and userinfo claims', async () => {
    const config = await relyingParty();
    const browser = new Browser(app.url);
    const { verifier, state, step } = await authorize(browser, config, 'openid profile email roles offline_access reports reports.read reports.delete', { prompt: 'consent' });
    expect(step).toHaveProperty('uid');
    const uid = (step as { uid: string }).uid;

    const login = await browser.fetch(`/oidc/interaction/${uid}/details`);
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ prompt: 'login', application: { id: applicationId, title: 'Reports' } });
    // the one sign-in command: a wrong password is refused like everywhere else
    const wrong = await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: alice.username, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe('auth.invalid_credentials');
    const signedIn = await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: alice.username, password: alice.password } });
    expect(signedIn.status).toBe(200);
    // a live interaction's id (its URL's and cookie's value) is not in the store either
    // (docs/security.md, '5. Secrets')
    const storeNow = async () => JSON.stringify(await app.app.get<Kysely<ReadDatabase>>(READ_DB).selectFrom('oidc_store').selectAll().execute());
    expect(await storeNow()).toContain('"Interaction"');
    expect((await storeNow()).includes(uid), 'the interaction id in oidc_store').toBe(false);
    const consentStep = await browser.follow((await signedIn.json()).redirect_to);
    const consentUid = (consentStep as { uid: string }).uid;
    const consent = await (await browser.fetch(`/oidc/interaction/${consentUid}/details`)).json();
    expect(consent.prompt).toBe('consent');
    expect(consent.account).toEqual({ username: alice.username, name: 'Alice Liddell' });
    const shown = Object.fromEntries(consent.scopes.map((s: { scope: string; description: string }) => [s.scope, s.description]));
    expect(shown).toMatchObject({ openid: expect.any(String), reports: 'See the reports you are given', 'reports.read': 'Read the quarterly reports', offline_access: expect.any(String) });
    // a permission the account does not hold is not asked about and not granted
    expect(shown['reports.delete']).toBeUndefined();
    const accepted = await browser.fetch(`/oidc/interaction/${consentUid}/consent`, { method: 'POST', json: {} });
    expect(accepted.status).toBe(200);
    const done = await browser.follow((await accepted.json()).redirect_to);
    const callback = (done as { callback: URL }).callback;
    expect(callback.origin + callback.pathname).toBe(RP);

    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: applicationId });
    expect(payload).toMatchObject({ sub: alice.id, preferred_username: alice.username, email: alice.email, given_name: 'Alice', family_name: 'Liddell', roles: ['reader'], permissions: ['reports.read'] });
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, alice.id);
    expect(userinfo).toMatchObject({ sub: alice.id, preferred_username: alice.username, email: alice.email, email_verified: false, name: 'Alice Liddell', roles: ['reader'], permissions: ['reports.read'] });

    // the application's own API: an access token for its resource carries the scopes granted, not the unheld permission
    const resource = `urn:rollcall:application:${applicationId}`;
    const forApi = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource });
    const apiToken = await jwtVerify(forApi.access_token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: resource });
    expect(String(apiToken.payload.scope).split(' ').sort()).toEqual(['reports', 'reports.read']);

    // the provider's store keeps no credential a client holds: the code, the access and refresh tokens
    // and the browser's session cookie are keyed by their SHA-256 (docs/security.md, '5. Secrets')
    const store = await storeNow();
    expect(store).toContain('"RefreshToken"');
    expect(store).toContain('"Session"');
    const sessionCookie = browser.cookie('_session');
    expect(sessionCookie).toBeTruthy();
    for (const credential of [callback.searchParams.get('code')!, tokens.access_token, tokens.refresh_token!, forApi.refresh_token ?? tokens.refresh_token!, sessionCookie!]) {
      expect(credential.length).toBeGreaterThan(20);
      expect(store.includes(credential), `a credential (${credential.slice(0, 6)}...) in oidc_store`).toBe(false);
    }

    // the consent is the account's fact, and the next sign-in skips the page
    await vi.waitFor(async () => expect((await admin.get(`/api/v2/account/${alice.id}/consents`)).body.data).toHaveLength(1));
    const consents = (await admin.get(`/api/v2/account/${alice.id}/consents`)).body.data;
    expect(consents[0]).toMatchObject({ application_id: applicationId, application_title: 'Reports' });
    expect(consents[0].scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'roles', 'reports', 'reports.read']));
    const again = await authorize(browser, config, 'openid profile reports.read');
    expect(again.step).toHaveProperty('callback');

    // a reused code is refused with invalid_grant
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({ error: 'invalid_grant' });

    // revoking the consent revokes the grants: the refresh token stops working, and the page asks again
    const revoked = await admin.raw('DELETE', `/api/v2/account/${alice.id}/consents/${applicationId}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const afterRevoke = await authorize(browser, config, 'openid profile');
    expect(afterRevoke.step).toHaveProperty('uid');

  });

  it('records token issues and refusals in the application activity stream', async () => {
    const { EVENT_STORE } = await import('../../platform/tokens');
    const store = app.app.get<{ readStream(id: string): Promise<Array<{ type: string; data: Record<string, unknown>; metadata: { sourceIp: string | null } }>> }>(EVENT_STORE);
    const events = await store.readStream(`oidc-activity-${applicationId}`);
    const issued = events.find((event) => event.type === 'OidcTokenIssued' && event.data.grantType === 'authorization_code');
    expect(issued?.data).toMatchObject({ applicationId, accountId: alice.id });
    expect(issued?.metadata.sourceIp).toBe('127.0.0.1');
    expect(events.find((event) => event.type === 'OidcTokenRefused')?.data).toMatchObject({ applicationId, error: 'invalid_grant' });
    const accountEvents = await store.readStream(`account-${alice.id}`);
    expect(accountEvents.map((event) => event.type)).toEqual(expect.arrayContaining(['AccountSignedIn', 'ApplicationConsentGiven', 'ApplicationConsentRevoked']));
  });

  it('issues client credentials to a machine client and refuses a wrong secret', async () => {
    const tokens = await oidc.clientCredentialsGrant(await relyingParty(), { scope: 'reports', resource: `urn:rollcall:application:${applicationId}` });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('reports');
    // client_secret_post too (openid-client's default when given a secret)
    const posting = await oidc.discovery(new URL(issuer), applicationId, secret, oidc.ClientSecretPost(secret), { execute: [oidc.allowInsecureRequests] });
    expect((await oidc.clientCredentialsGrant(posting, { scope: 'reports' })).access_token).toEqual(expect.any(String));
    const wrongPost = await oidc.discovery(new URL(issuer), applicationId, 'wrong secret', oidc.ClientSecretPost('wrong secret'), { execute: [oidc.allowInsecureRequests] });
    await expect(oidc.clientCredentialsGrant(wrongPost, { scope: 'reports' })).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
    // 401 with the standard error in the Basic challenge
    await expect(oidc.clientCredentialsGrant(await relyingParty('wrong secret'), { scope: 'reports' })).rejects.toMatchObject({ status: 401, cause: [{ scheme: 'basic', parameters: { error: 'invalid_client' } }] });
  });

  it('refuses an unregistered redirect_uri, a public client without PKCE, an expired code and a disabled account', async () => {
    const anonymous = http(app.url);
    const unregistered = await anonymous.get(`/oidc/auth?client_id=${applicationId}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/elsewhere')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`);
    expect(unregistered.status).toBe(400);
    expect(String(unregistered.body)).toContain('invalid_redirect_uri');
    expect(unregistered.headers.get('location')).toBeNull();

    const noPkce = await fetch(`${issuer}/auth?client_id=${publicId}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(RP)}`, { redirect: 'manual' });
    expect(noPkce.status).toBe(303);
    const refused = new URL(noPkce.headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toMatch(/PKCE/);

    const unknownClient = await anonymous.get(`/oidc/auth?client_id=nope&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(RP)}`);
    expect(unknownClient.status).toBe(400);
    expect(String(unknownClient.body)).toContain('invalid_client');

    // an expired code: the code lives a minute
    const config = await relyingParty();
    const bob = await createAccount(admin, { first_name: 'Bob' });
    const browser = new Browser(app.url);
    const signInAndConsent = async (account: { username: string; password: string }) => {
      const flow = await authorize(browser, config, 'openid');
      let step = flow.step;
      if ('uid' in step) {
        const login = await browser.fetch(`/oidc/interaction/${step.uid}/login`, { method: 'POST', json: { username: account.username, password: account.password } });
        step = await browser.follow((await login.json()).redirect_to);
      }
      if ('uid' in step) {
        const consent = await browser.fetch(`/oidc/interaction/${step.uid}/consent`, { method: 'POST', json: {} });
        step = await browser.follow((await consent.json()).redirect_to);
      }
      return { ...flow, callback: (step as { callback: URL }).callback };
    };
    const expiring = await signInAndConsent(bob);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000);
    await expect(oidc.authorizationCodeGrant(config, expiring.callback, { pkceCodeVerifier: expiring.verifier, expectedState: expiring.state })).rejects.toMatchObject({ error: 'invalid_grant' });
    vi.useRealTimers();

    // a code issued to an account disabled since: no token
    const beforeDisable = await signInAndConsent(bob);
    const disabled = await admin.raw('PUT', `/api/v1/account/${bob.id}/auth`, { status_id: 2 });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    await expect(oidc.authorizationCodeGrant(config, beforeDisable.callback, { pkceCodeVerifier: beforeDisable.verifier, expectedState: beforeDisable.state })).rejects.toMatchObject({ error: 'invalid_grant' });
    // and it cannot sign in again either
    const fresh = new Browser(app.url);
    const flow = await authorize(fresh, config, 'openid');
    const login = await fresh.fetch(`/oidc/interaction/${(flow.step as { uid: string }).uid}/login`, { method: 'POST', json: { username: bob.username, password: bob.password } });
    expect(login.status).toBe(401);
  });

  it('answers interaction calls without a live interaction with a clear 4xx, never a 500', async () => {
    const browser = new Browser(app.url);
    const details = await browser.fetch('/oidc/interaction/unknown/details');
    expect(details.status).toBeGreaterThanOrEqual(400);
    expect(details.status).toBeLessThan(500);
    const notJson = await fetch(`${app.url}/oidc/interaction/unknown/login`, { method: 'POST', body: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(notJson.status).toBe(415);
  });

  it('ends the session through its own page, with a CSP that lets the page post and redirect', async () => {
    const endSession = `/oidc/session/end?client_id=${applicationId}&post_logout_redirect_uri=${encodeURIComponent('http://127.0.0.1:9/signed-out')}`;
    // without a session the provider posts its confirmation by itself: its inline script is allowed by hash
    const bare = await fetch(`${app.url}${endSession}`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^']+'/);
    expect(bare.headers.get('content-security-policy')).toContain("form-action 'self' https: http:");
    // the rest of the product keeps the strict rule
    expect((await fetch(`${app.url}/api/openapi.json`)).headers.get('content-security-policy')).toContain("form-action 'self';");

    // signed in: our page asks first, then the relying party's post-logout URI gets the browser back
    const browser = new Browser(app.url);
    const flow = await authorize(browser, await relyingParty(), 'openid');
    let step = flow.step;
    if ('uid' in step) {
      const login = await browser.fetch(`/oidc/interaction/${step.uid}/login`, { method: 'POST', json: { username: alice.username, password: alice.password } });
      step = await browser.follow((await login.json()).redirect_to);
    }
    if ('uid' in step) await browser.fetch(`/oidc/interaction/${step.uid}/consent`, { method: 'POST', json: {} });
    const asked = await browser.fetch(endSession);
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('Sign out of Rollcall and Reports?');
    expect(html).toContain('id="op.logoutForm"');
  });

  /** sign-in (if asked) and consent (if asked) in `browser` as `account`, up to the callback; the consent page's scopes are kept */
  async function signInThrough(browser: Browser, config: oidc.Configuration, account: { username: string; password: string }, scope: string, extra: Record<string, string> = {}) {
    const flow = await authorize(browser, config, scope, extra);
    let step = flow.step;
    let consentPage: { prompt: string; scopes: Array<{ scope: string }> } | null = null;
    let loginPage: { prompt: string } | null = null;
    if ('uid' in step) {
      loginPage = await (await browser.fetch(`/oidc/interaction/${step.uid}/details`)).json();
      if (loginPage!.prompt === 'login') {
        const login = await browser.fetch(`/oidc/interaction/${step.uid}/login`, { method: 'POST', json: { username: account.username, password: account.password } });
        expect(login.status, await login.clone().text()).toBe(200);
        step = await browser.follow((await login.json()).redirect_to);
      } else loginPage = null;
    }
    if ('uid' in step) {
      consentPage = await (await browser.fetch(`/oidc/interaction/${step.uid}/details`)).json();
      const consent = await browser.fetch(`/oidc/interaction/${step.uid}/consent`, { method: 'POST', json: {} });
      expect(consent.status, await consent.clone().text()).toBe(200);
      step = await browser.follow((await consent.json()).redirect_to);
    }
    const callback = (step as { callback: URL }).callback;
    expect(callback, JSON.stringify(step)).toBeDefined();
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    return { tokens, consentPage, loginPage };
  }

  it('keeps each sign-in its own, lists what prompt=consent asks, and follows the account in introspection and the browser session (docs/security.md, "OpenID Connect provider")', async () => {
    const config = await relyingParty();
    const carol = await createAccount(admin, { first_name: 'Carol' });
    const browser = new Browser(app.url);
    const first = await signInThrough(browser, config, carol, 'openid profile offline_access reports', { prompt: 'consent' });
    expect(first.tokens.refresh_token).toEqual(expect.any(String));
    await vi.waitFor(async () => expect((await admin.get(`/api/v2/account/${carol.id}/consents`)).body.data).toHaveLength(1));

    // prompt=consent when everything was consented before: the page lists what is asked, not nothing
    const second = await signInThrough(browser, config, carol, 'openid profile offline_access reports', { prompt: 'consent' });
    expect(second.consentPage?.scopes.map((s) => s.scope).sort()).toEqual(['offline_access', 'openid', 'profile', 'reports']);
    // a third sign-in of the same browser, without asking
    const third = await signInThrough(browser, config, carol, 'openid profile');
    expect(third.consentPage).toBeNull();
    // the browser session's one grant at this application, saved again by each sign-in: no trail of grants
    const grants = await app.app.get<Kysely<ReadDatabase>>(READ_DB).selectFrom('oidc_store').select('id').where('model', '=', 'Grant').where('account_id', '=', carol.id).execute();
    expect(grants).toHaveLength(1);
    // one sign-in ends no other: the first one's refresh token and access token still work
    const refreshed = await oidc.refreshTokenGrant(config, first.tokens.refresh_token!);
    expect(refreshed.access_token).toEqual(expect.any(String));
    expect(await oidc.fetchUserInfo(config, third.tokens.access_token, carol.id)).toMatchObject({ sub: carol.id });
    expect(await oidc.tokenIntrospection(config, first.tokens.access_token)).toMatchObject({ active: true, sub: carol.id });
    expect(await oidc.tokenIntrospection(config, refreshed.refresh_token ?? first.tokens.refresh_token!)).toMatchObject({ active: true });

    // the account is disabled: its tokens are no longer active, userinfo and the token endpoint refuse
    const disabled = await admin.raw('PUT', `/api/v1/account/${carol.id}/auth`, { status_id: 2 });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, refreshed.refresh_token ?? first.tokens.refresh_token!)).toEqual({ active: false });
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, carol.id)).rejects.toMatchObject({ status: 401 });
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token ?? first.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // the same browser asks again: its provider session ends and the sign-in page is shown (was a 500);
    // another account then signs in on it, with no sign-out page in between
    const dave = await createAccount(admin, { first_name: 'Dave' });
    const again = await authorize(browser, config, 'openid');
    expect(again.step).toHaveProperty('uid');
    const details = await (await browser.fetch(`/oidc/interaction/${(again.step as { uid: string }).uid}/details`)).json();
    expect(details.prompt).toBe('login');
    const asDave = await signInThrough(browser, config, dave, 'openid');
    expect(asDave.loginPage?.prompt).toBe('login');
    expect(await oidc.fetchUserInfo(config, asDave.tokens.access_token, dave.id)).toMatchObject({ sub: dave.id });
    expect(await oidc.tokenIntrospection(config, asDave.tokens.access_token)).toMatchObject({ active: true, sub: dave.id });
    // a deleted account's token is not active either
    const deleted = await admin.raw('DELETE', `/api/v1/account/${dave.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await oidc.tokenIntrospection(config, asDave.tokens.access_token)).toEqual({ active: false });
  });

  it("does not call an expired account's refresh token active (docs/security.md, 'OpenID Connect provider')", async () => {
    const config = await relyingParty();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const erin = await createAccount(admin, { first_name: 'Erin', expiry: true, expires_at: tomorrow });
    const { tokens } = await signInThrough(new Browser(app.url), config, erin, 'openid offline_access', { prompt: 'consent' });
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true, sub: erin.id });
    try {
      // two days on: the refresh token (14 days) has not expired, the account has
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 2 * 86_400_000);
      expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toEqual({ active: false });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a grant type the client may not use with unauthorized_client (RFC 6749 section 5.2)', async () => {
    // the public client is registered for authorization_code only
    const refused = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43), client_id: publicId }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('unauthorized_client');
    const { EVENT_STORE } = await import('../../platform/tokens');
    const store = app.app.get<{ readStream(id: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> }>(EVENT_STORE);
    await vi.waitFor(async () => {
      const events = await store.readStream(`oidc-activity-${publicId}`);
      expect(events.find((event) => event.type === 'OidcTokenRefused')?.data).toMatchObject({ error: 'unauthorized_client', grantType: 'refresh_token' });
    });
  });

  it('asks an account with a second factor for its code; the ID token says what was used: amr pwd and otp (RFC 8176), acr second-factor', async () => {
    const bob = await createAccount(admin, { first_name: 'Bob', last_name: 'Builder' });
    const own = http(app.url, await signIn(app.url, { username: bob.username, password: bob.password }));
    const started = (await own.post('/api/v2/second-factors/totp')).body.data;
    const confirmed = await own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const recoveryCodes = confirmed.body.data.recovery_codes as string[];

    const config = await relyingParty();
    const browser = new Browser(app.url);
    const { verifier, state, step } = await authorize(browser, config, 'openid profile');
    const uid = (step as { uid: string }).uid;
    const login = await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: bob.username, password: bob.password } });
    expect(login.status).toBe(200);
    const asked = await login.json();
    // the password alone finishes nothing: the page asks for the code
    expect(asked).toEqual({ second_factor: { challenge: expect.any(String), methods: ['totp', 'recovery_code'], expires_at: expect.any(String) } });
    const wrong = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge: asked.second_factor.challenge, code: '000000' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe('auth.second_factor_invalid');
    const verified = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge: asked.second_factor.challenge, code: recoveryCodes[0] } });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const consentStep = await browser.follow((await verified.json()).redirect_to);
    const consentUid = (consentStep as { uid: string }).uid;
    const accepted = await browser.fetch(`/oidc/interaction/${consentUid}/consent`, { method: 'POST', json: {} });
    const done = await browser.follow((await accepted.json()).redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, (done as { callback: URL }).callback, { pkceCodeVerifier: verifier, expectedState: state });
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: applicationId });
    expect(payload).toMatchObject({ sub: bob.id, amr: ['pwd', 'otp'], acr: 'urn:rollcall:acr:second-factor' });
    // what the provider says it supports
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { acr_values_supported: string[] };
    expect(discovery.acr_values_supported).toEqual(['urn:rollcall:acr:password', 'urn:rollcall:acr:second-factor']);

    // an account whose policy requires a second factor it has not enrolled gets no token: it enrols in Rollcall first
    const policy = await admin.post('/api/v2/policy', { title: `Second factor ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'all' });
    const dora = await createAccount(admin, { policy: true, policy_id: policy.body.data.id });
    const doraBrowser = new Browser(app.url);
    const doraStep = await authorize(doraBrowser, config, 'openid');
    const refused = await doraBrowser.fetch(`/oidc/interaction/${(doraStep.step as { uid: string }).uid}/login`, { method: 'POST', json: { username: dora.username, password: dora.password } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('auth.second_factor_enrolment_required');

    // a password alone says so too
    const plain = await signInThrough(new Browser(app.url), config, alice, 'openid');
    const plainToken = await jwtVerify(plain.tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: applicationId });
    expect(plainToken.payload).toMatchObject({ amr: ['pwd'], acr: 'urn:rollcall:acr:password' });
  });

  it('takes a passkey at the code step (docs/adr/0029): the ID token says amr pwd, hwk, user and acr second-factor', async () => {
    // ROLLCALL_PUBLIC_URL is set here: the relying party is its origin, whatever the request says
    const origin = new URL(app.url).origin;
    const carol = await createAccount(admin, { first_name: 'Carol', last_name: 'Shaw' });
    const own = http(app.url, await signIn(app.url, { username: carol.username, password: carol.password }));
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await own.post('/api/v2/second-factors/passkeys/registration-options', undefined, { origin })).body.data.options;
    expect((await own.post('/api/v2/second-factors/passkeys', { name: 'Laptop', response: authenticator.register(options) }, { origin })).status).toBe(201);

    const config = await relyingParty();
    const browser = new Browser(app.url);
    const { verifier, state, step } = await authorize(browser, config, 'openid profile');
    const uid = (step as { uid: string }).uid;
    const asked = await (await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: carol.username, password: carol.password } })).json();
    expect(asked.second_factor.methods).toEqual(['passkey', 'recovery_code']);
    const challenge = asked.second_factor.challenge as string;
    const asOptions = await browser.fetch(`/oidc/interaction/${uid}/passkey-options`, { method: 'POST', json: { challenge }, headers: { origin } });
    expect(asOptions.status).toBe(200);
    const verified = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge, passkey: authenticator.assert((await asOptions.json()).options) }, headers: { origin } });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const consentStep = await browser.follow((await verified.json()).redirect_to);
    const accepted = await browser.fetch(`/oidc/interaction/${(consentStep as { uid: string }).uid}/consent`, { method: 'POST', json: {} });
    const done = await browser.follow((await accepted.json()).redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, (done as { callback: URL }).callback, { pkceCodeVerifier: verifier, expectedState: state });
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: applicationId });
    expect(payload).toMatchObject({ sub: carol.id, amr: ['pwd', 'hwk', 'user'], acr: 'urn:rollcall:acr:second-factor' });
  });

  it('asks a browser to sign in again when its sign-in no longer meets the account or the application (locked, must enrol, password or factors changed, second factor or max_age asked)', async () => {
    const config = await relyingParty();
    const body = { title: `Sign-in again ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'off' };
    const policy = (await admin.post('/api/v2/policy', body)).body.data;
    /** a browser signed in to the provider (with consent given), whose next sign-in at the application goes straight through */
    const signedInBrowser = async () => {
      const account = await createAccount(admin, { policy: true, policy_id: policy.id });
      const browser = new Browser(app.url);
      const first = await signInThrough(browser, config, account, 'openid');
      expect((await jwtVerify(first.tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: applicationId })).payload).toMatchObject({ amr: ['pwd'], acr: 'urn:rollcall:acr:password' });
      return { account, browser };
    };
    const straightThrough = async (browser: Browser, extra: Record<string, string> = {}) => expect((await authorize(browser, config, 'openid', extra)).step).toHaveProperty('callback');
    const askedToSignIn = async (browser: Browser, extra: Record<string, string> = {}) => {
      const { step } = await authorize(browser, config, 'openid', extra);
      expect(step, JSON.stringify(step)).toHaveProperty('uid');
      expect((await (await browser.fetch(`/oidc/interaction/${(step as { uid: string }).uid}/details`)).json()).prompt).toBe('login');
    };

    // nothing changed: single sign-on, no page
    const unchanged = await signedInBrowser();
    await straightThrough(unchanged.browser);
    await straightThrough(unchanged.browser);
    // the application asks for the second-factor level this sign-in did not reach, or for a fresh sign-in
    await askedToSignIn(unchanged.browser, { acr_values: 'urn:rollcall:acr:second-factor' });
    await askedToSignIn(unchanged.browser, { max_age: '0' });
    // asking for what it reached (or less) changes nothing
    await straightThrough(unchanged.browser, { acr_values: 'urn:rollcall:acr:password' });

    // its own password change
    const changer = await signedInBrowser();
    const own = http(app.url, await signIn(app.url, { username: changer.account.username, password: changer.account.password }));
    expect((await own.post('/api/v2/me/password', { current_password: changer.account.password, new_password: 'a second secret of ada 1843' })).status).toBe(200);
    await askedToSignIn(changer.browser);
    // and that stays so: the provider session's sign-in has ended
    await askedToSignIn(changer.browser);

    // it enrols a second factor
    const enroller = await signedInBrowser();
    const ownClient = http(app.url, await signIn(app.url, { username: enroller.account.username, password: enroller.account.password }));
    const started = (await ownClient.post('/api/v2/second-factors/totp')).body.data;
    expect((await ownClient.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) })).status).toBe(200);
    await askedToSignIn(enroller.browser);

    // it is locked by wrong passwords
    const locked = await signedInBrowser();
    for (let attempt = 0; attempt < 5; attempt += 1) await http(app.url).post('/api/v1/admin/authenticate', { username: locked.account.username, password: 'not the password at all' });
    const lockedAuth = (await admin.get(`/api/v2/account/${locked.account.id}/auth`)).body;
    expect((lockedAuth.data ?? lockedAuth).locked_until, JSON.stringify(lockedAuth)).toEqual(expect.any(String));
    await askedToSignIn(locked.browser);

    // its policy now requires a second factor it has not enrolled
    const mustEnrol = await signedInBrowser();
    await straightThrough(mustEnrol.browser);
    const updated = await admin.raw('PUT', `/api/v2/policy/${policy.id}`, { ...body, second_factor: 'all' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await askedToSignIn(mustEnrol.browser);
  });

  it('ends an application sign-in at the token endpoint after a factor reset, a password change (own or by an administrator), a lock or signing out all other sessions (review R24b, F2)', async () => {
    const config = await relyingParty();
    const db = app.app.get<Kysely<ReadDatabase>>(READ_DB);
    const policy = (await admin.post('/api/v2/policy', { title: `Remediation ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'off' })).body.data;
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const proofOf = async (idToken: string) => (await jwtVerify(idToken, jwks, { issuer, audience: applicationId })).payload;

    /** an account signed in at the application (offline_access: a refresh token); with an authenticator app and its code when asked */
    const signedIn = async (withTotp: boolean) => {
      const account = await createAccount(admin, { policy: true, policy_id: policy.id });
      const own = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
      const browser = new Browser(app.url);
      if (!withTotp) {
        const { tokens } = await signInThrough(browser, config, account, 'openid offline_access', { prompt: 'consent' });
        return { account, own, refreshToken: tokens.refresh_token! };
      }
      const started = (await own.post('/api/v2/second-factors/totp')).body.data;
      const confirmed = await own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      const { verifier, state, step } = await authorize(browser, config, 'openid offline_access', { prompt: 'consent' });
      const uid = (step as { uid: string }).uid;
      const asked = await (await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: account.username, password: account.password } })).json();
      const verified = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge: asked.second_factor.challenge, code: confirmed.body.data.recovery_codes[0] } });
      expect(verified.status, await verified.clone().text()).toBe(200);
      const consentUid = ((await browser.follow((await verified.json()).redirect_to)) as { uid: string }).uid;
      const accepted = await browser.fetch(`/oidc/interaction/${consentUid}/consent`, { method: 'POST', json: {} });
      const done = await browser.follow((await accepted.json()).redirect_to);
      const tokens = await oidc.authorizationCodeGrant(config, (done as { callback: URL }).callback, { pkceCodeVerifier: verifier, expectedState: state });
      return { account, own, refreshToken: tokens.refresh_token! };
    };
    const tokenRows = (accountId: string) => db.selectFrom('oidc_store').selectAll().where('account_id', '=', accountId).where('model', 'in', ['AuthorizationCode', 'AccessToken', 'RefreshToken']).execute();
    const refused = async (refreshToken: string) => {
      const error = await oidc.refreshTokenGrant(config, refreshToken).then(
        () => null,
        (e: { error?: string }) => e,
      );
      expect(error?.error).toBe('invalid_grant');
    };
    /**
     * The refresh token works, then `remediate` runs: the store no longer holds the account's tokens,
     * and the refresh is refused. With `checked`, the token endpoint refuses it on its own too: its
     * rows put back (a revocation missed) are refused all the same.
     */
    const endsAt = async (remediate: (signed: Awaited<ReturnType<typeof signedIn>>) => Promise<void>, { withTotp = false, checked = true } = {}) => {
      const signed = await signedIn(withTotp);
      const before = await oidc.refreshTokenGrant(config, signed.refreshToken);
      expect(await proofOf(before.id_token!)).toMatchObject(withTotp ? { amr: ['pwd', 'otp'], acr: 'urn:rollcall:acr:second-factor' } : { amr: ['pwd'], acr: 'urn:rollcall:acr:password' });
      const refreshToken = before.refresh_token ?? signed.refreshToken;
      const rows = await tokenRows(signed.account.id);
      expect(rows.map((row) => row.model)).toContain('RefreshToken');
      await remediate(signed);
      await vi.waitFor(async () => expect(await tokenRows(signed.account.id)).toEqual([]));
      await refused(refreshToken);
      if (checked) {
        await db.insertInto('oidc_store').values(rows).execute();
        await refused(refreshToken);
        // and the refresh token refused is gone
        expect((await tokenRows(signed.account.id)).map((row) => row.model)).not.toContain('RefreshToken');
      }
      return signed;
    };

    // an administrator resets its second factors: its ID tokens said otp
    await endsAt(async ({ account }) => expect((await admin.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: 'phone stolen' })).status).toBe(200), { withTotp: true });
    // an administrator sets its password
    await endsAt(async ({ account }) => expect((await admin.raw('PUT', `/api/v1/account/${account.id}/password`, { password: 'brand new pass phrase 77' })).status).toBe(200));
    // it changes its own password; a sign-in after that (the same second or not) is the new one, and keeps working
    const changer = await endsAt(async ({ account, own }) => expect((await own.post('/api/v2/me/password', { current_password: account.password, new_password: 'a second secret of ada 1843' })).status).toBe(200));
    const again = await signInThrough(new Browser(app.url), config, { username: changer.account.username, password: 'a second secret of ada 1843' }, 'openid offline_access', { prompt: 'consent' });
    expect(await proofOf((await oidc.refreshTokenGrant(config, again.tokens.refresh_token!)).id_token!)).toMatchObject({ sub: changer.account.id, amr: ['pwd'] });
    // it is locked by wrong passwords
    await endsAt(async ({ account }) => {
      for (let attempt = 0; attempt < 5; attempt += 1) await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: 'not the password at all' });
      const auth = (await admin.get(`/api/v2/account/${account.id}/auth`)).body;
      expect((auth.data ?? auth).locked_until, JSON.stringify(auth)).toEqual(expect.any(String));
    });
    // it signs out all its other sessions (no account event: the store's revocation alone ends them)
    await endsAt(async ({ own }) => expect((await own.raw('DELETE', '/api/v2/me/sessions')).status).toBe(200), { checked: false });
  });

  it("signing out all other sessions ends the browser's session at the provider too: prompt=none asks for a login, and the answer counts the application (review R24c, G1)", async () => {
    const config = await relyingParty();
    const db = app.app.get<Kysely<ReadDatabase>>(READ_DB);
    const silently = async (browser: Browser) => (await authorize(browser, config, 'openid', { prompt: 'none' })).step;
    for (const via of ['rest', 'trpc'] as const) {
      const account = await createAccount(admin);
      // a browser (a shared or stolen computer) signed in at the application, and the owner's own session elsewhere
      const browser = new Browser(app.url);
      await signInThrough(browser, config, account, 'openid offline_access', { prompt: 'consent' });
      const own = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
      const listed = (await own.get('/api/v2/me/sessions')).body.data as Array<{ kind: string }>;
      expect(listed.filter((session) => session.kind === 'application')).toHaveLength(1);
      // single sign-on before: a code without a page
      const before = await silently(browser);
      expect((before as { callback: URL }).callback?.searchParams.get('code'), JSON.stringify(before)).toEqual(expect.any(String));
      expect(await db.selectFrom('oidc_store').select('id').where('model', '=', 'Session').where('account_id', '=', account.id).execute()).not.toEqual([]);

      const answer = via === 'rest' ? (await own.raw('DELETE', '/api/v2/me/sessions')).body.data : (await own.post('/trpc/me.signOutOtherSessions', '', { 'content-type': 'application/json' })).body.result.data;
      // the application's sign-in was ended, and is counted
      expect(answer, JSON.stringify(answer)).toMatchObject({ signed_out: 1 });
      expect(await db.selectFrom('oidc_store').select('id').where('model', '=', 'Session').where('account_id', '=', account.id).execute()).toEqual([]);

      // the same browser: no new code without signing in
      const after = await silently(browser);
      expect((after as { callback: URL }).callback?.searchParams.get('error'), JSON.stringify(after)).toBe('login_required');
      const { step } = await authorize(browser, config, 'openid');
      expect(step, JSON.stringify(step)).toHaveProperty('uid');
      expect((await (await browser.fetch(`/oidc/interaction/${(step as { uid: string }).uid}/details`)).json()).prompt).toBe('login');
    }
  });

  it('rotates the signing key and keeps the previous one published', async () => {
    const before = (await http(app.url).get('/oidc/jwks')).body.keys.map((key: { kid: string }) => key.kid);
    const rotated = await admin.post('/api/v2/oidc/keys/rotate');
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const after = (await http(app.url).get('/oidc/jwks')).body.keys.map((key: { kid: string }) => key.kid);
    expect(after).toHaveLength(2);
    expect(after[1]).toBe(before[0]);
    expect(rotated.body.data.key_ids).toEqual(after);
    expect((await http(app.url).post('/api/v2/oidc/keys/rotate')).status).toBe(401);
  });
});

/**
 * Without ROLLCALL_PUBLIC_URL a passkey's relying party is the browser's Origin, but only one naming
 * the Host the request came to (servedOrigin, docs/adr/0029): the login's passkey options and code
 * step take it the same way as REST and tRPC, so a foreign Origin cannot become the relying party there.
 */
describe('the OpenID Connect login without ROLLCALL_PUBLIC_URL (sqlite)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let origin: string;
  let applicationId: string;
  let secret: string;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    // the browser's address: localhost, as a WebAuthn relying party id must be a host name
    origin = app.url.replace('127.0.0.1', 'localhost');
    admin = http(origin, await signIn(app.url));
    const created = await admin.post('/api/v2/application', { title: 'Served origin', client_type: 'confidential', redirect_uris: [RP], grant_types: ['authorization_code'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    applicationId = created.body.data.app.id;
    secret = created.body.data.client_secret.client_secret;
  });

  afterAll(async () => {
    await app?.destroy();
  });

  it("takes the passkey's relying party at the login's passkey options and code step only from an Origin naming the Host", async () => {
    const dora = await createAccount(admin, { first_name: 'Dora', last_name: 'Maar' });
    const own = http(origin, await signIn(app.url, { username: dora.username, password: dora.password }));
    const authenticator = new SoftwareAuthenticator(origin);
    const options = (await own.post('/api/v2/second-factors/passkeys/registration-options', undefined, { origin })).body.data.options;
    expect((await own.post('/api/v2/second-factors/passkeys', { name: 'Laptop', response: authenticator.register(options) }, { origin })).status).toBe(201);

    // the issuer is the address the server prints (127.0.0.1); the browser reaches it as localhost
    const config = await oidc.discovery(new URL(`${app.url}/oidc`), applicationId, secret, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
    const browser = new Browser(origin);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: RP, scope: 'openid', state: oidc.randomState(), code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const { uid } = (await browser.follow(url.href.replace(app.url, origin))) as { uid: string };
    const asked = await (await browser.fetch(`/oidc/interaction/${uid}/login`, { method: 'POST', json: { username: dora.username, password: dora.password } })).json();
    const challenge = asked.second_factor.challenge as string;

    // another site, and 127.0.0.1 while the request went to localhost: no relying party
    for (const foreign of ['https://evil.example', app.url]) {
      const refused = await browser.fetch(`/oidc/interaction/${uid}/passkey-options`, { method: 'POST', json: { challenge }, headers: { origin: foreign } });
      expect([refused.status, (await refused.json()).error?.code], foreign).toEqual([400, 'second_factor.passkey_origin_unknown']);
    }
    const served = await browser.fetch(`/oidc/interaction/${uid}/passkey-options`, { method: 'POST', json: { challenge }, headers: { origin } });
    expect(served.status).toBe(200);
    const { options: stepOptions } = await served.json();
    expect(stepOptions.rpId).toBe('localhost');
    const assertion = authenticator.assert(stepOptions);
    const foreignStep = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge, passkey: assertion }, headers: { origin: 'https://evil.example' } });
    expect([foreignStep.status, (await foreignStep.json()).error?.code]).toEqual([400, 'second_factor.passkey_origin_unknown']);
    // the refusal took nothing: the same assertion completes the step from the served origin
    const verified = await browser.fetch(`/oidc/interaction/${uid}/second-factor`, { method: 'POST', json: { challenge, passkey: assertion }, headers: { origin } });
    expect(verified.status, await verified.clone().text()).toBe(200);
  });
});
