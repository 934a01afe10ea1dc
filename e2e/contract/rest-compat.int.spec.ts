import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES, type RouteEntry } from '../../apps/api/src/http/openapi/route-catalogue';
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
    if (route.path === 'accounts/import/csv') return { csv: [newAccount()] };
    if (route.path === 'account/{id}/auth' && route.method === 'put') return { status_id: 1, policy_id: null };
    if (route.path === 'account/{id}/password') return { password: 'a sample password 1' };
    if (route.path === 'token' || (route.path === 'token/{id}' && route.method === 'put')) return { title: 'Contract token', forever: true, permissions: ['accounts:read'], restrictions: ['10.0.0.0/8'], account_id: accountId };
    // the administrator's own change, to the same password (no policy: no history), so later rows still sign in
    if (route.path === 'account/password/change') return { current_password: ADMIN.password, new_password: ADMIN.password };
    return undefined;
  };
  /** query strings and path words of the search rows */
  const samplePath = (path: string) => path.replace('{search}', 'adm') + (path === 'account/find' || path === 'account/find/username' ? '?username=adm' : '');
  /** a fresh account awaiting activation and the token of its activation mail (a token works once) */
  const awaitingActivation = async () => {
    const account = newAccount({ password: undefined, no_password: true, activation: true });
    const created = await http(app.url, await signIn(app.url)).post('/api/v1/account', account);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { id: created.body.id as string, token: await activationTokenFor(app.config.dataDir, account.email) };
  };
  /** the {id} of a row: a fresh policy for policy rows (DELETE removes it), else the sample account */
  const sampleId = async (route: RouteEntry, client: ReturnType<typeof http>) => {
    if (route.path === 'account/{id}' && route.method === 'delete') {
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

  for (const route of ROUTES) {
    for (const [prefix, version] of [['/api/v1', 'v1'], ['/api/v2', 'v2'], ['/api', 'v2']] as const) {
      it(`${route.method.toUpperCase()} ${prefix}/${route.path}`, async () => {
        // a fresh session per call: logout rows revoke theirs
        const client = http(app.url, route.public ? undefined : await signIn(app.url));
        const organizationRow = await organizationSample(route, client);
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

  it('serves an OpenAPI 3.1 document listing every catalogue route under all three prefixes', async () => {
    const document = (await http(app.url).get('/api/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      for (const prefix of ['/api/v1/', '/api/v2/', '/api/']) expect(document.paths[prefix + route.path]?.[route.method], prefix + route.path).toBeDefined();
    }
    const page = await http(app.url).get('/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('swagger-ui');
  });
});
