import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { DescribedRoute, RestPrefix } from '../../apps/api/src/platform/http/openapi/described-routes';
import type { EventStore } from '../../apps/api/src/platform/event-store/event-store.port';
import { EVENT_STORE } from '../../apps/api/src/platform/tokens';
import { ADMIN, createAccount, http, newAccount, signIn, type TestApp } from '../../apps/api/test/test-app';
import { activationTokenFor } from '../../apps/api/test/mail-log';
import { CommandGateway } from '../../apps/api/src/platform/commands/command-gateway';
import { systemContext } from '../../apps/api/src/platform/commands/request-context';
import { GiveApplicationConsentCommand } from '../../apps/api/src/features/oidc/commands/give-application-consent.handler';
import { totpCodeAt } from '../../apps/api/src/features/auth/second-factor/totp-codes';
import { SoftwareAuthenticator } from '../../apps/api/test/software-authenticator';

type Client = ReturnType<typeof http>;

/** One call of a route: the path after the prefix (ids and query filled in), its body, and whose token calls it. */
export interface Sample {
  path: string;
  body?: unknown;
  /** a door reader's token instead of the administrator's session (the reader protocol) */
  token?: string;
  /** request headers beyond the token (a browser's Origin for the passkey calls) */
  headers?: Record<string, string>;
  /** waits, after the call, for what the call started (a rebuild) so the next call meets a quiet app */
  settle?: () => Promise<void>;
}

/** a 1x1 PNG */
const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==';

const now = () => new Date().toISOString();
/** a card UID as a reader reads it: hex, 7 bytes */
const cardUid = () => randomBytes(7).toString('hex').toUpperCase();

/**
 * The body of a fixture's answer: status checked, `{data}` of v2 opened. Read loosely (as test-app's
 * http() does): the fixtures only pick ids from it, the suite checks every answer's shape itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
async function created(answer: Promise<{ status: number; body: Loose }>, status = 201): Promise<Loose> {
  const { status: actual, body } = await answer;
  expect(actual, JSON.stringify(body)).toBe(status);
  return body.data ?? body;
}

/**
 * The samples of the contract suite: for every route a call that succeeds, with fresh things where
 * the call uses them up (a DELETE, an erase, a title that must be unique) and the route's own
 * fixtures (a reader's token, a slot to correct, an event a read model set aside).
 */
