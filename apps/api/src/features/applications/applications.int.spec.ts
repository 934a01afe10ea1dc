import { createHash } from 'node:crypto';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { AppRouter } from '../../root-router';

const PREFIXES = ['/api/v2', '/api'] as const;

type Permission = { id: string; slug: string; description: string; created_at: string };
type Role = { id: string; title: string; slug: string; description: string; created_at: string; permissions: Array<{ id: string; relation_id: string }>; num_associations: number };
type App = {
  id: string;
  title: string;
  url: string | null;
  description: string;
  unique_id: string;
  created_at: string;
  updated_at: string;
  scopes: Array<{ scope: string; description: string }>;
  client: { client_id: string; client_type: string; redirect_uris: string[]; post_logout_redirect_uris: string[]; grant_types: string[]; require_pkce: boolean; secret_issued_at: string | null };
};
type Details = { app: App; roles: Role[]; permissions: Permission[]; client_secret?: { client_id: string; client_secret: string; issued_at: string } | null };
type Client = ReturnType<typeof http>;
type ErrorAnswer = { status: number; body: { error: { code: string; message: string; fields?: Record<string, string[]> } } };

let counter = 0;
const unique = (base: string) => `${base} ${Date.now().toString(36)}${(counter += 1)}`;

describe.each(storageKinds())('applications over REST v2 and tRPC (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const streamOf = (applicationId: string) => app.app.get<EventStore>(EVENT_STORE).readStream(`application-${applicationId}`);
  const patch = (path: string, body: unknown) => admin.raw('PATCH', path, body);
  const put = (path: string, body: unknown) => admin.raw('PUT', path, body);
  const del = (path: string) => admin.raw('DELETE', path);
  const createApp = async (body: Record<string, unknown> = {}, prefix = '/api/v2') => {
    const created = await admin.post(`${prefix}/application`, { title: unique('CRM'), ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data as Details;
  };
  const details = async (id: string) => {
    const read = await admin.get(`/api/v2/application/${id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    return read.body.data as Details;
  };
  const addPermission = async (appId: string, slug: string, description = '') => {
    const added = await admin.post(`/api/v2/application/${appId}/permission`, { permission: { slug, description } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return added.body.data as Permission;
  };
  const expectError = (response: ErrorAnswer, status: number, code: string, field?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error.code).toBe(code);
    if (field) expect(Object.keys(response.body.error.fields ?? {})).toContain(field);
  };

  it('creates, reads, lists, updates and deletes an application on v2 and unprefixed; a confidential secret is shown once and kept as its hash', async () => {
    for (const prefix of PREFIXES) {
      const title = unique(`Wiki ${prefix}`);
      const created = await admin.post(`${prefix}/application`, {
        title: `  ${title} `,
        url: 'https://wiki.example.com',
        description: 'Team wiki',
        scopes: [{ scope: 'wiki.read', description: 'Read your pages' }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const answer = created.body.data as Details;
      expect(answer.app).toEqual({
        id: expect.any(String),
        title,
        url: 'https://wiki.example.com',
        description: 'Team wiki',
        unique_id: answer.app.id,
        created_at: expect.any(String),
        updated_at: answer.app.created_at,
        scopes: [{ scope: 'wiki.read', description: 'Read your pages' }],
        client: {
          client_id: answer.app.id,
          client_type: 'confidential',
          token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'],
          redirect_uris: [],
          post_logout_redirect_uris: [],
          grant_types: [],
          require_pkce: true,
          secret_issued_at: expect.any(String),
        },
      });
      expect(answer.roles).toEqual([]);
      expect(answer.permissions).toEqual([]);
      // 256 random bits, base64url; shown here and never again
      expect(answer.client_secret).toEqual({ client_id: answer.app.id, client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), issued_at: answer.app.client.secret_issued_at });
      const secret = answer.client_secret!.client_secret;
      const read = (await admin.get(`${prefix}/application/${answer.app.id}`)).body.data as Details;
      expect(read).toEqual({ app: answer.app, roles: [], permissions: [] });
      expect(JSON.stringify(read)).not.toContain(secret);
      const stored = JSON.stringify(await streamOf(answer.app.id));
      expect(stored).not.toContain(secret);
      expect(stored).toContain(createHash('sha256').update(secret).digest('hex'));

      const updated = await patch(`${prefix}/application/${answer.app.id}/basic`, { title: `${title} 2`, url: '', description: 'Renamed' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.data.message).toBe('Basic app info updated');
      expect(updated.body.data.app).toMatchObject({ title: `${title} 2`, url: null, description: 'Renamed' });
      expect(updated.body.data.app.updated_at >= answer.app.updated_at).toBe(true);

      const listed = (await admin.get(`${prefix}/applications?search=${encodeURIComponent(`${title} 2`)}`)).body.data;
      expect(listed).toMatchObject({ total: 1, from: 1, to: 1, current_page: 1 });
      expect(listed.data).toEqual([
        {
          id: answer.app.id,
          title: `${title} 2`,
          url: null,
          description: 'Renamed',
          unique_id: answer.app.id,
          client_type: 'confidential',
          num_roles: 0,
          num_permissions: 0,
          created_at: answer.app.created_at,
          updated_at: expect.any(String),
        },
      ]);

      const removed = await del(`${prefix}/application/${answer.app.id}`);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body.data).toEqual({ message: `Application ${title} 2 deleted` });
      expectError(await admin.get(`${prefix}/application/${answer.app.id}`), 404, 'application.not_found');
      expectError(await del(`${prefix}/application/${answer.app.id}`), 404, 'application.not_found');
      expect((await admin.get(`${prefix}/applications?search=${encodeURIComponent(title)}`)).body.data.total).toBe(0);
    }
  });

  it('pages, sorts and searches the list on the server', async () => {
    const tag = unique('Paging');
    for (const letter of ['c', 'a', 'b']) await createApp({ title: `${tag} ${letter}` });
    await createApp({ title: unique('Unrelated') });
    const page = (await admin.get(`/api/v2/applications?search=${encodeURIComponent(tag.toUpperCase())}&sortBy=title&desc=false&limit=2&page=2`)).body.data;
    expect(page).toMatchObject({ total: 3, from: 3, to: 3, last_page: 2, current_page: 2, per_page: 2 });
    expect(page.data.map((row: { title: string }) => row.title)).toEqual([`${tag} c`]);
    const newest = (await admin.get(`/api/v2/applications?search=${encodeURIComponent(tag)}`)).body.data;
    expect(newest.data.map((row: { title: string }) => row.title)).toEqual([`${tag} b`, `${tag} a`, `${tag} c`]);
    // a LIKE wildcard is searched as text
    expect((await admin.get(`/api/v2/applications?search=${encodeURIComponent('%')}`)).body.data.total).toBe(0);
    expectError(await admin.get('/api/v2/applications?limit=1000'), 400, 'request.invalid', 'limit');
    expectError(await admin.get('/api/v2/applications?sortBy=secret'), 400, 'request.invalid', 'sortBy');
  });

  it('adds, saves and removes permissions; roles switch them on with a relation id and off by it', async () => {
    const { app: crm } = await createApp({ scopes: [{ scope: 'crm', description: 'Use the CRM' }] });
    const read = await addPermission(crm.id, 'contacts.read', 'Read your contacts');
    expect(read).toEqual({ id: expect.any(String), slug: 'contacts.read', description: 'Read your contacts', created_at: expect.any(String) });
    // a bare {slug, description} is taken too
    const bare = await admin.post(`/api/application/${crm.id}/permission`, { slug: 'contacts.write', description: 'Change your contacts' });
    expect(bare.status, JSON.stringify(bare.body)).toBe(201);
    const write = bare.body.data as Permission;

    const saved = await patch(`/api/v2/application/permission/${write.id}`, { slug: 'contacts.edit', description: 'Edit your contacts' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual({ message: 'Permission updated', permission: { ...write, slug: 'contacts.edit', description: 'Edit your contacts' } });

    const role = await admin.post(`/api/v2/application/${crm.id}/role`, { title: 'Sales', slug: 'sales', description: 'Sells', permissions: [{ id: read.id }] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const sales = role.body.data as Role;
    expect(sales).toEqual({ id: expect.any(String), title: 'Sales', slug: 'sales', description: 'Sells', created_at: expect.any(String), permissions: [{ id: read.id, relation_id: expect.any(String) }], num_associations: 0 });

    const on = await admin.post(`/api/v2/application/role/${sales.id}/add-permission/${write.id}`);
    expect(on.status, JSON.stringify(on.body)).toBe(201);
    const relationId = on.body.data.id as string;
    expect(on.body.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), role_id: sales.id, permission_id: write.id });
    // switching on what is on answers the same relation id and writes nothing
    const again = await admin.post(`/api/application/role/${sales.id}/add-permission/${write.id}`);
    expect(again.body.data.id).toBe(relationId);
    expect((await details(crm.id)).roles[0].permissions).toEqual([
      { id: read.id, relation_id: sales.permissions[0].relation_id },
      { id: write.id, relation_id: relationId },
    ]);

    const off = await del(`/api/v2/application/role/remove-permission/${relationId}`);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toEqual({ id: relationId });
    expect((await details(crm.id)).roles[0].permissions).toEqual([{ id: read.id, relation_id: sales.permissions[0].relation_id }]);
    expectError(await del(`/api/v2/application/role/remove-permission/${relationId}`), 404, 'application.relation_not_found');

    const renamed = await patch(`/api/v2/application/role/${sales.id}/title`, { title: 'Sales team' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data.title).toBe('Sales team');

    // removing a permission ends its relations
    expect((await del(`/api/v2/application/permission/${read.id}`)).body.data).toEqual({ message: 'Permission deleted' });
    const after = await details(crm.id);
    expect(after.permissions.map((permission) => permission.slug)).toEqual(['contacts.edit']);
    expect(after.roles[0].permissions).toEqual([]);
    expectError(await del(`/api/v2/application/permission/${read.id}`), 404, 'permission.not_found');

    const list = (await admin.get(`/api/v2/applications?search=${encodeURIComponent(crm.title)}`)).body.data.data;
    expect(list[0]).toMatchObject({ num_roles: 1, num_permissions: 1 });

    expect((await del(`/api/v2/application/role/${sales.id}`)).body.data).toEqual({ message: 'Role deleted successfully' });
    expect((await details(crm.id)).roles).toEqual([]);
    expectError(await del(`/api/v2/application/role/${sales.id}`), 404, 'role.not_found');
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = (await admin.get('/api/v2/applications?limit=1')).body.data.total as number;
    expectError(await admin.post('/api/v2/application', { title: '   ' }), 400, 'request.invalid', 'title');
    expectError(await admin.post('/api/v2/application', { title: 'x'.repeat(256) }), 400, 'request.invalid', 'title');
    expectError(await admin.post('/api/v2/application', { title: 'Bad URL', url: 'ftp://files.example.com' }), 400, 'application.url_invalid', 'url');
    const several = await admin.post('/api/v2/application', { title: 'Several', url: 'not a url', scopes: [{ scope: 'Has Space', description: '' }] });
    expectError(several, 400, 'application.url_invalid');
    expect(Object.keys(several.body.error.fields ?? {}).sort()).toEqual(['scopes', 'url']);
    expectError(await admin.post('/api/v2/application', { title: 'Twice', scopes: [{ scope: 'a', description: '' }, { scope: 'a', description: '' }] }), 400, 'application.scope_invalid', 'scopes');
    expectError(await admin.post('/api/v2/application', { title: 'Not a list', scopes: 'openid' }), 400, 'request.invalid', 'scopes');
    expectError(await admin.post('/api/v2/application', 'not json', { 'content-type': 'application/json' }), 400, 'request.malformed_json');
    expect((await admin.get('/api/v2/applications?limit=1')).body.data.total).toBe(before);

    const { app: crm } = await createApp({ scopes: [{ scope: 'crm', description: '' }] });
    await addPermission(crm.id, 'deals');
    expectError(await admin.post(`/api/v2/application/${crm.id}/permission`, { permission: { slug: 'deals', description: '' } }), 409, 'permission.slug_taken', 'slug');
    // one scope namespace: a declared scope may not repeat a permission slug, and the other way round (below)
    expectError(await put(`/api/v2/application/${crm.id}/scopes`, { scopes: [{ scope: 'crm', description: '' }, { scope: 'deals', description: '' }] }), 400, 'application.scope_invalid', 'scopes');
    const rescoped = await put(`/api/v2/application/${crm.id}/scopes`, { scopes: [{ scope: 'crm', description: 'Use the CRM' }, { scope: 'crm.admin', description: 'Run it' }] });
    expect(rescoped.status, JSON.stringify(rescoped.body)).toBe(200);
    expect(rescoped.body.data.app.scopes).toEqual([{ scope: 'crm', description: 'Use the CRM' }, { scope: 'crm.admin', description: 'Run it' }]);
    expectError(await admin.post(`/api/v2/application/${crm.id}/permission`, { permission: { slug: 'crm', description: '' } }), 409, 'permission.slug_taken', 'slug');
    expectError(await admin.post(`/api/v2/application/${crm.id}/permission`, { permission: { slug: 'openid', description: '' } }), 400, 'access.slug_invalid', 'slug');
    expectError(await admin.post(`/api/v2/application/${crm.id}/permission`, { permission: { slug: 'Upper Case', description: '' } }), 400, 'access.slug_invalid', 'slug');
    expectError(await admin.post(`/api/v2/application/${crm.id}/permission`, { permission: { description: 'no slug' } }), 400, 'request.invalid', 'slug');
    expectError(await admin.post('/api/v2/application/00000000-0000-4000-8000-000000000000/permission', { permission: { slug: 'x', description: '' } }), 404, 'application.not_found');
    expectError(await admin.post('/api/v2/application/not-a-uuid/permission', { permission: { slug: 'x', description: '' } }), 400, 'request.invalid', 'id');
    expectError(await patch('/api/v2/application/permission/00000000-0000-4000-8000-000000000000', { slug: 'x', description: '' }), 404, 'permission.not_found');

    await admin.post(`/api/v2/application/${crm.id}/role`, { title: 'Sales', slug: 'sales' });
    expectError(await admin.post(`/api/v2/application/${crm.id}/role`, { title: 'Sales 2', slug: 'sales' }), 409, 'role.slug_taken', 'slug');
    const other = await createApp();
    const foreign = await addPermission(other.app.id, 'foreign');
    expectError(await admin.post(`/api/v2/application/${crm.id}/role`, { title: 'Mixed', slug: 'mixed', permissions: [foreign.id] }), 404, 'permission.not_found', 'permissions');
    expectError(await admin.post(`/api/v2/application/${crm.id}/role`, { title: '', slug: 'empty' }), 400, 'request.invalid', 'title');
    const crmRole = (await details(crm.id)).roles[0];
    expectError(await admin.post(`/api/v2/application/role/${crmRole.id}/add-permission/${foreign.id}`), 404, 'permission.not_found');
    expectError(await del('/api/v2/application/role/remove-permission/not-a-uuid'), 400, 'request.invalid', 'id');
    const after = await details(crm.id);
    expect(after.roles.map((role) => role.slug)).toEqual(['sales']);
    expect(after.roles[0].permissions).toEqual([]);
    expect(after.permissions.map((permission) => permission.slug)).toEqual(['deals']);
  });

  it('checks redirect URIs, grant types and client types; rotates a secret and drops it for a public client', async () => {
    const created = await createApp({
      client_type: 'public',
      redirect_uris: ['https://spa.example.com/callback', ' https://spa.example.com/callback ', 'http://localhost:5173/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(created.client_secret).toBeNull();
    expect(created.app.client).toMatchObject({
      client_type: 'public',
      token_endpoint_auth_methods: ['none'],
      redirect_uris: ['https://spa.example.com/callback', 'http://localhost:5173/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      require_pkce: true,
      secret_issued_at: null,
    });
    const id = created.app.id;
    const client = (body: Record<string, unknown>) => put(`/api/v2/application/${id}/client`, { client_type: 'public', redirect_uris: ['https://spa.example.com/callback'], grant_types: ['authorization_code'], ...body });
    for (const [uri, fragment] of [
      ['https://spa.example.com/cb#x', 'fragment'],
      ['https://*.example.com/cb', 'wildcard'],
      ['http://spa.example.com/cb', 'http'],
      ['/relative/cb', 'absolute'],
      ['https://user:pw@spa.example.com/cb', 'user name'],
      ['com.example.app:/cb', 'absolute'],
    ]) {
      const refused = await client({ redirect_uris: [uri] });
      expectError(refused, 400, 'application.redirect_uri_invalid', 'redirect_uris');
      expect(refused.body.error.fields?.redirect_uris?.[0]).toContain(fragment);
    }
    expectError(await client({ redirect_uris: [] }), 400, 'application.redirect_uri_invalid', 'redirect_uris');
    expectError(await client({ post_logout_redirect_uris: ['https://spa.example.com/bye#now'] }), 400, 'application.post_logout_redirect_uri_invalid', 'post_logout_redirect_uris');
    expectError(await client({ grant_types: ['authorization_code', 'client_credentials'] }), 400, 'application.grant_type_invalid', 'grant_types');
    expectError(await client({ grant_types: ['implicit'] }), 400, 'request.invalid');
    expectError(await client({ require_pkce: false }), 400, 'application.pkce_required', 'require_pkce');
    expectError(await admin.post(`/api/v2/application/${id}/client/secret`), 409, 'application.client_not_confidential');
    expect((await details(id)).app.client.redirect_uris).toEqual(['https://spa.example.com/callback', 'http://localhost:5173/cb']);

    // turning confidential issues a secret, shown once
    const confidential = await client({ client_type: 'confidential', grant_types: ['authorization_code', 'client_credentials'], post_logout_redirect_uris: ['https://spa.example.com/bye'] });
    expect(confidential.status, JSON.stringify(confidential.body)).toBe(200);
    const first = confidential.body.data.client_secret.client_secret as string;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(confidential.body.data.app.client).toMatchObject({ client_type: 'confidential', post_logout_redirect_uris: ['https://spa.example.com/bye'], secret_issued_at: expect.any(String) });
    // the same settings again change nothing and issue nothing
    const same = await client({ client_type: 'confidential', grant_types: ['authorization_code', 'client_credentials'], post_logout_redirect_uris: ['https://spa.example.com/bye'] });
    expect(same.body.data.client_secret).toBeNull();

    const rotated = await admin.post(`/api/v2/application/${id}/client/secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    const second = rotated.body.data.client_secret.client_secret as string;
    expect(second).not.toBe(first);
    const hashes = (await streamOf(id)).filter((event) => event.type === 'ApplicationClientSecretIssued').map((event) => (event.data as { secretHash: string }).secretHash);
    expect(hashes).toEqual([first, second].map((secret) => createHash('sha256').update(secret).digest('hex')));

    const backToPublic = await client({});
    expect(backToPublic.body.data.app.client).toMatchObject({ client_type: 'public', secret_issued_at: null });
  });

  it('grants an application role to an account and counts it; deleting the role ends the grant', async () => {
    const { app: crm } = await createApp();
    const role = (await admin.post(`/api/v2/application/${crm.id}/role`, { title: 'Viewer', slug: 'viewer' })).body.data as Role;
    const ada = await createAccount(admin);
    const granted = await admin.post(`/api/v2/account/${ada.id}/application-role`, { role_id: role.id });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    expect(granted.body.data).toEqual({ message: 'Role added to account' });
    expect((await details(crm.id)).roles[0].num_associations).toBe(1);
    const held = (await admin.get(`/api/v2/account/${ada.id}/application-roles?application_id=${crm.id}`)).body.data;
    expect(held).toEqual([{ application_id: crm.id, application_title: crm.title, id: role.id, title: 'Viewer', slug: 'viewer', associated: 1 }]);
    expectError(await admin.post(`/api/v2/account/00000000-0000-4000-8000-000000000000/application-role`, { role_id: role.id }), 404, 'account.not_found');
    expect((await del(`/api/v2/account/${ada.id}/application-role?role_id=${role.id}`)).body.data).toEqual({ message: 'Role removed from account' });
    expect((await details(crm.id)).roles[0].num_associations).toBe(0);
    await admin.post(`/api/v2/account/${ada.id}/application-role`, { role_id: role.id });
    await del(`/api/v2/application/role/${role.id}`);
    expect((await admin.get(`/api/v2/account/${ada.id}/application-roles`)).body.data.filter((row: { application_id: string }) => row.application_id === crm.id)).toEqual([]);
    expectError(await admin.post(`/api/v2/account/${ada.id}/application-role`, { role_id: role.id }), 404, 'role.not_found');
  });

  it('answers 403 to an account that is no administrator, and to a token that may only read', async () => {
    const { app: crm } = await createApp();
    const plain = await createAccount(admin);
    const user = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/api/v2/applications', undefined],
      ['GET', `/api/v2/application/${crm.id}`, undefined],
      ['POST', '/api/v2/application', { title: 'Nope' }],
      ['PATCH', `/api/application/${crm.id}/basic`, { title: 'Nope' }],
      ['DELETE', `/api/v2/application/${crm.id}`, undefined],
      ['POST', `/api/v2/application/${crm.id}/permission`, { permission: { slug: 'nope', description: '' } }],
    ];
    for (const [method, path, body] of calls) {
      const response = await user.raw(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const adminId = (await admin.get('/api/v1/account/current')).body.id as string;
    const issued = await admin.post('/api/v1/token', { title: 'App reader', forever: true, permissions: ['applications:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    expect((await reader.get(`/api/v2/application/${crm.id}`)).status).toBe(200);
    expect((await reader.raw('DELETE', `/api/v2/application/${crm.id}`)).status).toBe(403);
    const trpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${issued.body.token}` }) })] });
    expect((await trpc.applications.byId.query({ id: crm.id })).app.title).toBe(crm.title);
    const refused = (await trpc.applications.create.mutate({ title: 'Nope' }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(403);
    expect((await details(crm.id)).app.title).toBe(crm.title);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const token = await signIn(app.url);
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    const title = unique('tRPC app');
    const created = await client.applications.create.mutate({ title, scopes: [{ scope: 'notes', description: 'Your notes' }] });
    expect(created.client_secret?.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const id = created.app.id;
    expect((await client.applications.list.query({ search: title })).data.map((row) => row.id)).toEqual([id]);
    expect((await client.applications.updateBasic.mutate({ id, title: `${title} 2`, url: 'https://notes.example.com', description: '' })).app.title).toBe(`${title} 2`);
    const permission = await client.applications.addPermission.mutate({ application_id: id, slug: 'notes.read', description: 'Read notes' });
    expect((await client.applications.updatePermission.mutate({ id: permission.id, slug: 'notes.view', description: 'See notes' })).permission).toMatchObject({ slug: 'notes.view' });
    const role = await client.applications.createRole.mutate({ application_id: id, title: 'Reader', slug: 'reader', permissions: [] });
    const relation = await client.applications.addRolePermission.mutate({ role_id: role.id, permission_id: permission.id });
    expect((await client.applications.byId.query({ id })).roles[0].permissions).toEqual([{ id: permission.id, relation_id: relation.id }]);
    expect(await client.applications.removeRolePermission.mutate({ id: relation.id })).toEqual({ id: relation.id });
    expect((await client.applications.renameRole.mutate({ id: role.id, title: 'Readers' }))?.title).toBe('Readers');
    expect((await client.applications.setScopes.mutate({ id, scopes: [] })).app.scopes).toEqual([]);
    const taken = (await client.applications.addPermission.mutate({ application_id: id, slug: 'notes.view', description: '' }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(taken.data?.httpStatus).toBe(409);
    expect(taken.data?.apiError).toMatchObject({ code: 'permission.slug_taken', fields: { slug: [expect.any(String)] } });
    expect(await client.applications.deleteRole.mutate({ id: role.id })).toEqual({ message: 'Role deleted successfully' });
    expect(await client.applications.removePermission.mutate({ id: permission.id })).toEqual({ message: 'Permission deleted' });
    expect(await client.applications.delete.mutate({ id })).toEqual({ message: `Application ${title} 2 deleted` });
    const gone = (await client.applications.byId.query({ id }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(gone.data?.httpStatus).toBe(404);
  });
});
