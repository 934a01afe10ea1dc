import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, firstOrganization, http, signIn, startTestApp, storageKinds, type TestApp } from '../test-app';
import { headOf, proceduresOf, restErrorProblem, trpcErrorProblem } from './hardening-helpers';

/**
 * Web (docs/security.md, "7. Web"): security headers on the API and the console, the session cookie's
 * flags (Secure behind a trusted TLS proxy), the WebSocket's Origin check, no state change on any
 * GET, and the CSRF defence for cookie sessions.
 */

const EVIL = 'https://evil.example';

function openSocket(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => undefined);
  });
}

function expectSecurityHeaders(headers: Headers, what: string) {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('x-frame-options'), what).toMatch(/^(DENY|SAMEORIGIN)$/);
  expect(headers.get('x-powered-by'), what).toBeNull();
}

describe.each(storageKinds())('web defences (%s)', (kind) => {
  let app: TestApp;
  let token: string;
  let member: { id: string; username: string; password: string };

  beforeAll(async () => {
    // a built console stand-in: the same static serving and client-side routing as the real one
    const consoleDir = join(process.env.TMPDIR ?? '/tmp', `rollcall-console-${Date.now().toString(36)}`);
    mkdirSync(join(consoleDir, 'assets'), { recursive: true });
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Rollcall</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log("rollcall")');
    // the loopback peer is a trusted proxy here, so X-Forwarded-Proto: https stands for TLS at the proxy
    app = await startTestApp(kind, { ROLLCALL_CONSOLE_DIR: consoleDir, ROLLCALL_TRUSTED_PROXIES: 'loopback' });
    token = await signIn(app.url);
    member = await createAccount(http(app.url, token));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('sends CSP with frame-ancestors, nosniff and Referrer-Policy on API answers and on the console', async () => {
    const anonymous = http(app.url);
    const answers = {
      'an API answer': await http(app.url, token).get('/api/v1/account/current'),
      'an API error': await anonymous.get('/api/v1/accounts'),
      'an unknown API route': await anonymous.get('/api/v1/no-such-route'),
      'the OpenAPI document': await anonymous.get('/api/openapi.json'),
      'a tRPC error': await anonymous.get('/trpc/accounts.list'),
      'the console': await anonymous.get('/'),
      'a console route': await anonymous.get('/accounts/profile/123'),
      'a console asset': await anonymous.get('/assets/app.js'),
    };
    for (const [what, answer] of Object.entries(answers)) expectSecurityHeaders(answer.headers, what);
    expect(answers['the console'].headers.get('content-type')).toMatch(/^text\/html/);
    expect(answers['an API error'].status).toBe(401);
  });

  it('sends HSTS when the request came over TLS through a trusted proxy', async () => {
    const behindTls = await http(app.url).get('/api/openapi.json', { 'x-forwarded-proto': 'https' });
    const hsts = behindTls.headers.get('strict-transport-security') ?? '';
    expect(Number(hsts.match(/max-age=(\d+)/)?.[1] ?? 0)).toBeGreaterThanOrEqual(180 * 24 * 3600);
    expect(hsts).toContain('includeSubDomains');
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, and Secure only behind TLS', async () => {
    const credentials = { username: member.username, password: member.password };
    const plain = (await http(app.url).post('/api/v1/admin/authenticate', credentials)).headers.get('set-cookie') ?? '';
    expect(plain).toMatch(/^user_session=[\w-]+;/);
    expect(plain).toMatch(/; HttpOnly/);
    expect(plain).toMatch(/; SameSite=Lax/);
    expect(plain).toMatch(/; Path=\//);
    expect(plain).not.toMatch(/; Secure/);
    const overTls = (await http(app.url).post('/api/v2/admin/authenticate', credentials, { 'x-forwarded-proto': 'https' })).headers.get('set-cookie') ?? '';
    expect(overTls).toMatch(/; HttpOnly/);
    expect(overTls).toMatch(/; Secure/);
    const trpcOverTls = (await http(app.url).post('/trpc/auth.signIn', credentials, { 'x-forwarded-proto': 'https' })).headers.get('set-cookie') ?? '';
    expect(trpcOverTls).toMatch(/; HttpOnly/);
    expect(trpcOverTls).toMatch(/; SameSite=Lax/);
    expect(trpcOverTls).toMatch(/; Secure/);
  });

  it('refuses a WebSocket upgrade from a foreign Origin, even with a valid session', async () => {
    const ws = `${app.url.replace('http', 'ws')}/ws`;
    expect(await openSocket(ws, { origin: app.url, cookie: `user_session=${token}` })).toBe('open');
    expect(await openSocket(ws, { origin: EVIL, cookie: `user_session=${token}` })).toBe(403);
    expect(await openSocket(ws, { origin: 'null', cookie: `user_session=${token}` })).toBe(403);
    expect(await openSocket(ws, { origin: `${app.url}.evil.example`, authorization: `Bearer ${token}` })).toBe(403);
    expect(await openSocket(ws, { origin: app.url })).toBe(401);
  });

  it('changes no state on any GET of the OpenAPI document or any tRPC query', async () => {
    const admin = http(app.url, token);
    const { organizationId, roleId } = await firstOrganization(admin);
    const document = (await admin.get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const ids = [member.id, organizationId, roleId, '00000000-0000-4000-8000-000000000000'];
    const before = await headOf(app);
    let calls = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      // the spec signs out with GET: it changes the session by design (cross-site use is refused, auth.int.spec.ts)
      if (!operations.get || path.endsWith('/admin/logout')) continue;
      for (const id of ids) {
        const answer = await admin.get(path.replace(/\{\w+\}/g, id));
        expect(answer.status, `${path} with ${id}`).toBeLessThan(500);
        calls += 1;
      }
    }
    for (const { name } of proceduresOf(app).filter((procedure) => procedure.type === 'query')) {
      for (const id of ids) {
        const input = { id, account_id: id, organization_id: id, role_id: id, permission_id: id, team_id: id };
        await admin.get(`/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`);
        await admin.get(`/trpc/${name}`);
        calls += 2;
      }
    }
    console.log(`no state change on GET: ${calls} GET requests, head position ${before} before and after`);
    expect(await headOf(app)).toBe(before);
  });

  describe('CSRF: a cross-site request riding on the session cookie', () => {
    // an HTML form can POST with no fields (no body, no preflight); SameSite=Lax keeps the cookie off
    // cross-site forms in today's browsers, the server refuses them too (same-site origins, old browsers)
    const crossSite = (extra: Record<string, string> = {}) => ({ cookie: `user_session=${token}`, 'content-type': 'application/x-www-form-urlencoded', ...extra });

    it('refuses an empty cross-site form POST on REST and tRPC, and nothing is written', async () => {
      const before = await headOf(app);
      const attempts = [
        ['REST, Origin foreign', `/api/v1/scanner/mode/register/${member.id}`, crossSite({ origin: EVIL })],
        ['REST, Sec-Fetch-Site cross-site', `/api/v2/scanner/mode/register/${member.id}`, crossSite({ 'sec-fetch-site': 'cross-site' })],
        ['REST, Sec-Fetch-Site same-site (a sibling origin)', `/api/scanner/mode/register/${member.id}`, crossSite({ 'sec-fetch-site': 'same-site', origin: 'https://other.localhost' })],
        ['REST, Origin null (a sandboxed frame)', `/api/v1/account/${member.id}/unlock`, crossSite({ origin: 'null' })],
        ['REST sign-out', '/api/v1/admin/logout', crossSite({ origin: EVIL, 'sec-fetch-site': 'cross-site' })],
        ['tRPC', '/trpc/smartCards.cancelRegisterMode', crossSite({ origin: EVIL, 'sec-fetch-site': 'cross-site' })],
        ['tRPC sign-out', '/trpc/auth.signOut', crossSite({ origin: EVIL })],
      ] as const;
      for (const [what, path, headers] of attempts) {
        const answer = await http(app.url).raw('POST', path, undefined, headers);
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(403);
        expect(path.startsWith('/api') ? restErrorProblem(answer.body) : trpcErrorProblem(answer.body), what).toBeNull();
        expect(path.startsWith('/api') ? answer.body.error.code : answer.body.error.data.apiError.code, what).toBe('auth.forbidden');
      }
      expect(await headOf(app), 'nothing was appended').toBe(before);
      // the session survived the cross-site sign-out attempts
      expect((await http(app.url, token).get('/api/v1/account/current')).status).toBe(200);
    });

    it('lets the console (same origin) and bearer-header clients through', async () => {
      const sameOrigin = await http(app.url).raw('POST', '/trpc/smartCards.cancelRegisterMode', {}, { cookie: `user_session=${token}`, origin: app.url, 'sec-fetch-site': 'same-origin' });
      expect(sameOrigin.status).toBe(200);
      // behind a proxy that rewrites Host, the browser's Sec-Fetch-Site still tells our own origin apart
      const rewrittenHost = await http(app.url).raw('POST', '/api/v2/scanner/cancel', undefined, { cookie: `user_session=${token}`, origin: 'https://rollcall.example', 'sec-fetch-site': 'same-origin' });
      expect(rewrittenHost.status).toBe(200);
      const noBrowser = await http(app.url).raw('POST', '/api/v2/scanner/cancel', undefined, { cookie: `user_session=${token}` });
      expect(noBrowser.status).toBe(200);
      // a bearer header is never sent by a browser on its own: no CSRF, whatever the Origin says
      const bearer = await http(app.url, token).raw('POST', '/api/v2/scanner/cancel', undefined, { origin: EVIL, 'sec-fetch-site': 'cross-site' });
      expect(bearer.status).toBe(200);
      // signing in carries no session cookie to abuse; a cross-site form cannot send JSON (415)
      const formSignIn = await http(app.url).raw('POST', '/api/v1/admin/authenticate', 'username=admin&password=x', { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL });
      expect(formSignIn.status).toBe(415);
      expect(restErrorProblem(formSignIn.body)).toBeNull();
    });
  });
});