export function restSamples(app: TestApp, accountId: string) {
  let counter = 0;
  const unique = (what: string) => `Contract ${what} ${Date.now().toString(36)} ${(counter += 1)}`;

  const samplePolicy = () => ({ title: unique('policy'), description: 'Contract suite', min_length: 10, min_strength: 2, lockout: 5, lockout_duration: 900, history: 3, max_age: 180 });
  /** a fresh account awaiting activation and the token of its activation mail (a token works once) */
  const awaitingActivation = async (client: Client) => {
    const account = newAccount({ password: undefined, no_password: true, activation: true });
    const { id } = await created(client.post('/api/v1/account', account));
    return { id: id as string, token: await activationTokenFor(app.config.dataDir, account.email) };
  };
  const sampleOrganization = async (client: Client) => (await created(client.post('/api/v1/organization', { title: unique('organization'), description: 'Contract suite' }))).id as string;
  /** a fresh multi-organization team (DELETE removes it), with these members */
  const sampleTeam = async (client: Client, accounts: string[] = []) => (await created(client.post('/api/v1/team', { title: unique('team'), description: 'Contract suite', interorg: true, accounts }))).id as string;
  /** an organization with a permission, a role holding it and a member holding the role (docs/adr/0012) */
  const sampleAccess = async (client: Client) => {
    const organizationId = await sampleOrganization(client);
    const permission = await created(client.post('/api/v1/permission', { organization_id: organizationId, title: 'Read invoices', slug: 'invoices:read', description: 'Contract suite' }));
    const role = await created(client.post(`/api/v1/organization/${organizationId}/role`, { title: 'Accountant', slug: 'accountant', description: '', permissions: [permission.id] }));
    const member = (await createAccount(client, { organization: organizationId })).id;
    await created(client.post(`/api/v1/organization/${organizationId}/account-role`, { account_id: member, role_id: role.id }), 200);
    return { organizationId, permissionId: permission.id as string, roleId: role.id as string, member };
  };
  const sampleApplication = async (client: Client) => (await created(client.post('/api/v2/application', { title: unique('application') }))).app.id as string;
  const sampleApplicationPermission = async (client: Client, applicationId: string) => (await created(client.post(`/api/v2/application/${applicationId}/permission`, { permission: { slug: `contract.${(counter += 1)}`, description: 'Contract suite' } }))).id as string;
  const sampleApplicationRole = async (client: Client, applicationId: string, permissions: string[] = []) =>
    created(client.post(`/api/v2/application/${applicationId}/role`, { title: unique('role'), slug: `contract-${(counter += 1)}`, description: '', permissions: permissions.map((id) => ({ id })) }));
  const sampleReader = async (client: Client, role: 'door' | 'enrollment' = 'door') => (await created(client.post('/api/v2/readers', { name: unique('reader'), door: 'Contract door', role }))).id as string;
  const sampleReaderWithToken = async (client: Client, role: 'door' | 'enrollment' = 'door') => {
    const id = await sampleReader(client, role);
    return { id, token: (await created(client.post(`/api/v2/readers/${id}/token`))).token as string };
  };
  const sampleStatus = async (client: Client) => (await created(client.post('/api/v2/states/attendance', { title: unique('status') }))).id as string;
  /** an account with an event group of three days and the first day's event */
  const sampleCalendarEvent = async (client: Client) => {
    const account = (await createAccount(client)).id;
    const statusId = await sampleStatus(client);
    const group = await created(client.post(`/api/v2/account/${account}/tracking-status`, { event_group_title: 'Summer holiday', status_id: statusId, start_date: '2026-07-06', end_date: '2026-07-08', start_time: '00:00:00', end_time: '23:59:59', description: 'Contract suite', single: false, account_id: account }));
    const events = (await created(client.get(`/api/v2/account/${account}/calendar?date=2026-07`), 200)) as unknown as Array<{ id: string }>;
    return { account, statusId, groupId: group.event_group_id as string, eventId: events[0].id };
  };
  const assignedCard = async (client: Client, account: string) => (await created(client.post('/api/v2/scanner/unknown-cards/assign', { card_uid: cardUid(), account_id: account }))).id as string;
  /** a fresh card a door reader scanned and no account holds, once the unknown cards list it (a dismissal takes it off) */
  const unknownCard = async (client: Client) => {
    const reader = await sampleReaderWithToken(client);
    const uid = cardUid();
    await created(http(app.url, reader.token).post('/api/v2/reader/scans', { card_uid: uid, sequence: 1, device_time: now(), sent_at: now() }), 200);
    // a reader's scan is answered before the read models hold it (docs/readers.md)
    await expect.poll(async () => ((await created(client.get('/api/v2/scanner/unknown-cards'), 200)) as Array<{ card_uid: string }>).some((card) => card.card_uid === uid), { timeout: 10_000 }).toBe(true);
    return uid;
  };

  // fixtures made once, when a route first needs them
  let enrollmentReader: Promise<string> | undefined;
  let openSlot: Promise<{ id: string; holder: string; arrivedAt: string }> | undefined;
  let setAside: Promise<{ projection: string; position: string }> | undefined;
  /** an open attendance slot: a door reader scanned the card of an account */
  const slot = (client: Client) =>
    (openSlot ??= (async () => {
      const reader = await sampleReaderWithToken(client);
      const holder = (await createAccount(client)).id;
      const uid = cardUid();
      await created(client.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: holder }));
      const arrivedAt = new Date(Date.now() - 60_000).toISOString();
      await created(http(app.url, reader.token).post('/api/v2/reader/scans', { card_uid: uid, sequence: 1, device_time: arrivedAt, sent_at: now() }), 200);
      const log = await created(client.get(`/api/v2/logs/arrivals-departures?account_id=${holder}`), 200);
      return { id: log.data[0].id as string, holder, arrivedAt: log.data[0].arrived_at as string };
    })());
  /**
   * An event the accounts read model sets aside: a second account claiming a username, appended past
   * the API's reservation (as an old import might; apps/api/src/features/audit/projections.int.spec.ts)
   */
  const setAsideEvent = (client: Client) =>
    (setAside ??= (async () => {
      const first = await createAccount(client);
      const twinId = randomUUID();
      const metadata = { eventId: randomUUID(), actor: 'system', actorKind: 'system' as const, sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: now() };
      const data = { accountId: twinId, username: first.username, email: `twin.${twinId}@example.com`, firstName: 'Twin', lastName: 'Account', passwordHash: null, statusId: 4, policyId: null, expiresAt: null, organizationId: null, sendActivation: false, isProtected: false, createdAt: now() };
      await app.app.get<EventStore>(EVENT_STORE).appendToStream(`account-${twinId}`, [{ type: 'AccountCreated', data, metadata }], { expectedVersion: 'no_stream' });
      const projections = (await created(client.get('/api/v2/projections'), 200)).projections as Array<{ name: string; set_aside: number }>;
      const projection = projections.find((candidate) => candidate.name.startsWith('accounts_'))!.name;
      await expect.poll(async () => (await created(client.get(`/api/v2/projections/${projection}/set-aside`), 200)) as unknown as unknown[], { timeout: 10_000 }).toHaveLength(1);
      const [event] = (await created(client.get(`/api/v2/projections/${projection}/set-aside`), 200)) as unknown as Array<{ position: string }>;
      return { projection, position: event.position };
    })());
  /** a rebuild answers at once and runs on: the next call waits until it is over */
  const rebuildOver = (client: Client) => async () => {
    await expect.poll(async () => (await created(client.get('/api/v2/projections'), 200)).rebuild.status, { timeout: 60_000, interval: 100 }).toMatch(/^(idle|done|failed)$/);
  };

  const SAMPLES: Record<string, (client: Client, prefix: RestPrefix) => Promise<Sample>> = {
    'post admin/authenticate': async () => ({ path: 'admin/authenticate', body: ADMIN }),
    'get account/activation/{token}': async (client) => ({ path: `account/activation/${(await awaitingActivation(client)).token}` }),
    'post account/activate': async (client) => ({ path: 'account/activate', body: { token: (await awaitingActivation(client)).token, password: 'a sample password 1' } }),
    'post account': async () => ({ path: 'account', body: newAccount() }),
    'get account/find': async () => ({ path: 'account/find?username=adm' }),
    'get account/find/username': async () => ({ path: 'account/find/username?username=adm' }),
    'get account/username/{search}': async () => ({ path: 'account/username/adm' }),
    'put account/{id}': async () => ({
      path: `account/${accountId}`,
      body: { first_name: 'Ada', last_name: 'Lovelace', email: `ada.${Date.now().toString(36)}.${(counter += 1)}@example.com`, birth_date: '1815-12-10', gender: 'female', time_zone: 'Europe/London', locale: 'en', website: 'https://example.com' },
    }),
    // deleting and erasing end the account: each call gets a fresh one, so later calls keep the sample
    'delete account/{id}': async (client) => ({ path: `account/${(await createAccount(client)).id}` }),
    'post account/{id}/erase': async (client) => ({ path: `account/${(await createAccount(client)).id}/erase` }),
    'patch account/{id}/profile-picture': async () => ({ path: `account/${accountId}/profile-picture`, body: { picture: TINY_PNG } }),
    'put account/{id}/auth': async () => ({ path: `account/${accountId}/auth`, body: { status_id: 1, policy_id: null } }),
    'put account/{id}/password': async () => ({ path: `account/${accountId}/password`, body: { password: 'a sample password 1' } }),
    'patch account/{id}/password': async () => ({ path: `account/${accountId}/password`, body: { password: 'a sample password 1' } }),
    'post account/{id}/activation': async (client) => ({ path: `account/${(await awaitingActivation(client)).id}/activation` }),
    // the administrator's own change, to the same password (no policy: no history), so later calls still sign in
    'post account/password/change': async () => ({ path: 'account/password/change', body: { current_password: ADMIN.password, new_password: ADMIN.password } }),
    'post accounts/import/csv': async () => ({ path: 'accounts/import/csv', body: { csv: [newAccount()] } }),
    'get account/{id}/as-of': async () => ({ path: `account/${accountId}/as-of?at=${now()}` }),
    'put account/{id}/claims': async () => ({ path: `account/${accountId}/claims`, body: { claims: { nickname: 'Contract' } } }),
    // the holder of a card that opened a slot today: the answers carry data, not only empty days
    'get account/{id}/attendance/{selected}': async (client, prefix) => ({ path: `account/${(await slot(client)).holder}/attendance/${{ '/api/v1': 'daily', '/api/v2': 'weekly', '/api': 'monthly' }[prefix]}` }),
    'get accounts/statistics/attendance': async (client) => {
      await slot(client);
      return { path: 'accounts/statistics/attendance' };
    },
    'get account/{id}/calendar': async (client) => ({ path: `account/${(await sampleCalendarEvent(client)).account}/calendar?date=2026-07` }),
    // an organization with a permission, a role holding it and a member holding the role: the lists are not empty
    'get organization/{id}/permissions': async (client) => ({ path: `organization/${(await sampleAccess(client)).organizationId}/permissions` }),
    'get organization/{id}/roles': async (client) => ({ path: `organization/${(await sampleAccess(client)).organizationId}/roles` }),
    'get organization/{id}/members/all': async (client) => ({ path: `organization/${(await sampleAccess(client)).organizationId}/members/all` }),

    'post policy': async () => ({ path: 'policy', body: samplePolicy() }),
    'put policy/{id}': async (client) => ({ path: `policy/${(await created(client.post('/api/v1/policy', samplePolicy()))).id}`, body: samplePolicy() }),
    'delete policy/{id}': async (client) => ({ path: `policy/${(await created(client.post('/api/v1/policy', samplePolicy()))).id}` }),

    'post token': async () => ({ path: 'token', body: { title: 'Contract token', forever: true, permissions: ['accounts:read'], restrictions: ['10.0.0.0/8'], account_id: accountId } }),
    'get token/{id}': async (client) => ({ path: `token/${(await created(client.post('/api/v1/token', { title: 'Contract token', forever: true, permissions: ['accounts:read'], account_id: accountId }))).id}` }),
    'put token/{id}': async (client) => ({
      path: `token/${(await created(client.post('/api/v1/token', { title: 'Contract token', forever: true, permissions: ['accounts:read'], account_id: accountId }))).id}`,
      body: { title: 'Contract token', forever: true, permissions: ['accounts:read'], restrictions: ['10.0.0.0/8'], account_id: accountId },
    }),
    'delete token/{id}': async (client) => ({ path: `token/${(await created(client.post('/api/v1/token', { title: 'Contract token', forever: true, permissions: ['accounts:read'], account_id: accountId }))).id}` }),

    'post organization': async () => ({ path: 'organization', body: { title: unique('organization'), description: 'Contract suite' } }),
    'get organization/find': async () => ({ path: 'organization/find?organization=contract' }),
    'patch organization/details/{organization_id}': async (client) => ({ path: `organization/details/${await sampleOrganization(client)}`, body: { title: unique('organization'), description: 'Renamed' } }),
    'put organization/{id}/time-zone': async (client) => ({ path: `organization/${await sampleOrganization(client)}/time-zone`, body: { time_zone: 'Europe/Berlin' } }),
    'post organization/{id}/member': async (client) => ({ path: `organization/${await sampleOrganization(client)}/member`, body: { account_id: (await createAccount(client)).id } }),
    'post account/{account_id}/associate/organization': async (client) => ({ path: `account/${(await createAccount(client)).id}/associate/organization`, body: { organization_id: await sampleOrganization(client) } }),
    'delete organization/{org_id}/member/{account_id}': async (client) => {
      const organizationId = await sampleOrganization(client);
      return { path: `organization/${organizationId}/member/${(await createAccount(client, { organization: organizationId })).id}` };
    },
    'delete account/{id}/leave-organization/{organization_id}': async (client) => {
      const organizationId = await sampleOrganization(client);
      return { path: `account/${(await createAccount(client, { organization: organizationId })).id}/leave-organization/${organizationId}` };
    },
    'get organization/{id}/as-of': async (client) => ({ path: `organization/${await sampleOrganization(client)}/as-of?at=${now()}` }),

    'post permission': async (client) => ({ path: 'permission', body: { organization_id: await sampleOrganization(client), title: 'Write invoices', slug: 'invoices:write', description: '' } }),
    'post organization/{org}/role': async (client) => {
      const { organizationId, permissionId } = await sampleAccess(client);
      return { path: `organization/${organizationId}/role`, body: { organization_id: organizationId, title: 'Clerk', slug: 'clerk', description: '', permissions: [{ id: permissionId }] } };
    },
    'get organization/{org}/member/{account}/roles': async (client) => {
      const { organizationId, member } = await sampleAccess(client);
      return { path: `organization/${organizationId}/member/${member}/roles` };
    },
    'post organization/{org}/account-role': async (client) => {
      const { organizationId, member, roleId } = await sampleAccess(client);
      return { path: `organization/${organizationId}/account-role`, body: { account_id: member, role_id: roleId } };
    },
    'delete organization/{org}/account-role': async (client) => {
      const { organizationId, member, roleId } = await sampleAccess(client);
      return { path: `organization/${organizationId}/account-role?account_id=${member}&role_id=${roleId}` };
    },
    'post account/{id}/toggle-role': async (client) => {
      const { member, roleId } = await sampleAccess(client);
      return { path: `account/${member}/toggle-role`, body: { role_id: roleId } };
    },
    'delete account/{id}/toggle-role': async (client) => {
      const { member, roleId } = await sampleAccess(client);
      return { path: `account/${member}/toggle-role?role_id=${roleId}` };
    },
    'post role/{id}/permission': async (client) => {
      const { roleId, permissionId } = await sampleAccess(client);
      return { path: `role/${roleId}/permission`, body: { permission_id: permissionId } };
    },
    'delete role/{id}/permission': async (client) => {
      const { roleId, permissionId } = await sampleAccess(client);
      return { path: `role/${roleId}/permission?permission_id=${permissionId}` };
    },

    'post team': async () => ({ path: 'team', body: { title: unique('team'), description: 'Contract suite', interorg: true, accounts: [accountId] } }),
    'get team/find': async () => ({ path: 'team/find?team=contract' }),
    'patch team/{id}/title': async (client) => ({ path: `team/${await sampleTeam(client)}/title`, body: { title: unique('team') } }),
    'post account/{id}/associate/team': async (client) => ({ path: `account/${(await createAccount(client)).id}/associate/team`, body: { team_id: await sampleTeam(client) } }),
    'delete account/{id}/leave-team/{team_id}': async (client) => {
      const member = (await createAccount(client)).id;
      return { path: `account/${member}/leave-team/${await sampleTeam(client, [member])}` };
    },

    'post application': async () => ({ path: 'application', body: { title: unique('application') } }),
    'get application/{id}': async (client) => {
      const applicationId = await sampleApplication(client);
      await sampleApplicationRole(client, applicationId, [await sampleApplicationPermission(client, applicationId)]);
      return { path: `application/${applicationId}` };
    },
    'patch application/{id}/basic': async (client) => ({ path: `application/${await sampleApplication(client)}/basic`, body: { title: unique('application'), url: '', description: 'Renamed' } }),
    'put application/{id}/scopes': async (client) => ({ path: `application/${await sampleApplication(client)}/scopes`, body: { scopes: [{ scope: 'contract', description: 'Contract suite' }] } }),
    'put application/{id}/client': async (client) => ({
      path: `application/${await sampleApplication(client)}/client`,
      body: { client_type: 'public', redirect_uris: ['https://spa.example.com/callback'], grant_types: ['authorization_code'] },
    }),
    'post application/{id}/permission': async (client) => ({ path: `application/${await sampleApplication(client)}/permission`, body: { permission: { slug: 'contract.read', description: 'Contract suite' } } }),
    'post application/{id}/role': async (client) => ({ path: `application/${await sampleApplication(client)}/role`, body: { title: 'Contract role', slug: 'contract', description: '', permissions: [] } }),
    'patch application/permission/{id}': async (client) => ({ path: `application/permission/${await sampleApplicationPermission(client, await sampleApplication(client))}`, body: { slug: 'contract.edit', description: 'Contract suite' } }),
    'delete application/permission/{id}': async (client) => ({ path: `application/permission/${await sampleApplicationPermission(client, await sampleApplication(client))}` }),
    'post application/role/{role_id}/add-permission/{permission_id}': async (client) => {
      const applicationId = await sampleApplication(client);
      const permissionId = await sampleApplicationPermission(client, applicationId);
      return { path: `application/role/${(await sampleApplicationRole(client, applicationId)).id}/add-permission/${permissionId}` };
    },
    'delete application/role/remove-permission/{id}': async (client) => {
      const applicationId = await sampleApplication(client);
      const role = await sampleApplicationRole(client, applicationId, [await sampleApplicationPermission(client, applicationId)]);
      return { path: `application/role/remove-permission/${role.permissions[0].relation_id}` };
    },
    'patch application/role/{id}/title': async (client) => ({ path: `application/role/${(await sampleApplicationRole(client, await sampleApplication(client))).id}/title`, body: { title: unique('role') } }),
    'delete application/role/{id}': async (client) => ({ path: `application/role/${(await sampleApplicationRole(client, await sampleApplication(client))).id}` }),
    'get account/{id}/application-roles': async () => ({ path: `account/${accountId}/application-roles` }),
    'post account/{id}/application-role': async (client) => ({ path: `account/${accountId}/application-role`, body: { role_id: (await sampleApplicationRole(client, await sampleApplication(client))).id } }),
    'delete account/{id}/application-role': async (client) => ({ path: `account/${accountId}/application-role?role_id=${(await sampleApplicationRole(client, await sampleApplication(client))).id}` }),
    'delete account/{id}/consents/{applicationId}': async (client) => ({ path: `account/${accountId}/consents/${await sampleApplication(client)}` }),

    'post readers': async () => ({ path: 'readers', body: { name: unique('reader'), door: 'Contract door', role: 'door' } }),
    'patch readers/{id}/name': async (client) => ({ path: `readers/${await sampleReader(client)}/name`, body: { name: unique('reader') } }),
    'patch readers/{id}/door': async (client) => ({ path: `readers/${await sampleReader(client)}/door`, body: { door: 'Back door' } }),
    'post readers/{id}/reset-sequence': async (client) => ({ path: `readers/${await sampleReader(client)}/reset-sequence`, body: { reason: 'Contract suite: the queue was wiped' } }),
    'delete readers/{id}/token': async (client) => ({ path: `readers/${(await sampleReaderWithToken(client)).id}/token` }),
    // a fresh door reader each: its first scan is sequence 1
    'post reader/scans': async (client) => ({ path: 'reader/scans', token: (await sampleReaderWithToken(client)).token, body: { card_uid: cardUid(), sequence: 1, device_time: now(), sent_at: now() } }),
    'post reader/scans/batch': async (client) => ({ path: 'reader/scans/batch', token: (await sampleReaderWithToken(client)).token, body: { sent_at: now(), scans: [{ card_uid: cardUid(), sequence: 1, device_time: now() }] } }),
    'post reader/health': async (client) => ({
      path: 'reader/health',
      token: (await sampleReaderWithToken(client)).token,
      body: { sent_at: now(), queue_depth: 0, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: '0.1.0' },
    }),

    'delete account/smartcard/{card_id}': async (client) => ({ path: `account/smartcard/${await assignedCard(client, accountId)}` }),
    'post scanner/mode/register/{account_id}': async (client) => {
      await (enrollmentReader ??= sampleReader(client, 'enrollment'));
      return { path: `scanner/mode/register/${accountId}` };
    },
    'post scanner/unknown-cards/assign': async () => ({ path: 'scanner/unknown-cards/assign', body: { card_uid: cardUid(), account_id: accountId } }),
    'post scanner/unknown-cards/dismiss': async (client) => ({ path: 'scanner/unknown-cards/dismiss', body: { card_uid: await unknownCard(client), reason: 'Contract suite' } }),
    'get logs/arrivals-departures': async (client) => ({ path: `logs/arrivals-departures?account_id=${(await slot(client)).holder}` }),
    'get logs/arrivals-departures/presence': async (client) => {
      await slot(client);
      return { path: 'logs/arrivals-departures/presence' };
    },
    // a new account each call: v2 and the unprefixed path each add their slot, which would overlap on one account
    'post logs/arrivals-departures': async (client) => {
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      return { path: 'logs/arrivals-departures', body: { account_id: (await createAccount(client)).id, arrived_at: `${yesterday}T08:00`, departed_at: `${yesterday}T12:00`, reason: 'Contract suite: the reader was down' } };
    },
    'patch logs/arrivals-departures/edit/{id}': async (client) => {
      const { id, arrivedAt } = await slot(client);
      return { path: `logs/arrivals-departures/edit/${id}`, body: { arrived_at: new Date(Date.parse(arrivedAt) - 60_000).toISOString(), departed_at: null, reason: 'Contract suite: the door missed the card' } };
    },

    'post states/attendance': async () => ({ path: 'states/attendance', body: { title: unique('status') } }),
    'patch states/attendance/{id}': async (client) => ({ path: `states/attendance/${await sampleStatus(client)}`, body: { title: unique('status'), active: 1 } }),
    'delete states/attendance/{id}': async (client) => ({ path: `states/attendance/${await sampleStatus(client)}` }),
    'post account/{id}/tracking-status': async (client) => {
      const account = (await createAccount(client)).id;
      return {
        path: `account/${account}/tracking-status`,
        body: { event_group_title: 'Summer holiday', status_id: await sampleStatus(client), start_date: '2026-07-06', end_date: '2026-07-08', start_time: '00:00:00', end_time: '23:59:59', description: 'Contract suite', single: false, account_id: account },
      };
    },
    'put account/{id}/tracking-status': async (client) => {
      const { account, statusId, groupId, eventId } = await sampleCalendarEvent(client);
      return { path: `account/${account}/tracking-status`, body: { event_id: eventId, event_group_id: groupId, title: 'Dentist', description: '', status_id: statusId, start_date: '2026-07-06 10:00:00', end_date: '2026-07-06 12:00:00', single: true, account_id: account } };
    },
    'delete account/{id}/tracking-status': async (client) => {
      const { account, groupId, eventId } = await sampleCalendarEvent(client);
      return { path: `account/${account}/tracking-status?event_id=${eventId}&event_group_id=${groupId}&single=false` };
    },

    'post projections/rebuild': async (client) => {
      await rebuildOver(client)();
      return { path: 'projections/rebuild', settle: rebuildOver(client) };
    },
    'get projections/{projection}/set-aside': async (client) => ({ path: `projections/${(await setAsideEvent(client)).projection}/set-aside` }),
    'post projections/{projection}/set-aside/{position}/retry': async (client) => {
      const { projection, position } = await setAsideEvent(client);
      return { path: `projections/${projection}/set-aside/${position}/retry` };
    },

    // the own second factors (docs/adr/0025) act on a fresh account of their own: an administrator
    // with a second factor would need a code at every sign-in of this suite
    'get second-factors': async (client) => ({ path: 'second-factors', token: await secondFactorOwner(client, false) }),
    'post second-factors/totp': async (client) => {
      const token = await secondFactorOwner(client, false);
      // a first factor: the current password (needed once the session's sign-in is five minutes old)
      return { path: 'second-factors/totp', token, body: { current_password: passwordOf.get(token)! } };
    },
    'post second-factors/totp/confirm': async (client) => {
      const token = await secondFactorOwner(client, false);
      const started = await created(http(app.url, token).post('/api/v2/second-factors/totp'));
      return { path: 'second-factors/totp/confirm', token, body: { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) } };
    },
    // removing a factor or replacing the codes asks for a current one (docs/adr/0029): a recovery code here
    'delete second-factors/totp': async (client) => {
      const token = await secondFactorOwner(client, true);
      return { path: 'second-factors/totp', token, body: { code: recoveryCodesOf.get(token)![0] } };
    },
    'post second-factors/recovery-codes': async (client) => {
      const token = await secondFactorOwner(client, true);
      return { path: 'second-factors/recovery-codes', token, body: { code: recoveryCodesOf.get(token)![0] } };
    },
    // passkeys (docs/adr/0029): a software authenticator signs for real, from the console's origin
    'post second-factors/passkeys/registration-options': async (client) => ({ path: 'second-factors/passkeys/registration-options', token: await secondFactorOwner(client, false), headers: { origin: browserOrigin() } }),
    'post second-factors/passkeys': async (client) => {
      const token = await secondFactorOwner(client, false);
      const options = (await created(http(app.url, token).post('/api/v2/second-factors/passkeys/registration-options', undefined, { origin: browserOrigin() }), 200)).options;
      return { path: 'second-factors/passkeys', token, headers: { origin: browserOrigin() }, body: { name: 'Contract laptop', response: new SoftwareAuthenticator(browserOrigin()).register(options) } };
    },
    'patch second-factors/passkeys/{passkeyId}': async (client) => {
      const { token, passkeyId } = await passkeyOwner(client);
      return { path: `second-factors/passkeys/${passkeyId}`, token, body: { name: 'Contract phone' } };
    },
    'post second-factors/passkeys/confirmation-options': async (client) => ({ path: 'second-factors/passkeys/confirmation-options', token: (await passkeyOwner(client)).token, headers: { origin: browserOrigin() } }),
    'delete second-factors/passkeys/{passkeyId}': async (client) => {
      const { token, passkeyId, codes } = await passkeyOwner(client);
      return { path: `second-factors/passkeys/${passkeyId}`, token, body: { code: codes[0] } };
    },
    'post account/{id}/second-factors/reset': async (client) => {
      const token = await secondFactorOwner(client, true);
      const owner = (await created(http(app.url, token).get('/api/v1/account/current'), 200)).id as string;
      return { path: `account/${owner}/second-factors/reset`, body: { reason: 'Contract suite' } };
    },

    // the page of one's own acts on the caller (the administrator): its own things to change
    'patch me/profile': async () => ({ path: 'me/profile', body: { nickname: 'Contract' } }),
    // to the same password (no policy: no history), so later calls still sign in
    'post me/password': async () => ({ path: 'me/password', body: { current_password: ADMIN.password, new_password: ADMIN.password } }),
    // another session of the administrator, found by asking it which one it is
    'delete me/sessions/{id}': async () => {
      const other = http(app.url, await signIn(app.url));
      const sessions = (await created(other.get('/api/v2/me/sessions'), 200)) as unknown as Array<{ id: string; current: boolean }>;
      return { path: `me/sessions/${sessions.find((session) => session.current)!.id}` };
    },
    // a consent of the administrator's, given as the provider's consent page gives it
    'delete me/consents/{applicationId}': async (client) => {
      const applicationId = await sampleApplication(client);
      const me = (await created(client.get('/api/v1/account/current'), 200)).id as string;
      await app.app.get(CommandGateway).execute(new GiveApplicationConsentCommand(me, applicationId, ['openid', 'profile'], systemContext()));
      return { path: `me/consents/${applicationId}` };
    },
  };

  /** the recovery codes of each enrolled owner's session (a removal confirms with one) */
  const recoveryCodesOf = new Map<string, string[]>();
  /** each second-factor owner's password: a first factor's enrolment may take it (docs/adr/0025, 'Amendment') */
  const passwordOf = new Map<string, string>();
  /** a fresh account's session, with an authenticator app enrolled or not (docs/adr/0025) */
  const secondFactorOwner = async (client: Client, enrolled: boolean): Promise<string> => {
    const { username, password } = await createAccount(client);
    const token = await signIn(app.url, { username, password });
    passwordOf.set(token, password);
    if (!enrolled) return token;
    const own = http(app.url, token);
    const started = await created(own.post('/api/v2/second-factors/totp'));
    const confirmed = await created(own.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: totpCodeAt(started.secret, new Date()) }), 200);
    recoveryCodesOf.set(token, confirmed.recovery_codes);
    return token;
  };
  /** the console's address as a browser names it: the one the request goes to (a passkey's relying party comes only from an Origin naming the request's Host, docs/adr/0029) */
  const browserOrigin = () => new URL(app.url).origin;
  /** a fresh account's session with one passkey registered (docs/adr/0029), and its recovery codes */
  const passkeyOwner = async (client: Client) => {
    const token = await secondFactorOwner(client, false);
    const own = http(app.url, token);
    const options = (await created(own.post('/api/v2/second-factors/passkeys/registration-options', undefined, { origin: browserOrigin() }), 200)).options;
    const registered = await created(own.post('/api/v2/second-factors/passkeys', { name: 'Contract laptop', response: new SoftwareAuthenticator(browserOrigin()).register(options) }, { origin: browserOrigin() }));
    return { token, passkeyId: registered.id as string, codes: registered.recovery_codes as string[] };
  };

  /** the one thing a path's `{id}` names when no sample says otherwise */
  const IDS: Array<[RegExp, (client: Client) => Promise<string>]> = [
    [/^organization\/\{id\}/, sampleOrganization],
    [/^team\/\{id\}/, (client) => sampleTeam(client, [accountId])],
    [/^application\/\{id\}/, sampleApplication],
    [/^readers\/\{id\}/, (client) => sampleReader(client)],
  ];

  return async function sampleOf(route: DescribedRoute, prefix: RestPrefix, client: Client): Promise<Sample> {
    const own = SAMPLES[`${route.method} ${route.path}`];
    if (own) return own(client, prefix);
    if (/^(permission|role)\/\{id\}/.test(route.path)) {
      // permission and role rows: the id of the kind the path names, of a fresh organization's access
      const { permissionId, roleId } = await sampleAccess(client);
      return { path: route.path.replace('{id}', route.path.startsWith('permission/') ? permissionId : roleId), body: /\/(title|slug)$/.test(route.path) ? (route.path.endsWith('title') ? { title: 'Renamed' } : { slug: 'renamed' }) : undefined };
    }
    const named = IDS.find(([pattern]) => pattern.test(route.path));
    const path = route.path.replace('{id}', named ? await named[1](client) : accountId);
    if (/\{\w+\}/.test(path)) throw new Error(`${route.method} ${route.path}: no sample fills ${path}; add one to e2e/contract/rest-samples.ts`);
    return { path };
  };
}

