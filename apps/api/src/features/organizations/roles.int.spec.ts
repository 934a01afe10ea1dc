import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { READ_DB } from '../../platform/tokens';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import type { AppRouter } from '../../root-router';

const PREFIXES = [
  ['/api/v1', (body: { data?: unknown }) => body],
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

type Permission = { id: string; title: string; slug: string; value: string; description: string; num_uses: number; created_at: string; protected: boolean };
type Role = { id: string; title: string; slug: string; organization_id: string; num_associations: number; permissions: Array<{ id: string }>; protected: boolean; associated?: 0 | 1 };
type Client = ReturnType<typeof http>;

let counter = 0;
const uniqueTitle = (base: string) => `${base} ${Date.now().toString(36)}${(counter += 1)}`;
const MISSING = '018f0000-0000-7000-8000-000000000000';

describe.each(storageKinds())('organization roles and permissions over REST and tRPC (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const call = async (method: string, path: string, body?: unknown, expected = 200) => {
    const response = await admin.raw(method, path, body);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
    return response.body;
  };
  const organization = async () => (await call('POST', '/api/v1/organization', { title: uniqueTitle('Roles org'), description: '' }, 201)).id as string;
  const permission = async (organizationId: string, slug: string) => (await call('POST', '/api/v1/permission', { organization_id: organizationId, title: `Title ${slug}`, slug, description: 'd' }, 201)) as Permission;
  const role = async (organizationId: string, slug: string, permissions: string[] = []) =>
    (await call('POST', `/api/v1/organization/${organizationId}/role`, { organization_id: organizationId, title: `Role ${slug}`, slug, description: '', permissions }, 201)) as Role;
  const permissionsOf = async (organizationId: string) => (await call('GET', `/api/v1/organization/${organizationId}/permissions`)) as Permission[];
  const rolesOf = async (organizationId: string) => (await call('GET', `/api/v1/organization/${organizationId}/roles`)) as Role[];
  /** link rows left behind by what they link (the lists join them away, so only the tables tell) */
  const strayLinks = async (column: 'role_id' | 'account_id' | 'organization_id', id: string) => {
    const db = app.app.get<symbol, Kysely<ReadDatabase>>(READ_DB);
    const accountRoles = await db.selectFrom('account_roles_v1').selectAll().where(column, '=', id).execute();
    const rolePermissions = column === 'account_id' ? [] : await db.selectFrom('organization_role_permissions_v1').selectAll().where(column, '=', id).execute();
    return [...accountRoles, ...rolePermissions];
  };
  const refused = async (method: string, path: string, body: unknown, status: number, code: string, field?: string) => {
    const response = await admin.raw(method, path, body);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
    expect(response.body.error.code).toBe(code);
    if (field) expect(Object.keys(response.body.error.fields ?? {})).toContain(field);
  };

  it('gives the first administrator the protected administrator role of the first organization', async () => {
    const root = ((await admin.get('/api/v1/organizations?search=rollcall')).body.data as Array<{ id: string; title: string }>).find((o) => o.title === 'Rollcall')!;
    const [administrator] = await rolesOf(root.id);
    expect(administrator).toMatchObject({ slug: 'administrator', title: 'Administrator', protected: true, num_associations: 1, permissions: [] });
    await refused('DELETE', `/api/v1/role/${administrator.id}`, undefined, 403, 'role.protected');
    expect(await call('GET', `/api/v1/role/${administrator.id}/associated-accounts`)).toEqual([{ id: adminId, first_name: 'Rollcall', last_name: 'Administrator', username_readable: ADMIN.username }]);
    const members = (await call('GET', `/api/v1/organization/${root.id}/members/all`)) as Array<{ id: string; roles: unknown }>;
    expect(members.find((m) => m.id === adminId)?.roles).toEqual([{ id: administrator.id, slug: 'administrator' }]);
  });

  it('creates, renames, reslugs and deletes permissions on v1, v2 and unprefixed', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const organizationId = await organization();
      const created = await admin.post(`${prefix}/permission`, { organization_id: organizationId, title: ' Read invoices ', slug: 'invoices:read', description: 'Shown on consent' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const made = unwrap(created.body) as Permission;
      expect(made).toEqual({ id: expect.any(String), title: 'Read invoices', slug: 'invoices:read', value: 'Read invoices', description: 'Shown on consent', num_uses: 0, created_at: expect.any(String), protected: false });
      expect(unwrap((await admin.get(`${prefix}/organization/${organizationId}/permissions`)).body)).toEqual([made]);

      const renamed = unwrap(await call('PATCH', `${prefix}/permission/${made.id}/title`, { title: 'Read all invoices' }));
      expect(renamed).toMatchObject({ id: made.id, title: 'Read all invoices', value: 'Read all invoices', slug: 'invoices:read' });
      const reslugged = unwrap(await call('PATCH', `${prefix}/permission/${made.id}/slug`, { slug: 'invoices.all:read' }));
      expect(reslugged).toMatchObject({ id: made.id, slug: 'invoices.all:read' });
      expect(unwrap(await call('DELETE', `${prefix}/permission/${made.id}`))).toEqual({ message: 'Permission deleted' });
      expect(await permissionsOf(organizationId)).toEqual([]);
      await refused('DELETE', `${prefix}/permission/${made.id}`, undefined, 404, 'permission.not_found');
    }
  });

  it('creates, renames (PATCH and POST), reslugs and deletes roles on v1, v2 and unprefixed', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const organizationId = await organization();
      const read = await permission(organizationId, 'invoices:read');
      const created = await admin.post(`${prefix}/organization/${organizationId}/role`, { organization_id: organizationId, title: 'Accountant', slug: 'accountant', description: 'Books', permissions: [{ id: read.id }] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const made = unwrap(created.body) as Role;
      expect(made).toEqual({ id: expect.any(String), title: 'Accountant', slug: 'accountant', description: 'Books', organization_id: organizationId, num_associations: 0, permissions: [{ id: read.id }], created_at: expect.any(String), protected: false });
      expect(unwrap((await admin.get(`${prefix}/organization/${organizationId}/roles`)).body)).toEqual([made]);
      expect((await permissionsOf(organizationId))[0].num_uses).toBe(1);

      expect(unwrap(await call('PATCH', `${prefix}/role/${made.id}/title`, { title: 'Chief accountant' }))).toMatchObject({ id: made.id, title: 'Chief accountant' });
      expect(unwrap(await call('POST', `${prefix}/role/${made.id}/title`, { title: 'Accountant again' }))).toMatchObject({ title: 'Accountant again' });
      expect(unwrap(await call('PATCH', `${prefix}/role/${made.id}/slug`, { slug: 'chief-accountant' }))).toMatchObject({ slug: 'chief-accountant' });
      expect(unwrap(await call('POST', `${prefix}/role/${made.id}/slug`, { slug: 'accountant_2' }))).toMatchObject({ slug: 'accountant_2' });
      expect(unwrap(await call('DELETE', `${prefix}/role/${made.id}`))).toEqual({ message: 'Role deleted successfully' });
      expect(await rolesOf(organizationId)).toEqual([]);
      expect((await permissionsOf(organizationId))[0].num_uses).toBe(0);
    }
  });

  it('checks slugs and titles, unique within an organization only, with field errors and nothing written', async () => {
    const a = await organization();
    const b = await organization();
    const first = await permission(a, 'reports:read');
    await permission(b, 'reports:read'); // the same slug in another organization is fine
    await refused('POST', '/api/v1/permission', { organization_id: a, title: 'Again', slug: 'reports:read', description: '' }, 409, 'permission.slug_taken', 'slug');
    await refused('POST', '/api/v1/permission', { organization_id: a, title: 'Bad', slug: 'Reports Read', description: '' }, 400, 'access.slug_invalid', 'slug');
    await refused('POST', '/api/v1/permission', { organization_id: a, title: '   ', slug: 'ok', description: '' }, 400, 'request.invalid', 'title');
    await refused('POST', '/api/v1/permission', { organization_id: a, title: 'Long', slug: 'x'.repeat(256), description: '' }, 400, 'request.invalid', 'slug');
    await refused('POST', '/api/v1/permission', { organization_id: MISSING, title: 'Nowhere', slug: 'x', description: '' }, 404, 'organization.not_found');
    const second = await permission(a, 'reports:write');
    await refused('PATCH', `/api/v1/permission/${second.id}/slug`, { slug: 'reports:read' }, 409, 'permission.slug_taken', 'slug');
    await refused('PATCH', `/api/v1/permission/${second.id}/slug`, { slug: '-bad' }, 400, 'access.slug_invalid', 'slug');
    await refused('PATCH', `/api/v1/permission/${second.id}/title`, { title: 'x'.repeat(256) }, 400, 'request.invalid', 'title');
    expect((await permissionsOf(a)).map((p) => p.slug)).toEqual([first.slug, 'reports:write']);

    const editor = await role(a, 'editor');
    await role(b, 'editor');
    await refused('POST', `/api/v1/organization/${a}/role`, { title: 'Editor 2', slug: 'editor', permissions: [] }, 409, 'role.slug_taken', 'slug');
    await refused('POST', `/api/v2/role/${editor.id}/slug`, { slug: 'Editor!' }, 400, 'access.slug_invalid', 'slug');
    await refused('POST', `/api/v1/organization/${a}/role`, { title: 'Foreign', slug: 'foreign', permissions: [(await permissionsOf(b))[0].id] }, 404, 'permission.not_found', 'permissions');
    await refused('POST', `/api/v1/organization/${a}/role`, { organization_id: b, title: 'Mismatch', slug: 'mismatch', permissions: [] }, 400, 'request.invalid', 'organization_id');
    await refused('POST', `/api/v1/organization/${a}/role`, { title: 'Bad ids', slug: 'bad-ids', permissions: ['nope'] }, 400, 'request.invalid');
    expect((await rolesOf(a)).map((r) => r.slug)).toEqual(['editor']);
  });

  it('answers 404 for unknown ids and 400 for malformed ones, never 500', async () => {
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/role/${MISSING}/title`, { title: 'x' }],
      ['DELETE', `/api/v1/role/${MISSING}`, undefined],
      ['GET', `/api/v1/role/${MISSING}/associated-accounts`, undefined],
      ['POST', `/api/v1/role/${MISSING}/permission`, { permission_id: MISSING }],
      ['POST', `/api/v1/account/${adminId}/toggle-role`, { role_id: MISSING }],
    ] as const) {
      await refused(method, path, body, 404, 'role.not_found');
    }
    await refused('PATCH', `/api/v1/permission/${MISSING}/slug`, { slug: 'x' }, 404, 'permission.not_found');
    await refused('GET', `/api/v1/permission/${MISSING}/associated-accounts`, undefined, 404, 'permission.not_found');
    await refused('GET', `/api/v1/organization/${MISSING}/permissions`, undefined, 404, 'organization.not_found');
    await refused('GET', `/api/v1/organization/${MISSING}/roles`, undefined, 404, 'organization.not_found');
    await refused('DELETE', '/api/v1/role/not-a-uuid', undefined, 400, 'request.invalid');
    await refused('DELETE', '/api/v1/permission/not-a-uuid', undefined, 400, 'request.invalid');
    const organizationId = await organization();
    const editor = await role(organizationId, 'editor');
    await refused('POST', `/api/v1/role/${editor.id}/permission`, { permission_id: MISSING }, 404, 'permission.not_found');
    await refused('DELETE', `/api/v1/role/${editor.id}/permission?permission_id=${MISSING}`, undefined, 404, 'permission.not_found');
    await refused('DELETE', `/api/v1/role/${editor.id}/permission`, undefined, 400, 'request.invalid', 'permission_id');
  });

  it('switches permissions on and off for a role, idempotently, and a deleted permission leaves every role', async () => {
    const organizationId = await organization();
    const read = await permission(organizationId, 'docs:read');
    const write = await permission(organizationId, 'docs:write');
    const [editor, viewer] = [await role(organizationId, 'editor'), await role(organizationId, 'viewer', [read.id])];
    for (const [prefix, unwrap] of PREFIXES) {
      expect(unwrap(await call('POST', `${prefix}/role/${editor.id}/permission`, { permission_id: write.id }))).toEqual({ message: 'Permission docs:write enabled for the role' });
      expect(unwrap(await call('POST', `${prefix}/role/${editor.id}/permission`, { permission_id: write.id }))).toEqual({ message: 'Permission docs:write enabled for the role' });
      expect((await rolesOf(organizationId)).find((r) => r.id === editor.id)?.permissions).toEqual([{ id: write.id }]);
      expect(unwrap(await call('DELETE', `${prefix}/role/${editor.id}/permission?permission_id=${write.id}`))).toEqual({ message: 'Permission docs:write disabled for the role' });
      expect(unwrap(await call('DELETE', `${prefix}/role/${editor.id}/permission?permission_id=${write.id}`))).toEqual({ message: 'Permission docs:write disabled for the role' });
      expect((await rolesOf(organizationId)).find((r) => r.id === editor.id)?.permissions).toEqual([]);
    }
    await call('POST', `/api/v1/role/${editor.id}/permission`, { permission_id: read.id });
    expect((await permissionsOf(organizationId)).map((p) => [p.slug, p.num_uses])).toEqual([
      ['docs:read', 2],
      ['docs:write', 0],
    ]);
    await call('DELETE', `/api/v1/permission/${read.id}`);
    const roles = await rolesOf(organizationId);
    expect(roles.map((r) => [r.id, r.permissions])).toEqual([
      [editor.id, []],
      [viewer.id, []],
    ]);
    // a permission of another organization is not this role's to hold
    const other = await permission(await organization(), 'docs:read');
    await refused('POST', `/api/v1/role/${editor.id}/permission`, { permission_id: other.id }, 404, 'permission.not_found');
  });

  it('gives and takes member roles from both sides, shows them everywhere, and a deleted role leaves every account', async () => {
    const organizationId = await organization();
    const [editor, viewer] = [await role(organizationId, 'editor'), await role(organizationId, 'viewer')];
    const ada = await createAccount(admin, { organization: organizationId });
    const bob = await createAccount(admin, { organization: organizationId });
    const outsider = await createAccount(admin);

    for (const [prefix, unwrap] of PREFIXES) {
      expect(unwrap(await call('POST', `${prefix}/organization/${organizationId}/account-role`, { account_id: ada.id, role_id: editor.id }))).toEqual({ message: 'Role added to account' });
      expect(unwrap(await call('POST', `${prefix}/organization/${organizationId}/account-role`, { account_id: ada.id, role_id: editor.id }))).toEqual({ message: 'Role added to account' });
      const flags = unwrap(await call('GET', `${prefix}/organization/${organizationId}/member/${ada.id}/roles`)) as Role[];
      expect(flags.map((r) => [r.slug, r.associated])).toEqual([
        ['editor', 1],
        ['viewer', 0],
      ]);
      expect(unwrap(await call('DELETE', `${prefix}/organization/${organizationId}/account-role?account_id=${ada.id}&role_id=${editor.id}`))).toEqual({ message: 'Role removed from account' });
      expect(unwrap(await call('POST', `${prefix}/account/${ada.id}/toggle-role`, { role_id: viewer.id }))).toEqual({ message: 'Role added to account' });
      expect(unwrap(await call('DELETE', `${prefix}/account/${ada.id}/toggle-role?role_id=${viewer.id}`))).toEqual({ message: 'Role removed from account' });
      expect(unwrap(await call('DELETE', `${prefix}/account/${ada.id}/toggle-role?role_id=${viewer.id}`))).toEqual({ message: 'Role removed from account' });
    }

    await call('POST', `/api/v1/account/${ada.id}/toggle-role`, { role_id: editor.id });
    await call('POST', `/api/v1/account/${ada.id}/toggle-role`, { role_id: viewer.id });
    await call('POST', `/api/v1/account/${bob.id}/toggle-role`, { role_id: editor.id });
    const members = (await call('GET', `/api/v1/organization/${organizationId}/members/all`)) as Array<{ id: string; roles: unknown }>;
    expect(members.find((m) => m.id === ada.id)?.roles).toEqual([
      { id: editor.id, slug: 'editor' },
      { id: viewer.id, slug: 'viewer' },
    ]);
    const ofAda = (await call('GET', `/api/v1/account/${ada.id}/organizations-and-roles`)).data as Array<{ id: string; roles: unknown }>;
    expect(ofAda.find((o) => o.id === organizationId)?.roles).toEqual([
      { id: editor.id, slug: 'editor', title: 'Role editor', associated: 1 },
      { id: viewer.id, slug: 'viewer', title: 'Role viewer', associated: 1 },
    ]);
    const ofBob = (await call('GET', `/api/v2/account/${bob.id}/organizations`)).data.data as Array<{ id: string; roles: Array<{ associated: number }> }>;
    expect(ofBob[0].roles.map((r) => r.associated)).toEqual([1, 0]);
    expect((await rolesOf(organizationId)).map((r) => [r.slug, r.num_associations])).toEqual([
      ['editor', 2],
      ['viewer', 1],
    ]);
    expect(((await call('GET', `/api/v1/role/${editor.id}/associated-accounts`)) as Array<{ id: string }>).map((a) => a.id).sort()).toEqual([ada.id, bob.id].sort());
    // a permission's accounts: through any role that carries it, each account once
    const publish = await permission(organizationId, 'docs:publish');
    for (const holder of [editor, viewer]) expect((await call('POST', `/api/v1/role/${holder.id}/permission`, { permission_id: publish.id })).message).toBeDefined();
    const holders = [ada, bob].sort((x, y) => x.last_name.localeCompare(y.last_name)).map((a) => ({ id: a.id, first_name: a.first_name, last_name: a.last_name, username_readable: a.username }));
    expect(await call('GET', `/api/v1/permission/${publish.id}/associated-accounts`)).toEqual(holders);
    expect((await call('GET', `/api/v2/permission/${publish.id}/associated-accounts`)).data).toEqual(holders);
    const unused = await permission(organizationId, 'docs:archive');
    expect(await call('GET', `/api/v1/permission/${unused.id}/associated-accounts`)).toEqual([]);

    // only members hold roles, and only roles of that organization
    await refused('POST', `/api/v1/organization/${organizationId}/account-role`, { account_id: outsider.id, role_id: editor.id }, 404, 'membership.not_found');
    await refused('GET', `/api/v1/organization/${organizationId}/member/${outsider.id}/roles`, undefined, 404, 'membership.not_found');
    const foreign = await role(await organization(), 'foreign');
    await refused('POST', `/api/v1/organization/${organizationId}/account-role`, { account_id: ada.id, role_id: foreign.id }, 404, 'role.not_found');
    await refused('POST', `/api/v1/organization/${organizationId}/account-role`, { account_id: MISSING, role_id: editor.id }, 404, 'account.not_found');

    // a deleted role leaves every account
    await call('DELETE', `/api/v1/role/${editor.id}`);
    expect((await call('GET', `/api/v1/organization/${organizationId}/member/${ada.id}/roles`)).map((r: Role) => [r.slug, r.associated])).toEqual([['viewer', 1]]);
    const after = (await call('GET', `/api/v1/organization/${organizationId}/members/all`)) as Array<{ id: string; roles: unknown }>;
    expect(after.find((m) => m.id === bob.id)?.roles).toEqual([]);
    await refused('GET', `/api/v1/role/${editor.id}/associated-accounts`, undefined, 404, 'role.not_found');
    expect(await strayLinks('role_id', editor.id)).toEqual([]);
  });

  it('ends the roles of an account that leaves the organization, and of a deleted account or organization', async () => {
    const organizationId = await organization();
    const editor = await role(organizationId, 'editor');
    const ada = await createAccount(admin, { organization: organizationId });
    const bob = await createAccount(admin, { organization: organizationId });
    await call('POST', `/api/v1/account/${ada.id}/toggle-role`, { role_id: editor.id });
    await call('POST', `/api/v1/account/${bob.id}/toggle-role`, { role_id: editor.id });
    await call('DELETE', `/api/v1/account/${ada.id}/leave-organization/${organizationId}`);
    expect(((await call('GET', `/api/v1/role/${editor.id}/associated-accounts`)) as Array<{ id: string }>).map((a) => a.id)).toEqual([bob.id]);
    // back as a member, the role does not come back with it
    await call('POST', `/api/v1/account/${ada.id}/associate/organization`, { organization_id: organizationId }, 201);
    expect((await call('GET', `/api/v1/organization/${organizationId}/member/${ada.id}/roles`)).map((r: Role) => r.associated)).toEqual([0]);

    await call('DELETE', `/api/v1/account/${bob.id}`);
    expect((await rolesOf(organizationId))[0].num_associations).toBe(0);
    expect(await strayLinks('account_id', bob.id)).toEqual([]);

    await call('POST', `/api/v1/account/${ada.id}/toggle-role`, { role_id: editor.id });
    await call('DELETE', `/api/v1/organization/${organizationId}`);
    await refused('GET', `/api/v1/role/${editor.id}/associated-accounts`, undefined, 404, 'role.not_found');
    await refused('POST', `/api/v1/organization/${organizationId}/role`, { title: 'Late', slug: 'late', permissions: [] }, 404, 'organization.not_found');
    expect(await strayLinks('organization_id', organizationId)).toEqual([]);
  });

  it('refuses to delete protected permissions and roles', async () => {
    // the bootstrap's role is protected; a protected permission is made the same way (the bootstrap path), checked in the domain tests
    const root = ((await admin.get('/api/v1/organizations?search=rollcall')).body.data as Array<{ id: string; title: string }>).find((o) => o.title === 'Rollcall')!;
    const [administrator] = await rolesOf(root.id);
    for (const [prefix] of PREFIXES) await refused('DELETE', `${prefix}/role/${administrator.id}`, undefined, 403, 'role.protected');
    // renaming a protected role is allowed; its slug stays what authorization maps
    expect(await call('PATCH', `/api/v1/role/${administrator.id}/title`, { title: 'Administrators' })).toMatchObject({ title: 'Administrators', protected: true });
  });

  it('refuses writes to an access token without organizations:write, and reads with organizations:read', async () => {
    const organizationId = await organization();
    const read = await permission(organizationId, 'docs:read');
    const editor = await role(organizationId, 'editor');
    const member = await createAccount(admin, { organization: organizationId });
    const issued = await admin.post('/api/v1/token', { title: 'Roles reader', forever: true, permissions: ['organizations:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    expect((await reader.get(`/api/v1/organization/${organizationId}/roles`)).status).toBe(200);
    expect((await reader.get(`/api/v2/organization/${organizationId}/permissions`)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/permission', { organization_id: organizationId, title: 'x', slug: 'x', description: '' }],
      ['PATCH', `/api/v1/permission/${read.id}/title`, { title: 'x' }],
      ['DELETE', `/api/v2/permission/${read.id}`, undefined],
      ['POST', `/api/v1/organization/${organizationId}/role`, { title: 'x', slug: 'x', permissions: [] }],
      ['POST', `/api/v2/role/${editor.id}/slug`, { slug: 'x' }],
      ['DELETE', `/api/v1/role/${editor.id}`, undefined],
      ['POST', `/api/v1/role/${editor.id}/permission`, { permission_id: read.id }],
      ['POST', `/api/v1/organization/${organizationId}/account-role`, { account_id: member.id, role_id: editor.id }],
      ['POST', `/api/v1/account/${member.id}/toggle-role`, { role_id: editor.id }],
    ];
    for (const [method, path, body] of writes) {
      const response = await reader.raw(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const tokenTrpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${issued.body.token}` }) })] });
    expect((await tokenTrpc.organizations.roles.query({ id: organizationId })).map((r) => r.slug)).toEqual(['editor']);
    const denied = (await tokenTrpc.organizations.deleteRole.mutate({ id: editor.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(denied).toBeInstanceOf(TRPCClientError);
    expect(denied.data?.httpStatus).toBe(403);
    expect((await rolesOf(organizationId)).map((r) => r.slug)).toEqual(['editor']);
    expect((await permissionsOf(organizationId)).map((p) => p.title)).toEqual(['Title docs:read']);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const organizationId = await organization();
    const made = await client.organizations.createPermission.mutate({ organization_id: organizationId, title: 'Read', slug: 'docs:read', description: 'consent text' });
    expect(made).toMatchObject({ title: 'Read', slug: 'docs:read', value: 'Read', num_uses: 0, protected: false });
    expect(await client.organizations.renamePermission.mutate({ id: made.id, title: 'Read docs' })).toMatchObject({ id: made.id, title: 'Read docs' });
    expect(await client.organizations.reslugPermission.mutate({ id: made.id, slug: 'documents:read' })).toMatchObject({ slug: 'documents:read' });
    expect((await client.organizations.permissions.query({ id: organizationId })).map((p) => p.slug)).toEqual(['documents:read']);

    const editor = await client.organizations.createRole.mutate({ organization_id: organizationId, title: 'Editor', slug: 'editor', description: '', permissions: [made.id] });
    expect(editor).toMatchObject({ organization_id: organizationId, permissions: [{ id: made.id }], num_associations: 0 });
    expect(await client.organizations.renameRole.mutate({ id: editor.id, title: 'Chief editor' })).toMatchObject({ title: 'Chief editor' });
    expect(await client.organizations.reslugRole.mutate({ id: editor.id, slug: 'chief-editor' })).toMatchObject({ slug: 'chief-editor' });
    expect(await client.organizations.setRolePermission.mutate({ role_id: editor.id, permission_id: made.id, enabled: false })).toEqual({ message: 'Permission documents:read disabled for the role' });
    expect(await client.organizations.setRolePermission.mutate({ role_id: editor.id, permission_id: made.id, enabled: true })).toEqual({ message: 'Permission documents:read enabled for the role' });

    const member = await createAccount(admin, { organization: organizationId });
    expect(await client.organizations.setMemberRole.mutate({ id: organizationId, account_id: member.id, role_id: editor.id, associated: true })).toEqual({ message: 'Role added to account' });
    expect((await client.organizations.memberRoles.query({ id: organizationId, account_id: member.id })).map((r) => r.associated)).toEqual([1]);
    expect(await client.organizations.roleAccounts.query({ role_id: editor.id })).toEqual([{ id: member.id, first_name: member.first_name, last_name: member.last_name, username_readable: member.username }]);
    expect(await client.organizations.permissionAccounts.query({ permission_id: made.id })).toEqual([{ id: member.id, first_name: member.first_name, last_name: member.last_name, username_readable: member.username }]);
    expect((await client.organizations.members.query({ id: organizationId, page: 1, limit: 10 })).data[0].roles).toEqual([{ id: editor.id, slug: 'chief-editor' }]);
    expect((await client.organizations.ofAccount.query({ account_id: member.id, page: 1, limit: 10 })).data[0].roles).toEqual([{ id: editor.id, slug: 'chief-editor', title: 'Chief editor', associated: 1 }]);
    expect(await client.organizations.setMemberRole.mutate({ id: organizationId, account_id: member.id, role_id: editor.id, associated: false })).toEqual({ message: 'Role removed from account' });
    expect((await client.organizations.roles.query({ id: organizationId }))[0].num_associations).toBe(0);

    const taken = (await client.organizations.createRole.mutate({ organization_id: organizationId, title: 'Again', slug: 'chief-editor', description: '', permissions: [] }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(taken.data?.httpStatus).toBe(409);
    expect(taken.data?.apiError).toMatchObject({ code: 'role.slug_taken', fields: { slug: [expect.any(String)] } });

    expect(await client.organizations.deleteRole.mutate({ id: editor.id })).toEqual({ message: 'Role deleted successfully' });
    expect(await client.organizations.deletePermission.mutate({ id: made.id })).toEqual({ message: 'Permission deleted' });
    expect(await client.organizations.roles.query({ id: organizationId })).toEqual([]);
  });
});
