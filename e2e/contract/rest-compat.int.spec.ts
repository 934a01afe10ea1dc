import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES, type RouteEntry } from '../../apps/api/src/platform/http/openapi/route-catalogue';
import { ADMIN, createAccount, http, newAccount, signIn, startTestApp, type TestApp } from '../../apps/api/test/test-app';
import { activationTokenFor, MAIL_LOG_SETTINGS } from '../../apps/api/test/mail-log';

/**
 * The frozen REST contract: every row of the route catalogue (the source of /api/openapi.json and
 * docs/api/compat.md) answers on /api/v1, /api/v2 and unprefixed /api, and each answer matches the
 * documented shape: bare on v1, wrapped in {data} on v2.
 */
/** a 1x1 PNG */
const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('REST compatibility contract', () => {
  let app: TestApp;
  let accountId: string;
  beforeAll(async () => {
    app = await startTestApp('sqlite', MAIL_LOG_SETTINGS);
    accountId = (await http(app.url, await signIn(app.url)).post('/api/v1/account', newAccount())).body.id;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let policies = 0;
  /** a valid policy body with a title of its own (titles are unique) */
  const samplePolicy = () => {
    policies += 1;
    return { title: `Contract ${Date.now().toString(36)} ${policies}`, description: 'Contract suite', min_length: 10, min_strength: 2, lockout: 5, lockout_duration: 900, history: 3, max_age: 180 };
  };
  const sampleBody = (route: RouteEntry) => {
    if (route.path === 'admin/authenticate') return ADMIN;
    if (route.path === 'account') return newAccount();
    if (route.path.startsWith('policy') && route.method !== 'delete') return samplePolicy();
    if (route.path === 'account/{id}' && route.method === 'put') return { first_name: 'Ada', last_name: 'Lovelace', email: `ada.${Date.now().toString(36)}.${(policies += 1)}@example.com`, birth_date: '1815-12-10', gender: 'female', time_zone: 'Europe/London', locale: 'en', website: 'https://example.com' };
    if (route.path === 'account/{id}/profile-picture') return { picture: TINY_PNG };
    if (route.path === 'account/{id}/claims' && route.method === 'put') return { claims: { nickname: 'Contract' } };
    if (route.path === 'accounts/import/csv') return { csv: [newAccount()] };
    if (route.path === 'account/{id}/auth' && route.method === 'put') return { status_id: 1, policy_id: null };
    if (route.path === 'account/{id}/password') return { password: 'a sample password 1' };
    if (route.path === 'token' || (route.path === 'token/{id}' && route.method === 'put')) return { title: 'Contract token', forever: true, permissions: ['accounts:read'], restrictions: ['10.0.0.0/8'], account_id: accountId };
    // the administrator's own change, to the same password (no policy: no history), so later rows still sign in
    if (route.path === 'account/password/change') return { current_password: ADMIN.password, new_password: ADMIN.password };
    return undefined;
  };
  /** query strings and path words of the search rows */
  const samplePath = (path: string) => path.replace('{search}', 'adm') + (path === 'account/find' || path === 'account/find/username' ? '?username=adm' : path.endsWith('/as-of') ? `?at=${new Date().toISOString()}` : '');
  /** a fresh account awaiting activation and the token of its activation mail (a token works once) */
  const awaitingActivation = async () => {
    const account = newAccount({ password: undefined, no_password: true, activation: true });
    const created = await http(app.url, await signIn(app.url)).post('/api/v1/account', account);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { id: created.body.id as string, token: await activationTokenFor(app.config.dataDir, account.email) };
  };
  /** the {id} of a row: a fresh policy for policy rows (DELETE removes it), else the sample account */
  const sampleId = async (route: RouteEntry, client: ReturnType<typeof http>) => {
    // deleting and erasing end the account: each row gets a fresh one, so later rows keep the sample
    if ((route.path === 'account/{id}' && route.method === 'delete') || route.path === 'account/{id}/erase') {
      const created = await client.post('/api/v1/account', newAccount());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    }
    if (route.path === 'token/{id}') {
      const created = await client.post('/api/v1/token', { title: 'Contract token', forever: true, permissions: ['accounts:read'], account_id: accountId });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    }
    if (route.path === 'account/{id}/activation') return (await awaitingActivation()).id;
    if (!route.path.startsWith('policy/')) return accountId;
    const created = await client.post('/api/v1/policy', samplePolicy());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };

  let organizations = 0;
  const organizationTitle = () => `Contract organization ${Date.now().toString(36)} ${(organizations += 1)}`;
  /** a fresh organization per row (DELETE removes it; titles are unique) */
  const sampleOrganization = async (client: ReturnType<typeof http>) => {
    const created = await client.post('/api/v1/organization', { title: organizationTitle(), description: 'Contract suite' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };
  /** path (with its ids and query) and body of the organization rows, or null for the others */
  const organizationSample = async (route: RouteEntry, client: ReturnType<typeof http>): Promise<{ path: string; body?: unknown } | null> => {
    if (!route.path.includes('organization')) return null;
    switch (route.path) {
      case 'organization':
        return { path: route.path, body: { title: organizationTitle(), description: 'Contract suite' } };
      case 'organizations':
        return { path: route.path };
      case 'organization/find':
        return { path: 'organization/find?organization=contract' };
      case 'organization/details/{organization_id}':
        return { path: `organization/details/${await sampleOrganization(client)}`, body: { title: organizationTitle(), description: 'Renamed' } };
      case 'organization/{id}/time-zone':
        return { path: `organization/${await sampleOrganization(client)}/time-zone`, body: route.method === 'put' ? { time_zone: 'Europe/Berlin' } : undefined };
      case 'organization/{id}/member':
        return { path: `organization/${await sampleOrganization(client)}/member`, body: { account_id: (await createAccount(client)).id } };
      case 'account/{account_id}/associate/organization':
        return { path: `account/${(await createAccount(client)).id}/associate/organization`, body: { organization_id: await sampleOrganization(client) } };
      case 'organization/{org_id}/member/{account_id}':
      case 'account/{id}/leave-organization/{organization_id}': {
        const organizationId = await sampleOrganization(client);
        const member = (await createAccount(client, { organization: organizationId })).id;
        return { path: route.path.replace('{org_id}', organizationId).replace('{organization_id}', organizationId).replace('{account_id}', member).replace('{id}', member) };
      }
      case 'account/{id}/organizations-and-roles':
      case 'account/{id}/organizations':
        return { path: route.path.replace('{id}', accountId) };
      default:
        return { path: route.path.replace('{id}', await sampleOrganization(client)) };
    }
  };

  let teams = 0;
  const teamTitle = () => `Contract team ${Date.now().toString(36)} ${(teams += 1)}`;
  /** a fresh multi-organization team per row (DELETE removes it), with these members */
  const sampleTeam = async (client: ReturnType<typeof http>, accounts: string[] = []) => {
    const created = await client.post('/api/v1/team', { title: teamTitle(), description: 'Contract suite', interorg: true, accounts });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };
  /** path (with its ids and query) and body of the team rows, or null for the others */
  const teamSample = async (route: RouteEntry, client: ReturnType<typeof http>): Promise<{ path: string; body?: unknown } | null> => {
    if (!route.path.startsWith('team') && !/^account\/\{id\}\/(teams|associate\/team|leave-team)/.test(route.path)) return null;
    switch (route.path) {
      case 'teams':
        return { path: route.path };
      case 'team':
        return { path: route.path, body: { title: teamTitle(), description: 'Contract suite', interorg: true, accounts: [accountId] } };
      case 'team/find':
        return { path: 'team/find?team=contract' };
      case 'team/{id}/title':
        return { path: `team/${await sampleTeam(client)}/title`, body: { title: teamTitle() } };
      case 'account/{id}/teams':
        return { path: `account/${accountId}/teams` };
      case 'account/{id}/associate/team':
        return { path: `account/${(await createAccount(client)).id}/associate/team`, body: { team_id: await sampleTeam(client) } };
      case 'account/{id}/leave-team/{team_id}': {
        const member = (await createAccount(client)).id;
        return { path: `account/${member}/leave-team/${await sampleTeam(client, [member])}` };
      }
      default:
        return { path: route.path.replace('{id}', await sampleTeam(client, [accountId])) };
    }
  };

  /** an organization with a permission, a role holding it and a member holding the role (docs/adr/0012) */
  const sampleAccess = async (client: ReturnType<typeof http>) => {
    const organizationId = await sampleOrganization(client);
    const permission = await client.post('/api/v1/permission', { organization_id: organizationId, title: 'Read invoices', slug: 'invoices:read', description: 'Contract suite' });
    expect(permission.status, JSON.stringify(permission.body)).toBe(201);
    const role = await client.post(`/api/v1/organization/${organizationId}/role`, { title: 'Accountant', slug: 'accountant', description: '', permissions: [permission.body.id] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const member = (await createAccount(client, { organization: organizationId })).id;
    const granted = await client.post(`/api/v1/organization/${organizationId}/account-role`, { account_id: member, role_id: role.body.id });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    return { organizationId, permissionId: permission.body.id as string, roleId: role.body.id as string, member };
  };
  /** path and body of the permission and role rows, or null for the others */
  const accessSample = async (route: RouteEntry, client: ReturnType<typeof http>): Promise<{ path: string; body?: unknown } | null> => {
    const paths = ['organization/{id}/permissions', 'organization/{id}/roles', 'organization/{org}/role', 'organization/{org}/member/{account}/roles', 'organization/{org}/account-role', 'account/{id}/toggle-role'];
    if (!paths.includes(route.path) && !route.path.startsWith('permission/') && route.path !== 'permission' && !route.path.startsWith('role/')) return null;
    const { organizationId, permissionId, roleId, member } = await sampleAccess(client);
    const id = route.path.startsWith('permission/') ? permissionId : route.path.startsWith('role/') ? roleId : route.path.startsWith('account/') ? member : organizationId;
    const path = route.path.replace('{org}', organizationId).replace('{account}', member).replace('{id}', id);
    const deleting = route.method === 'delete';
    switch (route.path) {
      case 'permission':
        return { path, body: { organization_id: organizationId, title: 'Write invoices', slug: 'invoices:write', description: '' } };
      case 'permission/{id}/title':
      case 'role/{id}/title':
        return { path, body: { title: 'Renamed' } };
      case 'permission/{id}/slug':
      case 'role/{id}/slug':
        return { path, body: { slug: 'renamed' } };
      case 'organization/{org}/role':
        return { path, body: { organization_id: organizationId, title: 'Clerk', slug: 'clerk', description: '', permissions: [{ id: permissionId }] } };
      case 'role/{id}/permission':
        return deleting ? { path: `${path}?permission_id=${permissionId}` } : { path, body: { permission_id: permissionId } };
      case 'organization/{org}/account-role':
        return deleting ? { path: `${path}?account_id=${member}&role_id=${roleId}` } : { path, body: { account_id: member, role_id: roleId } };
      case 'account/{id}/toggle-role':
        return deleting ? { path: `${path}?role_id=${roleId}` } : { path, body: { role_id: roleId } };
      default:
        return { path };
    }
  };

  it('answers 404 on v1 for the routes that are v2 only', async () => {
    const client = http(app.url, await signIn(app.url));
    const v2Only = ROUTES.filter((route) => route.versions && !route.versions.includes('v1') && route.method === 'get' && !route.path.includes('{'));
    expect(v2Only.length).toBeGreaterThan(0);
    for (const route of v2Only) expect((await client.get(`/api/v1/${route.path}`)).status, route.path).toBe(404);
  });

  for (const route of ROUTES) {
    for (const [prefix, version] of [['/api/v1', 'v1'], ['/api/v2', 'v2'], ['/api', 'v2']] as const) {
      if (!(route.versions ?? ['v1', 'v2']).includes(version)) continue;
      it(`${route.method.toUpperCase()} ${prefix}/${route.path}`, async () => {
        // a fresh session per call: logout rows revoke theirs
        const client = http(app.url, route.public ? undefined : await signIn(app.url));
        const organizationRow = (await accessSample(route, client)) ?? (await teamSample(route, client)) ?? (await organizationSample(route, client));
        let path = organizationRow ? `${prefix}/${organizationRow.path}` : `${prefix}/${samplePath(route.path.includes('{id}') ? route.path.replace('{id}', await sampleId(route, client)) : route.path)}`;
        let body: unknown = organizationRow ? organizationRow.body : sampleBody(route);
        if (route.path === 'account/activation/{token}') path = path.replace('{token}', (await awaitingActivation()).token);
        if (route.path === 'account/activate') body = { token: (await awaitingActivation()).token, password: 'a sample password 1' };
        const response = await client.raw(route.method.toUpperCase(), path, body);
        expect(response.status, JSON.stringify(response.body)).toBe(route.status ?? 200);
        const inner = version === 'v2' ? (route.v2Response ?? route.response) : route.response;
        const schema = version === 'v2' ? z.object({ data: inner }).strict() : inner;
        const parsed = schema.safeParse(response.body);
        expect(parsed.success, parsed.success ? '' : `${path}: ${JSON.stringify(parsed.error.issues)}`).toBe(true);
      });
    }
  }

  it('serves an OpenAPI 3.1 document listing every catalogue route under its prefixes (v1 only where it is on v1)', async () => {
    const document = (await http(app.url).get('/api/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const onV1 = (route.versions ?? ['v1', 'v2']).includes('v1');
      for (const prefix of ['/api/v2/', '/api/']) expect(document.paths[prefix + route.path]?.[route.method], prefix + route.path).toBeDefined();
      expect(document.paths[`/api/v1/${route.path}`]?.[route.method], `/api/v1/${route.path}`).toEqual(onV1 ? expect.anything() : undefined);
    }
    const page = await http(app.url).get('/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('swagger-ui');
  });
});
