import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, firstOrganization, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * Who may administer (docs/adr/0011, first step): the holders of the protected administrator role of
 * the protected first organization. Any other signed-in account may use only its own session's
 * routes; a role granted or taken back counts on the very next call.
 */
describe.each(storageKinds())('administrators (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('refuses every administration route to an account without the administrator role, on v1, v2 and tRPC alike', async () => {
    const plain = await createAccount(admin);
    const session = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    for (const path of ['/api/v1/accounts', '/api/v2/accounts', '/api/accounts', '/api/v2/organizations', '/api/v2/policies', '/api/v2/tokens']) {
      const answer = await session.get(path);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code, path).toBe('auth.forbidden');
    }
    expect((await session.post('/api/v2/account', { first_name: 'No', last_name: 'Way', email: 'no.way@example.com', username: 'noway', password: 'not allowed at all 2026' })).status).toBe(403);
    const trpc = await session.get('/trpc/accounts.list?input=%7B%7D');
    expect(trpc.status).toBe(403);
    // its own account stays reachable
    const me = await session.get('/api/v2/account/current');
    expect(me.status).toBe(200);
    expect(me.body.data.username_readable).toBe(plain.username);
  });

  it('lets an account administer from the call after it is given the administrator role, and not after it loses it', async () => {
    const { organizationId, roleId } = await firstOrganization(admin);
    const deputy = await createAccount(admin);
    const session = http(app.url, await signIn(app.url, { username: deputy.username, password: deputy.password }));
    expect((await session.get('/api/v2/accounts')).status).toBe(403);

    expect((await admin.post(`/api/v2/account/${deputy.id}/associate/organization`, { organization_id: organizationId })).status).toBe(201);
    expect((await session.get('/api/v2/accounts')).status).toBe(403);
    expect((await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: deputy.id, role_id: roleId })).status).toBe(200);
    expect((await session.get('/api/v2/accounts')).status).toBe(200);

    expect((await admin.raw('DELETE', `/api/v2/organization/${organizationId}/account-role?account_id=${deputy.id}&role_id=${roleId}`)).status).toBe(200);
    expect((await session.get('/api/v2/accounts')).status).toBe(403);
  });

  it('counts only the protected role of the protected first organization, not a role of the same slug elsewhere', async () => {
    const other = (await admin.post('/api/v2/organization', { title: `Elsewhere ${Date.now()}` })).body.data as { id: string };
    const role = (await admin.post(`/api/v2/organization/${other.id}/role`, { title: 'Administrator', slug: 'administrator', description: '', permissions: [] })).body.data as { id: string };
    const pretender = await createAccount(admin, { organization: other.id });
    expect((await admin.post(`/api/v2/organization/${other.id}/account-role`, { account_id: pretender.id, role_id: role.id })).status).toBe(200);
    const session = http(app.url, await signIn(app.url, { username: pretender.username, password: pretender.password }));
    expect((await session.get('/api/v2/accounts')).status).toBe(403);
  });
});
