import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/**
 * An empty 200 for an unknown account (docs/security.md, 'Bad input that loses data'): `GET
 * account/{unknown}/bearer-tokens`, `/calendar` and `/smartcards` answered 200 with an empty list
 * where `GET account/{unknown}/auth` answers 404 `account.not_found`. Now every transport answers
 * 404 like the siblings, and an account outside an organization administrator's reach answers
 * exactly like an unknown one (no enumeration).
 */
describe('lists under an account answer 404 for an unknown account (sqlite)', () => {
  let app: TestApp;
  let admin: Client;
  let scoped: Client;
  let inside: string;
  let outside: string;

  const created = async (answer: Promise<{ status: number; body: { id?: string; data?: { id: string } } }>) => {
    const { status, body } = await answer;
    if (status >= 300) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
    return body.data?.id ?? body.id!;
  };

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    admin = http(app.url, await signIn(app.url));
    const stamp = Date.now().toString(36);
    const a = await created(admin.post('/api/v2/organization', { title: `Lists A ${stamp}`, description: '', parent_id: null }));
    const b = await created(admin.post('/api/v2/organization', { title: `Lists B ${stamp}`, description: '', parent_id: null }));
    // an administrator of A: every permission the three lists need, held in A only
    const permissions = [];
    for (const slug of ['tokens:read', 'attendance:read', 'readers:manage', 'accounts:read']) {
      permissions.push(await created(admin.post('/api/v2/permission', { organization_id: a, title: `${slug} ${stamp}`, slug, description: '' })));
    }
    const role = await created(admin.post(`/api/v2/organization/${a}/role`, { title: `Lists ${stamp}`, slug: `lists-${stamp}`, description: '', permissions }));
    const administrator = await createAccount(admin, { organization: a });
    expect((await admin.post(`/api/v2/organization/${a}/account-role`, { account_id: administrator.id, role_id: role })).status).toBe(200);
    scoped = http(app.url, await signIn(app.url, { username: administrator.username, password: administrator.password }));
    inside = (await createAccount(admin, { organization: a })).id;
    outside = (await createAccount(admin, { organization: b })).id;
  }, 60_000);
  afterAll(async () => {
    await app?.destroy();
  });

  const month = new Date().toISOString().slice(0, 7);
  const rest = (id: string) => [`account/${id}/bearer-tokens?page=1&limit=10`, `account/${id}/calendar?date=${month}`, `account/${id}/smartcards?page=1&limit=10`];
  const trpc = (id: string): Array<[string, unknown]> => [
    ['tokens.list', { account_id: id, page: 1, limit: 10 }],
    ['calendar.events', { account_id: id, from: `${month}-01`, to: `${month}-28` }],
    ['smartCards.ofAccount', { account_id: id, page: 1, limit: 10 }],
  ];
  const trpcGet = (client: Client, procedure: string, input: unknown) => client.get(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`);

  it('answers 404 account.not_found on REST v1, v2 and /api, as GET account/{id}/auth does', async () => {
    const unknown = randomUUID();
    const sibling = await admin.get(`/api/v1/account/${unknown}/auth`);
    expect(sibling.status).toBe(404);
    for (const prefix of ['/api/v1/', '/api/v2/', '/api/']) {
      for (const path of rest(unknown)) {
        const answer = await admin.get(prefix + path);
        expect(answer.status, `${prefix}${path}: ${JSON.stringify(answer.body)}`).toBe(404);
        expect(answer.body).toEqual(sibling.body);
      }
      // a known account still lists (empty)
      for (const path of rest(inside)) expect((await admin.get(prefix + path)).status, prefix + path).toBe(200);
    }
  });

  it('answers 404 account.not_found on tRPC', async () => {
    const unknown = randomUUID();
    for (const [procedure, input] of trpc(unknown)) {
      const answer = await trpcGet(admin, procedure, input);
      expect(answer.status, `${procedure}: ${JSON.stringify(answer.body)}`).toBe(404);
      expect(answer.body.error.data.apiError).toMatchObject({ code: 'account.not_found' });
    }
    for (const [procedure, input] of trpc(inside)) expect((await trpcGet(admin, procedure, input)).status, procedure).toBe(200);
  });

  it("answers an account outside an organization administrator's reach exactly like an unknown one", async () => {
    const unknown = randomUUID();
    for (const prefix of ['/api/v1/', '/api/v2/']) {
      const [outsidePaths, unknownPaths, insidePaths] = [rest(outside), rest(unknown), rest(inside)];
      for (let i = 0; i < outsidePaths.length; i += 1) {
        const [away, missing] = [await scoped.get(prefix + outsidePaths[i]), await scoped.get(prefix + unknownPaths[i])];
        expect(missing.status, prefix + unknownPaths[i]).toBe(404);
        expect([away.status, away.body]).toEqual([missing.status, missing.body]);
        expect((await scoped.get(prefix + insidePaths[i])).status, prefix + insidePaths[i]).toBe(200);
      }
    }
    const [outsideCalls, unknownCalls] = [trpc(outside), trpc(unknown)];
    for (let i = 0; i < outsideCalls.length; i += 1) {
      const [away, missing] = [await trpcGet(scoped, ...outsideCalls[i]), await trpcGet(scoped, ...unknownCalls[i])];
      expect(missing.status, outsideCalls[i][0]).toBe(404);
      expect([away.status, away.body.error.data.apiError]).toEqual([missing.status, missing.body.error.data.apiError]);
    }
  });
});
