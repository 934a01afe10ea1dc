import { SYSTEM_PERMISSION_SLUGS } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, liveClient, makeSuperAdministrator, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * The permission matrix (docs/adr/0011; docs/security.md, '4. Access'): a super administrator, an
 * organization administrator of A, one of A's child A1 and a plain account, against every directory
 * route on REST v1, REST v2 and tRPC, each aimed at resources in A, in A1 and in B (a sibling of A).
 * The verdict (allowed or denied) must be the model's on every transport, and what lies outside an
 * administrator's subtree is always denied.
 *
 * Allowed writes are sent with a bad field beside valid ids where a real change would spoil the
 * fixture: their 400 proves the call got past authorization (the check runs before the body is
 * read); deletions act on a fresh resource made for each call.
 */
type Who = 'super' | 'adminA' | 'adminA1' | 'plain';
type Where = 'A' | 'A1' | 'B';
type Client = ReturnType<typeof http>;

interface Place {
  organization: string;
  member: string;
  team: string;
  permission: string;
  role: string;
  token: string;
}

/** What belongs to no organization, made once: an application with a permission and a role, a door reader. */
interface Unowned {
  application: string;
  applicationPermission: string;
  applicationRole: string;
  reader: string;
}

interface Fresh {
  account(): Promise<string>;
  token(): Promise<string>;
  organization(): Promise<string>;
  permission(): Promise<string>;
  role(): Promise<string>;
  team(): Promise<string>;
  teamMember(): Promise<string>;
  application(): Promise<string>;
  /** of the unowned application, like the two below */
  applicationPermission(): Promise<string>;
  applicationRole(): Promise<string>;
  /** the id of a permission switched on the unowned application's role */
  applicationRolePermission(): Promise<string>;
  reader(): Promise<string>;
  readerWithToken(): Promise<string>;
}

type RestCall = [method: string, path: string, body?: unknown];
type TrpcCall = [kind: 'query' | 'mutation', procedure: string, input: unknown];

interface RouteCase {
  name: string;
  /** REST versions the route answers on (v1 and v2 unless said) */
  versions?: Array<'v1' | 'v2'>;
  /** what the call is aimed at in place X or among the unowned (fresh resources are made in X for each call) */
  rest?: (x: Place, fresh: Fresh, unowned: Unowned) => Promise<RestCall> | RestCall;
  trpc?: (x: Place, fresh: Fresh, unowned: Unowned) => Promise<TrpcCall> | TrpcCall;
}

const page = { page: 1, limit: 10 };
/** an organization administrator here holds every system permission within its organization */
const ALL_PERMISSIONS = [...SYSTEM_PERMISSION_SLUGS];

/** Every directory route that acts on one resource, aimed at place X. */
const ROUTES: RouteCase[] = [
  // accounts
  { name: 'read an account', rest: (x) => ['GET', `account/${x.member}`], trpc: (x) => ['query', 'accounts.byId', { id: x.member }] },
  { name: 'update an account', rest: (x) => ['PUT', `account/${x.member}`, { email: 'not an e-mail' }], trpc: (x) => ['mutation', 'accounts.update', { id: x.member, profile: { email: 'not an e-mail' } }] },
  { name: 'set a picture', rest: (x) => ['PATCH', `account/${x.member}/profile-picture`, { picture: 42 }], trpc: (x) => ['mutation', 'accounts.setPicture', { id: x.member, picture: 42 }] },
  { name: 'read sign-in settings', rest: (x) => ['GET', `account/${x.member}/auth`], trpc: (x) => ['query', 'accounts.auth', { id: x.member }] },
  { name: 'write sign-in settings', rest: (x) => ['PUT', `account/${x.member}/auth`, { status_id: 'none' }], trpc: (x) => ['mutation', 'accounts.setAuth', { id: x.member, status_id: 'none' }] },
  { name: 'require a password change', rest: (x) => ['PATCH', `account/${x.member}/password/next-login`], trpc: (x) => ['mutation', 'accounts.requirePasswordChange', { id: x.member }] },
  { name: 'resend the activation', rest: (x) => ['POST', `account/${x.member}/activation`], trpc: (x) => ['mutation', 'accounts.resendActivation', { id: x.member }] },
  { name: 'unlock', rest: (x) => ['POST', `account/${x.member}/unlock`], trpc: (x) => ['mutation', 'accounts.unlock', { id: x.member }] },
  { name: 'set a password', rest: (x) => ['PUT', `account/${x.member}/password`, { password: '' }], trpc: (x) => ['mutation', 'accounts.setPassword', { id: x.member, password: '' }] },
  { name: 'set a password (PATCH)', rest: (x) => ['PATCH', `account/${x.member}/password`, { password: '' }] },
  { name: 'delete an account', rest: async (_x, fresh) => ['DELETE', `account/${await fresh.account()}`], trpc: async (_x, fresh) => ['mutation', 'accounts.delete', { id: await fresh.account() }] },
  { name: 'create an account in an organization', rest: (x) => ['POST', 'account', { organization: x.organization, username: '' }], trpc: (x) => ['mutation', 'accounts.create', { organization: x.organization, username: '' }] },
  // access tokens
  { name: "list an account's tokens", rest: (x) => ['GET', `account/${x.member}/bearer-tokens`] },
  { name: 'issue a token', rest: (x) => ['POST', 'token', { account_id: x.member, title: '' }], trpc: (x) => ['mutation', 'tokens.create', { account_id: x.member, title: '' }] },
  { name: 'read a token', rest: (x) => ['GET', `token/${x.token}`], trpc: (x) => ['query', 'tokens.byId', { id: x.token }] },
  { name: 'edit a token', rest: (x) => ['PUT', `token/${x.token}`, { title: '' }], trpc: (x) => ['mutation', 'tokens.update', { id: x.token, token: { title: '' } }] },
  { name: 'revoke a token', rest: async (_x, fresh) => ['DELETE', `token/${await fresh.token()}`], trpc: async (_x, fresh) => ['mutation', 'tokens.delete', { id: await fresh.token() }] },
  // organizations and membership
  { name: 'read an organization', rest: (x) => ['GET', `organization/${x.organization}`], trpc: (x) => ['query', 'organizations.byId', { id: x.organization }] },
  { name: 'edit an organization', rest: (x) => ['PATCH', `organization/details/${x.organization}`, { title: '' }], trpc: (x) => ['mutation', 'organizations.updateDetails', { id: x.organization, title: '' }] },
  { name: 'create a sub-organization', rest: (x) => ['POST', 'organization', { parent_id: x.organization, title: '' }], trpc: (x) => ['mutation', 'organizations.create', { parent_id: x.organization, title: '' }] },
  { name: 'delete an organization', rest: async (_x, fresh) => ['DELETE', `organization/${await fresh.organization()}`], trpc: async (_x, fresh) => ['mutation', 'organizations.delete', { id: await fresh.organization() }] },
  { name: 'list sub-organizations', rest: (x) => ['GET', `organization/${x.organization}/sub-orgs`], trpc: (x) => ['query', 'organizations.subOrganizations', { id: x.organization, ...page }] },
  { name: 'list members', rest: (x) => ['GET', `organization/${x.organization}/members/all`], trpc: (x) => ['query', 'organizations.members', { id: x.organization, ...page }] },
  { name: 'add a member', rest: (x) => ['POST', `organization/${x.organization}/member`, { account_id: x.member }], trpc: (x) => ['mutation', 'organizations.addMember', { id: x.organization, account_id: x.member }] },
  { name: 'remove a member', rest: async (x, fresh) => ['DELETE', `organization/${x.organization}/member/${await fresh.account()}`], trpc: async (x, fresh) => ['mutation', 'organizations.removeMember', { id: x.organization, account_id: await fresh.account() }] },
  { name: 'associate an account', rest: (x) => ['POST', `account/${x.member}/associate/organization`, { organization_id: x.organization }] },
  { name: "an account's organizations", rest: (x) => ['GET', `account/${x.member}/organizations`], trpc: (x) => ['query', 'organizations.ofAccount', { account_id: x.member, ...page }] },
  { name: "an account's organizations and roles", rest: (x) => ['GET', `account/${x.member}/organizations-and-roles`] },
  { name: 'leave an organization', rest: async (x, fresh) => ['DELETE', `account/${await fresh.account()}/leave-organization/${x.organization}`] },
  // permissions and roles
  { name: 'list permissions', rest: (x) => ['GET', `organization/${x.organization}/permissions`], trpc: (x) => ['query', 'organizations.permissions', { id: x.organization }] },
  { name: 'create a permission', rest: (x) => ['POST', 'permission', { organization_id: x.organization, title: '' }], trpc: (x) => ['mutation', 'organizations.createPermission', { organization_id: x.organization, title: '' }] },
  { name: 'rename a permission', rest: (x) => ['PATCH', `permission/${x.permission}/title`, { title: '' }], trpc: (x) => ['mutation', 'organizations.renamePermission', { id: x.permission, title: '' }] },
  { name: 're-slug a permission', rest: (x) => ['PATCH', `permission/${x.permission}/slug`, { slug: 'Not A Slug' }], trpc: (x) => ['mutation', 'organizations.reslugPermission', { id: x.permission, slug: 'Not A Slug' }] },
  { name: 'delete a permission', rest: async (_x, fresh) => ['DELETE', `permission/${await fresh.permission()}`], trpc: async (_x, fresh) => ['mutation', 'organizations.deletePermission', { id: await fresh.permission() }] },
  { name: "a permission's accounts", rest: (x) => ['GET', `permission/${x.permission}/associated-accounts`], trpc: (x) => ['query', 'organizations.permissionAccounts', { permission_id: x.permission }] },
  { name: 'list roles', rest: (x) => ['GET', `organization/${x.organization}/roles`], trpc: (x) => ['query', 'organizations.roles', { id: x.organization }] },
  { name: 'create a role', rest: (x) => ['POST', `organization/${x.organization}/role`, { title: '' }], trpc: (x) => ['mutation', 'organizations.createRole', { organization_id: x.organization, title: '' }] },
  { name: 'rename a role', rest: (x) => ['PATCH', `role/${x.role}/title`, { title: '' }], trpc: (x) => ['mutation', 'organizations.renameRole', { id: x.role, title: '' }] },
  { name: 're-slug a role', rest: (x) => ['PATCH', `role/${x.role}/slug`, { slug: 'Not A Slug' }], trpc: (x) => ['mutation', 'organizations.reslugRole', { id: x.role, slug: 'Not A Slug' }] },
  { name: 'delete a role', rest: async (_x, fresh) => ['DELETE', `role/${await fresh.role()}`], trpc: async (_x, fresh) => ['mutation', 'organizations.deleteRole', { id: await fresh.role() }] },
  { name: "a role's accounts", rest: (x) => ['GET', `role/${x.role}/associated-accounts`], trpc: (x) => ['query', 'organizations.roleAccounts', { role_id: x.role }] },
  { name: 'switch a permission on a role', rest: (x) => ['POST', `role/${x.role}/permission`, { permission_id: x.permission }], trpc: (x) => ['mutation', 'organizations.setRolePermission', { role_id: x.role, permission_id: x.permission, enabled: true }] },
  { name: 'switch a permission off a role', rest: (x) => ['DELETE', `role/${x.role}/permission?permission_id=${x.permission}&bad=1`] },
  { name: "a member's roles", rest: (x) => ['GET', `organization/${x.organization}/member/${x.member}/roles`], trpc: (x) => ['query', 'organizations.memberRoles', { id: x.organization, account_id: x.member }] },
  { name: 'grant a role to a member', rest: (x) => ['POST', `organization/${x.organization}/account-role`, { account_id: x.member, role_id: x.role }], trpc: (x) => ['mutation', 'organizations.setMemberRole', { id: x.organization, account_id: x.member, role_id: x.role, associated: true }] },
  { name: 'take a role from a member', rest: (x) => ['DELETE', `organization/${x.organization}/account-role?account_id=${x.member}&role_id=${x.role}`] },
  { name: "toggle an account's role", rest: (x) => ['POST', `account/${x.member}/toggle-role`, { role_id: x.role }] },
  // teams
  { name: 'read a team', rest: (x) => ['GET', `team/${x.team}`], trpc: (x) => ['query', 'teams.byId', { id: x.team }] },
  { name: 'rename a team', rest: (x) => ['PATCH', `team/${x.team}/title`, { title: '' }], trpc: (x) => ['mutation', 'teams.rename', { id: x.team, title: '' }] },
  { name: "a team's accounts", rest: (x) => ['GET', `team/${x.team}/associated-accounts`], trpc: (x) => ['query', 'teams.members', { id: x.team }] },
  { name: 'delete a team', rest: async (_x, fresh) => ['DELETE', `team/${await fresh.team()}`], trpc: async (_x, fresh) => ['mutation', 'teams.delete', { id: await fresh.team() }] },
  { name: 'create a team', rest: (x) => ['POST', 'team', { organization: x.organization, title: '' }], trpc: (x) => ['mutation', 'teams.create', { organization: x.organization, title: '' }] },
  { name: "an account's teams", rest: (x) => ['GET', `account/${x.member}/teams`], trpc: (x) => ['query', 'teams.ofAccount', { account_id: x.member, ...page }] },
  { name: 'join a team', rest: (x) => ['POST', `account/${x.member}/associate/team`, { team_id: x.team }], trpc: (x) => ['mutation', 'teams.addMember', { team_id: x.team, account_id: x.member }] },
  // attendance and applications, about one account
  { name: "an account's smart cards", rest: (x) => ['GET', `account/${x.member}/smartcards`], trpc: (x) => ['query', 'smartCards.ofAccount', { account_id: x.member }] },
  { name: 'register mode for an account', rest: (x) => ['POST', `scanner/mode/register/${x.member}`], trpc: (x) => ['mutation', 'smartCards.startRegisterMode', { account_id: x.member }] },
  { name: "an account's arrivals and departures", trpc: (x) => ['query', 'smartCards.slots', { account_id: x.member }] },
  { name: "an account's calendar", rest: (x) => ['GET', `account/${x.member}/calendar`], trpc: (x) => ['query', 'calendar.events', { account_id: x.member, from: '2026-11-01', to: '2026-11-30' }] },
  { name: 'plan a calendar event', rest: (x) => ['POST', `account/${x.member}/tracking-status`, { title: 42 }], trpc: (x) => ['mutation', 'calendar.create', { account_id: x.member, title: 42 }] },
  { name: "an account's attendance", rest: (x) => ['GET', `account/${x.member}/attendance/weekly`], trpc: (x) => ['query', 'attendanceReports.ofAccount', { account_id: x.member, selected: 'weekly' }] },
  { name: "an account's application roles", versions: ['v2'], rest: (x) => ['GET', `account/${x.member}/application-roles`], trpc: (x) => ['query', 'applications.rolesOfAccount', { account_id: x.member }] },
  { name: 'leave a team', rest: async (x, fresh) => ['DELETE', `account/${await fresh.teamMember()}/leave-team/${x.team}`], trpc: async (x, fresh) => ['mutation', 'teams.removeMember', { team_id: x.team, account_id: await fresh.teamMember() }] },
  // the history of one entity, and time travel, where the entity is
  { name: "an account's history", versions: ['v2'], rest: (x) => ['GET', `account/${x.member}/history`], trpc: (x) => ['query', 'audit.history', { kind: 'account', id: x.member }] },
  { name: "an organization's history", versions: ['v2'], rest: (x) => ['GET', `organization/${x.organization}/history`], trpc: (x) => ['query', 'audit.history', { kind: 'organization', id: x.organization }] },
  { name: "a team's history", versions: ['v2'], rest: (x) => ['GET', `team/${x.team}/history`], trpc: (x) => ['query', 'audit.history', { kind: 'team', id: x.team }] },
  { name: 'an account as it was', versions: ['v2'], rest: (x) => ['GET', `account/${x.member}/as-of?at=${new Date().toISOString()}`], trpc: (x) => ['query', 'audit.asOf', { kind: 'account', id: x.member, at: new Date().toISOString() }] },
  { name: 'an organization as it was', versions: ['v2'], rest: (x) => ['GET', `organization/${x.organization}/as-of?at=${new Date().toISOString()}`], trpc: (x) => ['query', 'audit.asOf', { kind: 'organization', id: x.organization, at: new Date().toISOString() }] },
];

/**
 * Lists and catalogues: allowed to whoever holds the permission anywhere; lists are filtered (below).
 * So is reading one application or door reader: they belong to no organization, and their routes
 * read them with the permission held anywhere (only writing them needs it everywhere).
 */
const LISTS: RouteCase[] = [
  { name: 'accounts', rest: () => ['GET', 'accounts'], trpc: () => ['query', 'accounts.list', {}] },
  { name: 'find accounts', rest: () => ['GET', 'account/find?username=ada'], trpc: () => ['query', 'accounts.findByUsername', { username: 'ada' }] },
  { name: 'account statuses', rest: () => ['GET', 'account/statuses'], trpc: () => ['query', 'accounts.statuses', undefined] },
  { name: 'time zones', rest: () => ['GET', 'server/supported-time-zones'], trpc: () => ['query', 'server.timeZones', undefined] },
  { name: 'organizations', rest: () => ['GET', 'organizations'], trpc: () => ['query', 'organizations.list', {}] },
  { name: 'find organizations', rest: () => ['GET', 'organization/find?organization='], trpc: () => ['query', 'organizations.find', { organization: '' }] },
  { name: 'teams', rest: () => ['GET', 'teams'], trpc: () => ['query', 'teams.list', {}] },
  { name: 'find teams', rest: () => ['GET', 'team/find?team='], trpc: () => ['query', 'teams.find', { team: '' }] },
  { name: 'tokens', rest: () => ['GET', 'tokens'], trpc: () => ['query', 'tokens.list', {}] },
  { name: 'system permissions', rest: () => ['GET', 'permissions/system'], trpc: () => ['query', 'tokens.systemPermissions', undefined] },
  { name: 'password policies', rest: () => ['GET', 'policies'], trpc: () => ['query', 'policies.list', undefined] },
  { name: 'attendance statistics', rest: () => ['GET', 'accounts/statistics/attendance'], trpc: () => ['query', 'attendanceReports.statistics', {}] },
  { name: 'read an application', versions: ['v2'], rest: (_x, _fresh, u) => ['GET', `application/${u.application}`], trpc: (_x, _fresh, u) => ['query', 'applications.byId', { id: u.application }] },
  { name: 'read a door reader', versions: ['v2'], rest: (_x, _fresh, u) => ['GET', `readers/${u.reader}`], trpc: (_x, _fresh, u) => ['query', 'readers.byId', { id: u.reader }] },
];

/** What belongs to no organization: only the super administrator. */
const GLOBAL: RouteCase[] = [
  { name: 'create a policy', rest: () => ['POST', 'policy', { title: '' }], trpc: () => ['mutation', 'policies.create', { title: '' }] },
  { name: 'import accounts', rest: () => ['POST', 'accounts/import/csv', { rows: 'none' }], trpc: () => ['mutation', 'accounts.importCsv', { rows: 'none' }] },
  { name: 'create a top-level organization', rest: () => ['POST', 'organization', { title: '' }], trpc: () => ['mutation', 'organizations.create', { title: '' }] },
  { name: 'create an application', versions: ['v2'], rest: () => ['POST', 'application', { title: '' }], trpc: () => ['mutation', 'applications.create', { title: '' }] },
  { name: 'register a door reader', versions: ['v2'], rest: () => ['POST', 'readers', { name: '' }], trpc: () => ['mutation', 'readers.register', { name: '' }] },
  { name: 'create an attendance status', versions: ['v2'], rest: () => ['POST', 'states/attendance', { title: '' }], trpc: () => ['mutation', 'attendanceStatuses.create', { title: '' }] },
  { name: 'read the event log', versions: ['v2'], rest: () => ['GET', 'audit/events'], trpc: () => ['query', 'audit.events', {}] },
  { name: 'create an account in no organization', rest: () => ['POST', 'account', { username: '' }], trpc: () => ['mutation', 'accounts.create', { username: '' }] },
  // one application, its client, permissions and roles
  { name: 'update an application', versions: ['v2'], rest: (_x, _fresh, u) => ['PATCH', `application/${u.application}/basic`, { title: '' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.updateBasic', { id: u.application, title: '' }] },
  { name: "set an application's scopes", versions: ['v2'], rest: (_x, _fresh, u) => ['PUT', `application/${u.application}/scopes`, { scopes: 'none' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.setScopes', { id: u.application, scopes: 'none' }] },
  { name: "configure an application's client", versions: ['v2'], rest: (_x, _fresh, u) => ['PUT', `application/${u.application}/client`, { client_type: 'none' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.configureClient', { id: u.application, client_type: 'none' }] },
  { name: "rotate an application's secret", versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `application/${u.application}/client/secret`], trpc: (_x, _fresh, u) => ['mutation', 'applications.rotateSecret', { id: u.application }] },
  { name: 'delete an application', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `application/${await fresh.application()}`], trpc: async (_x, fresh) => ['mutation', 'applications.delete', { id: await fresh.application() }] },
  { name: 'add an application permission', versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `application/${u.application}/permission`, { slug: '' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.addPermission', { application_id: u.application, slug: '' }] },
  { name: 'edit an application permission', versions: ['v2'], rest: (_x, _fresh, u) => ['PATCH', `application/permission/${u.applicationPermission}`, { slug: '' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.updatePermission', { id: u.applicationPermission, slug: '' }] },
  { name: 'remove an application permission', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `application/permission/${await fresh.applicationPermission()}`], trpc: async (_x, fresh) => ['mutation', 'applications.removePermission', { id: await fresh.applicationPermission() }] },
  { name: 'create an application role', versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `application/${u.application}/role`, { title: '' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.createRole', { application_id: u.application, title: '' }] },
  { name: 'rename an application role', versions: ['v2'], rest: (_x, _fresh, u) => ['PATCH', `application/role/${u.applicationRole}/title`, { title: '' }], trpc: (_x, _fresh, u) => ['mutation', 'applications.renameRole', { id: u.applicationRole, title: '' }] },
  { name: 'delete an application role', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `application/role/${await fresh.applicationRole()}`], trpc: async (_x, fresh) => ['mutation', 'applications.deleteRole', { id: await fresh.applicationRole() }] },
  // switching on what is on writes nothing
  { name: 'switch a permission on an application role', versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `application/role/${u.applicationRole}/add-permission/${u.applicationPermission}`], trpc: (_x, _fresh, u) => ['mutation', 'applications.addRolePermission', { role_id: u.applicationRole, permission_id: u.applicationPermission }] },
  { name: 'switch a permission off an application role', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `application/role/remove-permission/${await fresh.applicationRolePermission()}`], trpc: async (_x, fresh) => ['mutation', 'applications.removeRolePermission', { id: await fresh.applicationRolePermission() }] },
  // an application belongs to no organization: giving its roles to anyone is the root's (docs/adr/0011,
  // 'Delegation stays inside the subtree')
  { name: 'grant an application role', versions: ['v2'], rest: (x) => ['POST', `account/${x.member}/application-role`, { role_id: 'not a role' }], trpc: (x) => ['mutation', 'applications.setAccountRole', { account_id: x.member, role_id: 'not a role', associated: true }] },
  { name: 'take an application role', versions: ['v2'], rest: (x) => ['DELETE', `account/${x.member}/application-role?role_id=not-a-role`] },
  { name: "an application's history", versions: ['v2'], rest: (_x, _fresh, u) => ['GET', `application/${u.application}/history`], trpc: (_x, _fresh, u) => ['query', 'audit.history', { kind: 'application', id: u.application }] },
  // one door reader
  { name: 'rename a door reader', versions: ['v2'], rest: (_x, _fresh, u) => ['PATCH', `readers/${u.reader}/name`, { name: '' }], trpc: (_x, _fresh, u) => ['mutation', 'readers.rename', { id: u.reader, name: '' }] },
  { name: 'move a door reader', versions: ['v2'], rest: (_x, _fresh, u) => ['PATCH', `readers/${u.reader}/door`, { door: '' }], trpc: (_x, _fresh, u) => ['mutation', 'readers.move', { id: u.reader, door: '' }] },
  { name: "reset a reader's numbering", versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `readers/${u.reader}/reset-sequence`, { reason: '' }], trpc: (_x, _fresh, u) => ['mutation', 'readers.resetSequence', { id: u.reader, reason: '' }] },
  { name: 'issue a reader token', versions: ['v2'], rest: (_x, _fresh, u) => ['POST', `readers/${u.reader}/token`], trpc: (_x, _fresh, u) => ['mutation', 'readers.issueToken', { id: u.reader }] },
  { name: 'revoke a reader token', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `readers/${await fresh.readerWithToken()}/token`], trpc: async (_x, fresh) => ['mutation', 'readers.revokeToken', { id: await fresh.readerWithToken() }] },
  { name: 'delete a door reader', versions: ['v2'], rest: async (_x, fresh) => ['DELETE', `readers/${await fresh.reader()}`], trpc: async (_x, fresh) => ['mutation', 'readers.delete', { id: await fresh.reader() }] },
  { name: "a door reader's history", versions: ['v2'], rest: (_x, _fresh, u) => ['GET', `readers/${u.reader}/history`], trpc: (_x, _fresh, u) => ['query', 'audit.history', { kind: 'reader', id: u.reader }] },
];

const REACH: Record<Who, Where[] | 'everywhere'> = { super: 'everywhere', adminA: ['A', 'A1'], adminA1: ['A1'], plain: [] };

type Verdict = 'allowed' | 'denied';

function verdictOf(status: number, code: string | undefined): Verdict | `unexpected ${number} ${string}` {
  if (status === 403 && code === 'auth.forbidden') return 'denied';
  if (status === 404 && code?.endsWith('.not_found')) return 'denied';
  if (status < 300 || [400, 409, 422].includes(status)) return 'allowed';
  return `unexpected ${status} ${code ?? ''}`;
}

describe.each(storageKinds())('the permission matrix (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  const clients = {} as Record<Who, Client>;
  const tokens = {} as Record<Who, string>;
  const places = {} as Record<Where, Place>;
  const unowned = {} as Unowned;
  let seq = 0;
  const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${(seq += 1)}`;

  const created = async (answer: Promise<{ status: number; body: { id?: string; data?: { id: string } } }>) => {
    const { status, body } = await answer;
    if (status >= 300) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
    return body.data?.id ?? body.id!;
  };
  const organization = (title: string, parent: string | null) => created(admin.post('/api/v2/organization', { title, description: '', parent_id: parent }));
  const accountIn = async (organizationId: string) => (await createAccount(admin, { organization: organizationId })).id;
  const permissionIn = (organizationId: string, slug = `invoices:${(seq += 1)}`) => created(admin.post('/api/v2/permission', { organization_id: organizationId, title: unique('Permission'), slug, description: '' }));
  const roleIn = (organizationId: string, permissions: string[]) =>
    created(admin.post(`/api/v2/organization/${organizationId}/role`, { title: unique('Role'), slug: `role-${(seq += 1)}`, description: '', permissions }));
  const teamIn = (organizationId: string) => created(admin.post('/api/v2/team', { title: unique('Team'), organization: organizationId }));
  const tokenOf = (accountId: string) => created(admin.post('/api/v2/token', { title: unique('Token'), forever: true, permissions: ['accounts:read'], restrictions: [], account_id: accountId }));
  // an application's id is in its details' `app`
  const application = () => created(admin.post('/api/v2/application', { title: unique('Application') }).then((answer) => ({ ...answer, body: answer.body.data?.app ?? answer.body })));
  const applicationPermissionIn = (applicationId: string) => created(admin.post(`/api/v2/application/${applicationId}/permission`, { slug: `invoices.${(seq += 1)}`, description: '' }));
  const applicationRoleIn = (applicationId: string, permissions: string[]) => created(admin.post(`/api/v2/application/${applicationId}/role`, { title: unique('Role'), slug: `role-${(seq += 1)}`, permissions }));
  const reader = () => created(admin.post('/api/v2/readers', { name: unique('Reader'), door: 'Matrix entrance', role: 'door' }));

  const freshIn = (x: Place): Fresh => ({
    account: () => accountIn(x.organization),
    token: () => tokenOf(x.member),
    organization: () => organization(unique('Fresh'), x.organization),
    permission: () => permissionIn(x.organization),
    role: () => roleIn(x.organization, []),
    team: () => teamIn(x.organization),
    teamMember: async () => {
      const accountId = await accountIn(x.organization);
      await created(admin.post(`/api/v2/account/${accountId}/associate/team`, { team_id: x.team }).then((answer) => ({ ...answer, body: { id: accountId } })));
      return accountId;
    },
    application,
    applicationPermission: () => applicationPermissionIn(unowned.application),
    applicationRole: () => applicationRoleIn(unowned.application, []),
    applicationRolePermission: async () =>
      created(admin.post(`/api/v2/application/role/${unowned.applicationRole}/add-permission/${await applicationPermissionIn(unowned.application)}`)),
    reader,
    readerWithToken: async () => {
      const readerId = await reader();
      await created(admin.post(`/api/v2/readers/${readerId}/token`).then((answer) => ({ ...answer, body: { id: readerId } })));
      return readerId;
    },
  });

  /** an organization administrator: a member of `organizationId` holding a role with every directory permission there */
  const administratorOf = async (organizationId: string, slugs: string[] = ALL_PERMISSIONS) => {
    const permissions = [];
    for (const slug of slugs) permissions.push(await permissionIn(organizationId, slug));
    const role = await roleIn(organizationId, permissions);
    const account = await createAccount(admin, { organization: organizationId });
    const granted = await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: account.id, role_id: role });
    if (granted.status !== 200) throw new Error(`fixture: ${granted.status} ${JSON.stringify(granted.body)}`);
    return account;
  };
  const organizationAdministrator = async (organizationId: string) => {
    const account = await administratorOf(organizationId);
    return signIn(app.url, { username: account.username, password: account.password });
  };

  const place = async (organizationId: string): Promise<Place> => {
    const member = await accountIn(organizationId);
    const permission = await permissionIn(organizationId);
    return { organization: organizationId, member, team: await teamIn(organizationId), permission, role: await roleIn(organizationId, [permission]), token: await tokenOf(member) };
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    tokens.super = await signIn(app.url);
    admin = http(app.url, tokens.super);
    const a = await organization(unique('A'), null);
    const a1 = await organization(unique('A1'), a);
    const b = await organization(unique('B'), null);
    places.A = await place(a);
    places.A1 = await place(a1);
    places.B = await place(b);
    unowned.application = await application();
    unowned.applicationPermission = await applicationPermissionIn(unowned.application);
    unowned.applicationRole = await applicationRoleIn(unowned.application, [unowned.applicationPermission]);
    unowned.reader = await reader();
    clients.super = admin;
    tokens.adminA = await organizationAdministrator(a);
    tokens.adminA1 = await organizationAdministrator(a1);
    clients.adminA = http(app.url, tokens.adminA);
    clients.adminA1 = http(app.url, tokens.adminA1);
    const plain = await createAccount(admin, { organization: a });
    clients.plain = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
  });

  const callRest = async (client: Client, prefix: string, [method, path, body]: RestCall) => {
    const answer = await client.raw(method, `${prefix}/${path}`, body);
    return verdictOf(answer.status, answer.body?.error?.code);
  };
  const callTrpc = async (client: Client, [type, procedure, input]: TrpcCall) => {
    const answer =
      type === 'query'
        ? await client.get(`/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`)
        : await client.post(`/trpc/${procedure}`, input ?? {});
    return verdictOf(answer.status, answer.body?.error?.data?.apiError?.code);
  };

  /** every transport's verdict for one route, principal and place */
  const verdicts = async (route: RouteCase, who: Who, x: Place) => {
    const fresh = freshIn(x);
    const found: Record<string, string> = {};
    if (route.rest) {
      for (const version of route.versions ?? ['v1', 'v2']) found[version] = await callRest(clients[who], `/api/${version}`, await route.rest(x, fresh, unowned));
    }
    if (route.trpc) found.trpc = await callTrpc(clients[who], await route.trpc(x, fresh, unowned));
    return found;
  };

  const expected = (who: Who, where: Where): Verdict => {
    const reach = REACH[who];
    return reach === 'everywhere' || reach.includes(where) ? 'allowed' : 'denied';
  };

  // before the matrix adds its fresh resources, so a page of 100 holds everything
  it('filters every list to the administrator’s subtree, on v1, v2 and tRPC alike', async () => {
    // v1 answers the page, v2 wraps it in `data`, tRPC in `result.data`
    const idsOf = (body: unknown): string[] => {
      const rows = (body as { data: unknown }).data;
      return Array.isArray(rows) ? (rows as Array<{ id: string }>).map((row) => row.id) : idsOf(rows);
    };
    const listed = async (who: Who, rest: string, procedure: string, input: unknown) => {
      const v1 = idsOf((await clients[who].get(`/api/v1/${rest}`)).body);
      const v2 = idsOf((await clients[who].get(`/api/v2/${rest}`)).body);
      const trpc = idsOf((await clients[who].get(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)).body.result.data);
      expect(v2, `${who} ${rest} v2`).toEqual(v1);
      expect(trpc, `${who} ${procedure}`).toEqual(v1);
      return new Set(v1);
    };
    for (const [who, sees, hidden] of [
      ['adminA', ['A', 'A1'], ['B']],
      ['adminA1', ['A1'], ['A', 'B']],
      ['super', ['A', 'A1', 'B'], []],
    ] as Array<[Who, Where[], Where[]]>) {
      const accounts = await listed(who, 'accounts?limit=100', 'accounts.list', { limit: 100 });
      const organizations = await listed(who, 'organizations?limit=100', 'organizations.list', { limit: 100 });
      const teams = await listed(who, 'teams?limit=100', 'teams.list', { limit: 100 });
      const tokens = await listed(who, 'tokens?limit=100', 'tokens.list', { limit: 100 });
      for (const where of sees) {
        expect(accounts.has(places[where].member), `${who} sees the member of ${where}`).toBe(true);
        expect(organizations.has(places[where].organization), `${who} sees ${where}`).toBe(true);
        expect(teams.has(places[where].team), `${who} sees the team of ${where}`).toBe(true);
        expect(tokens.has(places[where].token), `${who} sees the token of ${where}`).toBe(true);
      }
      for (const where of hidden) {
        expect(accounts.has(places[where].member), `${who} does not see the member of ${where}`).toBe(false);
        expect(organizations.has(places[where].organization), `${who} does not see ${where}`).toBe(false);
        expect(teams.has(places[where].team), `${who} does not see the team of ${where}`).toBe(false);
        expect(tokens.has(places[where].token), `${who} does not see the token of ${where}`).toBe(false);
      }
    }
    // the super administrator is never within an organization administrator's reach
    const superId = (await admin.get('/api/v2/account/current')).body.data.id as string;
    expect((await clients.adminA.get(`/api/v2/account/${superId}`)).status).toBe(404);
  });

  it.each(['super', 'adminA', 'adminA1', 'plain'] as Who[])('gives %s the same verdict on v1, v2 and tRPC for every route on A, A1 and B', async (who) => {
    const mismatches: string[] = [];
    for (const route of ROUTES) {
      for (const where of ['A', 'A1', 'B'] as Where[]) {
        const want = expected(who, where);
        for (const [transport, got] of Object.entries(await verdicts(route, who, places[where]))) {
          if (got !== want) mismatches.push(`${route.name} on ${where} over ${transport}: ${got}, expected ${want}`);
        }
      }
    }
    for (const route of LISTS) {
      const want: Verdict = who === 'plain' ? 'denied' : 'allowed';
      for (const [transport, got] of Object.entries(await verdicts(route, who, places.A))) if (got !== want) mismatches.push(`list ${route.name} over ${transport}: ${got}, expected ${want}`);
    }
    for (const route of GLOBAL) {
      const want: Verdict = who === 'super' ? 'allowed' : 'denied';
      for (const [transport, got] of Object.entries(await verdicts(route, who, places.A))) if (got !== want) mismatches.push(`${route.name} over ${transport}: ${got}, expected ${want}`);
    }
    expect(mismatches).toEqual([]);
  }, 180_000);

  it('pushes an account change live only to those who may read that account', async () => {
    const { client, close } = liveClient(app.url, tokens.adminA1);
    const received: string[] = [];
    await new Promise<void>((resolve) => {
      const subscription = client.live.accounts.subscribe(undefined, { onStarted: () => resolve(), onData: (message) => message.kind === 'account.changed' && received.push(message.accountId) });
      afterAll(() => subscription.unsubscribe());
    });
    try {
      const elsewhere = [await accountIn(places.B.organization), await accountIn(places.A.organization)];
      const within = await accountIn(places.A1.organization);
      // pushes go out in order: once the A1 account's has come, those made before it were withheld
      await expect.poll(() => received, { timeout: 5000 }).toContain(within);
      for (const id of elsewhere) expect(received).not.toContain(id);
    } finally {
      close();
    }
  });

  it('pushes attendance live only to those who may read the account it is about, a commit at a time', async () => {
    const reader = await created(admin.post('/api/v2/readers', { name: unique('Door'), door: 'Matrix entrance', role: 'door' }));
    const readerToken = (await admin.post(`/api/v2/readers/${reader}/token`)).body.data.token as string;
    const cards: Record<Where, string> = { A: '', A1: '', B: '' };
    for (const where of ['A', 'A1', 'B'] as const) {
      cards[where] = `04${(0x10000000 + Math.floor(Math.random() * 0xefffffff)).toString(16).toUpperCase()}`;
      const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: cards[where], account_id: places[where].member });
      if (assigned.status !== 201) throw new Error(`fixture: ${assigned.status} ${JSON.stringify(assigned.body)}`);
    }
    const watchers = (['super', 'adminA', 'adminA1'] as const).map((who) => {
      const { client, close } = liveClient(app.url, tokens[who]);
      const batches: string[][] = [];
      const started = new Promise<void>((resolve) => {
        const subscription = client.live.attendance.subscribe(undefined, {
          onStarted: () => resolve(),
          onData: (messages) => batches.push(messages.filter((message) => message.kind === 'attendance.scan').map((message) => (message as { account_id: string | null }).account_id ?? 'none')),
        });
        afterAll(() => subscription.unsubscribe());
      });
      return { who, batches, started, close };
    });
    try {
      await Promise.all(watchers.map((watcher) => watcher.started));
      // one request, one commit: the three scans reach each console as one array, each filtered to what it may see
      const now = Date.now();
      const scans = (['A', 'A1', 'B'] as const).map((where, index) => ({ card_uid: cards[where], sequence: index + 1, device_time: new Date(now - (3 - index) * 1000).toISOString() }));
      const posted = await http(app.url, readerToken).post('/api/v2/reader/scans/batch', { sent_at: new Date(now).toISOString(), scans });
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      const seen = { super: [places.A.member, places.A1.member, places.B.member], adminA: [places.A.member, places.A1.member], adminA1: [places.A1.member] };
      for (const watcher of watchers) {
        await expect.poll(() => watcher.batches.flat().length, { timeout: 5000 }).toBeGreaterThan(0);
        expect(watcher.batches, watcher.who).toEqual([seen[watcher.who]]);
      }
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  });

  it('tells the console what the signed-in account may do, and where', async () => {
    const me = async (who: Who) => (await clients[who].get(`/trpc/auth.me`)).body.result.data.grants as { everywhere: string[]; anywhere: string[]; within: Record<string, string[]> };
    expect((await me('super')).everywhere).toEqual(expect.arrayContaining(['accounts:write', 'policies:write']));
    const adminA = await me('adminA');
    expect(adminA.everywhere).toEqual([]);
    expect(adminA.anywhere).toEqual(expect.arrayContaining(ALL_PERMISSIONS));
    expect(adminA.within['accounts:write']).toEqual(expect.arrayContaining([places.A.organization, places.A1.organization]));
    expect(adminA.within['accounts:write']).not.toContain(places.B.organization);
    expect((await me('adminA1')).within['accounts:write']).not.toContain(places.A.organization);
    expect(await me('plain')).toEqual({ everywhere: [], anywhere: [], within: {} });
  });

  it('takes a revoked grant away on the very next call, and a token never exceeds its holder', async () => {
    const d = await organization(unique('D'), places.A1.organization);
    const member = await accountIn(d);
    const deputy = await createAccount(admin, { organization: d });
    const readAccounts = await permissionIn(d, 'accounts:read');
    const role = await roleIn(d, [readAccounts]);
    expect((await admin.post(`/api/v2/organization/${d}/account-role`, { account_id: deputy.id, role_id: role })).status).toBe(200);
    const session = http(app.url, await signIn(app.url, { username: deputy.username, password: deputy.password }));
    const token = (await admin.post('/api/v2/token', { title: unique('Deputy'), forever: true, permissions: ['accounts:read', 'accounts:write'], restrictions: [], account_id: deputy.id })).body;
    const bearer = http(app.url, (token.data ?? token).token as string);
    expect((await session.get(`/api/v2/account/${member}`)).status).toBe(200);
    expect((await bearer.get(`/api/v2/account/${member}`)).status).toBe(200);
    // the token lists accounts:write, but its holder holds it nowhere
    expect((await bearer.raw('PUT', `/api/v2/account/${member}`, { email: 'not an e-mail' })).status).toBe(403);
    expect((await bearer.get(`/api/v2/account/${places.A1.member}`)).status).toBe(404);

    // switching the permission off the role takes it from session and token at once
    expect((await admin.raw('DELETE', `/api/v2/role/${role}/permission?permission_id=${readAccounts}`)).status).toBe(200);
    expect((await session.get(`/api/v2/account/${member}`)).status).toBe(403);
    expect((await bearer.get(`/api/v2/account/${member}`)).status).toBe(403);
    expect((await admin.post(`/api/v2/role/${role}/permission`, { permission_id: readAccounts })).status).toBe(200);
    expect((await session.get(`/api/v2/account/${member}`)).status).toBe(200);

    // moving A1 out of A: A's administrator loses it on the next call
    expect((await clients.adminA.get(`/api/v2/organization/${places.A1.organization}`)).status).toBe(200);
    const a1 = (await admin.get(`/api/v2/organization/${places.A1.organization}`)).body.data as { title: string };
    expect((await admin.raw('PATCH', `/api/v2/organization/details/${places.A1.organization}`, { title: a1.title, description: '', parent_id: null })).status).toBe(200);
    try {
      expect((await clients.adminA.get(`/api/v2/organization/${places.A1.organization}`)).status).toBe(404);
    } finally {
      expect((await admin.raw('PATCH', `/api/v2/organization/details/${places.A1.organization}`, { title: a1.title, description: '', parent_id: places.A.organization })).status).toBe(200);
    }
    expect((await clients.adminA.get(`/api/v2/organization/${places.A1.organization}`)).status).toBe(200);
  });

  /**
   * Delegation stays inside the subtree (docs/adr/0011): an account that is a member of A and the
   * administrator of B is A's administrator's only as far as its membership and roles in A go.
   * Everything that acts on the account itself is refused on REST v1, v2, /api and tRPC, with real
   * bodies (a refusal that did not hold would change the account), and the escape the attack took,
   * set its password and sign in as it, does not work.
   */
  it('lets an administrator act on a shared member only as far as its membership and roles go, on every surface', async () => {
    const shared = await administratorOf(places.B.organization);
    expect((await admin.post(`/api/v2/organization/${places.A.organization}/member`, { account_id: shared.id })).status).toBe(201);
    const sharedToken = await tokenOf(shared.id);
    const chosen = 'Escape through the shared member 42!';
    const id = shared.id;
    const whole: Array<{ name: string; rest?: RestCall; versions?: string[]; trpc?: TrpcCall }> = [
      { name: 'mint a token', rest: ['POST', 'token', { account_id: id, title: 'Escape', forever: true, permissions: ['accounts:write', 'organizations:write'], restrictions: [] }], trpc: ['mutation', 'tokens.create', { account_id: id, title: 'Escape', forever: true, permissions: ['accounts:write'], restrictions: [] }] },
      { name: 'edit its token', rest: ['PUT', `token/${sharedToken}`, { title: 'Escape', forever: true, permissions: ['accounts:write'], restrictions: [] }], trpc: ['mutation', 'tokens.update', { id: sharedToken, token: { title: 'Escape', forever: true, permissions: ['accounts:write'], restrictions: [] } }] },
      { name: 'revoke its token', rest: ['DELETE', `token/${sharedToken}`], trpc: ['mutation', 'tokens.delete', { id: sharedToken }] },
      { name: 'set its password', rest: ['PUT', `account/${id}/password`, { password: chosen }], trpc: ['mutation', 'accounts.setPassword', { id, password: chosen }] },
      { name: 'set its password (PATCH)', rest: ['PATCH', `account/${id}/password`, { password: chosen }] },
      { name: 'disable it', rest: ['PUT', `account/${id}/auth`, { status_id: 2 }], trpc: ['mutation', 'accounts.setAuth', { id, status_id: 2 }] },
      { name: 'require a password change', rest: ['PATCH', `account/${id}/password/next-login`], trpc: ['mutation', 'accounts.requirePasswordChange', { id }] },
      { name: 'unlock it', rest: ['POST', `account/${id}/unlock`], trpc: ['mutation', 'accounts.unlock', { id }] },
      { name: 'resend its activation', rest: ['POST', `account/${id}/activation`], trpc: ['mutation', 'accounts.resendActivation', { id }] },
      { name: 'change its profile', rest: ['PUT', `account/${id}`, { first_name: 'Mallory', last_name: 'Escape', email: `mallory.${Date.now()}@example.com` }], trpc: ['mutation', 'accounts.update', { id, profile: { first_name: 'Mallory', last_name: 'Escape', email: `mallory.${Date.now()}@example.org` } }] },
      { name: 'give it an application role', versions: ['v2', 'api'], rest: ['POST', `account/${id}/application-role`, { role_id: unowned.applicationRole }], trpc: ['mutation', 'applications.setAccountRole', { account_id: id, role_id: unowned.applicationRole, associated: true }] },
      { name: 'set its single sign-on claims', versions: ['v2', 'api'], rest: ['PUT', `account/${id}/claims`, { claims: {} }], trpc: ['mutation', 'ssoClaims.set', { id, claims: {} }] },
      { name: 'arm register mode for it', rest: ['POST', `scanner/mode/register/${id}`], trpc: ['mutation', 'smartCards.startRegisterMode', { account_id: id }] },
      { name: 'revoke its consent', versions: ['v2', 'api'], rest: ['DELETE', `account/${id}/consents/${unowned.application}`], trpc: ['mutation', 'consents.revoke', { account_id: id, application_id: unowned.application }] },
      { name: 'erase it', versions: ['v2', 'api'], rest: ['POST', `account/${id}/erase`], trpc: ['mutation', 'accounts.erasePersonalData', { id }] },
      { name: 'delete it', rest: ['DELETE', `account/${id}`], trpc: ['mutation', 'accounts.delete', { id }] },
    ];
    const refusals: string[] = [];
    for (const route of whole) {
      if (route.rest) {
        for (const version of route.versions ?? ['v1', 'v2', 'api']) {
          const [method, path, body] = route.rest;
          const answer = await clients.adminA.raw(method, `${version === 'api' ? '/api' : `/api/${version}`}/${path}`, body);
          if (answer.status !== 403 || answer.body?.error?.code !== 'auth.forbidden') refusals.push(`${route.name} over ${version}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
      if (route.trpc) {
        const [, procedure, input] = route.trpc;
        const answer = await clients.adminA.post(`/trpc/${procedure}`, input);
        if (answer.status !== 403 || answer.body?.error?.data?.apiError?.code !== 'auth.forbidden') refusals.push(`${route.name} over tRPC: ${answer.status} ${JSON.stringify(answer.body?.error?.data?.apiError)}`);
      }
    }
    expect(refusals).toEqual([]);

    // nothing happened: the chosen password does not sign in, the own one does, no token was minted
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: shared.username, password: chosen })).status).toBe(401);
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: shared.username, password: shared.password })).status).toBe(200);
    const tokensOfShared = (await admin.get(`/api/v2/account/${id}/bearer-tokens?limit=100`)).body.data.data as Array<{ id: string }>;
    expect(tokensOfShared.map((token) => token.id)).toEqual([sharedToken]);

    // what is A's stays A's administrator's: reading the member, its membership and its roles in A
    expect((await clients.adminA.get(`/api/v2/account/${id}`)).status).toBe(200);
    expect((await clients.adminA.post(`/api/v2/organization/${places.A.organization}/account-role`, { account_id: id, role_id: places.A.role })).status).toBe(200);
    expect((await clients.adminA.raw('DELETE', `/api/v2/organization/${places.A.organization}/account-role?account_id=${id}&role_id=${places.A.role}`)).status).toBe(200);
    // and of its organizations and roles only A's (docs/adr/0011, 'Outside looks like nothing'): B's
    // role catalogue stays out of sight
    for (const path of [`/api/v1/account/${id}/organizations-and-roles`, `/api/v2/account/${id}/organizations`]) {
      const answer = await clients.adminA.get(`${path}?limit=100`);
      const rows = (answer.body.data?.data ?? answer.body.data) as Array<{ id: string }>;
      expect(rows.map((row) => row.id), path).toEqual([places.A.organization]);
    }
    const overTrpc = (await clients.adminA.get(`/trpc/organizations.ofAccount?input=${encodeURIComponent(JSON.stringify({ account_id: id, limit: 100 }))}`)).body.result.data.data as Array<{ id: string }>;
    expect(overTrpc.map((row) => row.id)).toEqual([places.A.organization]);
    // the super administrator still sees both
    const all = (await admin.get(`/api/v2/account/${id}/organizations?limit=100`)).body.data.data as Array<{ id: string }>;
    expect(all.map((row) => row.id).sort()).toEqual([places.A.organization, places.B.organization].sort());
    // and of its teams only those in A's subtree
    const [teamA, teamB] = [await teamIn(places.A.organization), await teamIn(places.B.organization)];
    for (const team of [teamA, teamB]) expect((await admin.post(`/api/v2/account/${id}/associate/team`, { team_id: team })).status).toBeLessThan(300);
    const teamsOver = async (client: Client) => [
      ((await client.get(`/api/v1/account/${id}/teams?limit=100`)).body.data as Array<{ team_id: string }>).map((row) => row.team_id),
      ((await client.get(`/api/v2/account/${id}/teams?limit=100`)).body.data.data as Array<{ team_id: string }>).map((row) => row.team_id),
      ((await client.get(`/trpc/teams.ofAccount?input=${encodeURIComponent(JSON.stringify({ account_id: id, limit: 100 }))}`)).body.result.data.data as Array<{ team_id: string }>).map((row) => row.team_id),
    ];
    expect(await teamsOver(clients.adminA)).toEqual([[teamA], [teamA], [teamA]]);
    expect((await teamsOver(admin)).map((teams) => teams.sort())).toEqual([[teamA, teamB].sort(), [teamA, teamB].sort(), [teamA, teamB].sort()]);

    // a root role holder who is also a member of A is out of A's administrator's sight altogether
    const root = await createAccount(admin, { organization: places.A.organization });
    await makeSuperAdministrator(admin, root.id);
    for (const [method, path, body] of [
      ['PUT', `/api/v2/account/${root.id}/password`, { password: chosen }],
      ['POST', '/api/v2/token', { account_id: root.id, title: 'Escape', forever: true, permissions: ['accounts:read'], restrictions: [] }],
      ['DELETE', `/api/v1/account/${root.id}`, undefined],
    ] as const) {
      const answer = await clients.adminA.raw(method, path, body);
      expect(`${method} ${path}: ${answer.status} ${answer.body?.error?.code}`).toBe(`${method} ${path}: 404 account.not_found`);
    }
    expect((await clients.adminA.post('/trpc/accounts.setPassword', { id: root.id, password: chosen })).status).toBe(404);

    // once the account belongs to A's subtree alone, its credentials are A's administrator's again
    expect((await admin.raw('DELETE', `/api/v2/organization/${places.B.organization}/member/${id}`)).status).toBe(200);
    expect((await clients.adminA.raw('PUT', `/api/v2/account/${id}/password`, { password: chosen })).status).toBe(200);
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: shared.username, password: chosen })).status).toBe(200);
  });

  it('never mints a token for another account that reaches further than its creator', async () => {
    // the creator: tokens:write in A, accounts:delete only in D (below A1); the holder: accounts:delete in all of A1
    const d = await organization(unique('D'), places.A1.organization);
    const creator = await createAccount(admin, { organization: places.A.organization });
    const grant = async (organizationId: string, accountId: string, slugs: string[]) => {
      const permissions = [];
      for (const slug of slugs) permissions.push(await permissionIn(organizationId, slug));
      const role = await roleIn(organizationId, permissions);
      expect((await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: accountId, role_id: role })).status).toBe(200);
    };
    const a2 = await organization(unique('A2'), places.A.organization);
    expect((await admin.post(`/api/v2/organization/${a2}/member`, { account_id: creator.id })).status).toBe(201);
    await grant(a2, creator.id, ['tokens:write', 'accounts:read']);
    expect((await admin.post(`/api/v2/organization/${d}/member`, { account_id: creator.id })).status).toBe(201);
    await grant(d, creator.id, ['accounts:delete']);
    const holder = await createAccount(admin, { organization: a2 });
    const a3 = await organization(unique('A3'), a2);
    expect((await admin.post(`/api/v2/organization/${a3}/member`, { account_id: holder.id })).status).toBe(201);
    await grant(a2, holder.id, ['accounts:delete']);
    const session = http(app.url, await signIn(app.url, { username: creator.username, password: creator.password }));
    const body = (permissions: string[]) => ({ account_id: holder.id, title: unique('Reach'), forever: true, permissions, restrictions: [] });

    for (const [prefix, create] of [
      ['v1', (input: unknown) => session.post('/api/v1/token', input)],
      ['v2', (input: unknown) => session.post('/api/v2/token', input)],
      ['trpc', (input: unknown) => session.post('/trpc/tokens.create', input)],
    ] as const) {
      // the holder holds accounts:delete in A2, the creator only in D: refused
      const beyond = await create(body(['accounts:delete']));
      expect(beyond.status, `${prefix} ${JSON.stringify(beyond.body)}`).toBe(403);
      // what the holder holds nowhere cannot reach further than the creator: allowed
      expect((await create(body(['tokens:write']))).status, prefix).toBeLessThan(300);
    }
    // editing a token into one that reaches further is refused alike
    const issued = await session.post('/api/v2/token', body(['tokens:write']));
    expect((await session.raw('PUT', `/api/v2/token/${issued.body.data.id}`, { title: 'Reach', forever: true, permissions: ['accounts:delete'], restrictions: [] })).status).toBe(403);
  });

  /**
   * Moving an organization needs the permission where it leaves and where it lands; the top level is the
   * root's (docs/adr/0011).
   */
  it('moves an organization only with the permission where it leaves and where it lands, on REST and tRPC', async () => {
    const a1 = places.A1.organization;
    const { title } = (await admin.get(`/api/v2/organization/${a1}`)).body.data as { title: string };
    const a2 = await organization(unique('A2'), places.A.organization);
    const move = (who: Who, organizationId: string, parent: string | null, over: 'v1' | 'v2' | 'api' | 'trpc', organizationTitle = title) =>
      over === 'trpc'
        ? clients[who].post('/trpc/organizations.updateDetails', { id: organizationId, title: organizationTitle, description: '', parent_id: parent })
        : clients[who].raw('PATCH', `${over === 'api' ? '/api' : `/api/${over}`}/organization/details/${organizationId}`, { title: organizationTitle, description: '', parent_id: parent });
    const codeOf = (answer: { status: number; body: { error?: { code?: string; data?: { apiError?: { code: string } } } } }) => `${answer.status} ${answer.body.error?.data?.apiError?.code ?? answer.body.error?.code ?? ''}`;
    const verdicts: string[] = [];
    for (const over of ['v1', 'v2', 'api', 'trpc'] as const) {
      // A1's administrator can neither detach A1 nor take it anywhere: it would leave A
      verdicts.push(`adminA1 detaches A1 over ${over}: ${codeOf(await move('adminA1', a1, null, over))}`);
      verdicts.push(`adminA1 moves A1 under A2 over ${over}: ${codeOf(await move('adminA1', a1, a2, over))}`);
      // A's administrator cannot send A1 to the top level (the root's) nor under B (out of sight)
      verdicts.push(`adminA detaches A1 over ${over}: ${codeOf(await move('adminA', a1, null, over))}`);
      verdicts.push(`adminA moves A1 under B over ${over}: ${codeOf(await move('adminA', a1, places.B.organization, over))}`);
      // nor A itself, a top-level organization, anywhere
      const a = (await admin.get(`/api/v2/organization/${places.A.organization}`)).body.data as { title: string };
      verdicts.push(`adminA moves A under A2 over ${over}: ${codeOf(await move('adminA', places.A.organization, a2, over, a.title))}`);
    }
    expect(verdicts).toEqual(
      (['v1', 'v2', 'api', 'trpc'] as const).flatMap((over) => [
        `adminA1 detaches A1 over ${over}: 403 auth.forbidden`,
        `adminA1 moves A1 under A2 over ${over}: 403 auth.forbidden`,
        `adminA detaches A1 over ${over}: 403 auth.forbidden`,
        `adminA moves A1 under B over ${over}: 404 organization.not_found`,
        `adminA moves A under A2 over ${over}: 403 auth.forbidden`,
      ]),
    );
    // sending the parent it has is no move: A1's administrator may still edit A1's details with it
    expect((await move('adminA1', a1, places.A.organization, 'v2')).status).toBe(200);
    expect((await move('adminA1', a1, places.A.organization, 'trpc')).status).toBe(200);
    // within A's subtree A's administrator moves A1 there and back
    expect((await move('adminA', a1, a2, 'v2')).status).toBe(200);
    expect((await move('adminA', a1, places.A.organization, 'trpc')).status).toBe(200);
    expect((await admin.get(`/api/v2/organization/${a1}`)).body.data.parent_id).toBe(places.A.organization);

    // a deletion that would send sub-organizations to the top level is a move there too
    const parent = await organization(unique('Parent'), places.A.organization);
    const child = await organization(unique('Child'), parent);
    expect((await clients.adminA.raw('DELETE', `/api/v2/organization/${parent}`)).status).toBe(403);
    expect((await clients.adminA.post('/trpc/organizations.delete', { id: parent, suborganizations: 'disconnect' })).status).toBe(403);
    expect((await admin.get(`/api/v2/organization/${child}`)).body.data.parent_id).toBe(parent);
    expect((await clients.adminA.raw('DELETE', `/api/v2/organization/${parent}?suborganizations=move&suborganizations_move_to=${places.A.organization}`)).status).toBe(200);
    expect((await admin.get(`/api/v2/organization/${child}`)).body.data.parent_id).toBe(places.A.organization);
  });

  it('deletes with an organization only the accounts its administrator could delete one by one', async () => {
    const doomed = await organization(unique('Doomed'), places.A.organization);
    const shared = await accountIn(places.B.organization);
    expect((await admin.post(`/api/v2/organization/${doomed}/member`, { account_id: shared })).status).toBe(201);
    for (const attempt of [
      () => clients.adminA.raw('DELETE', `/api/v1/organization/${doomed}?accounts=delete`),
      () => clients.adminA.raw('DELETE', `/api/v2/organization/${doomed}?accounts=delete`),
      () => clients.adminA.post('/trpc/organizations.delete', { id: doomed, accounts: 'delete' }),
    ]) {
      expect((await attempt()).status).toBe(403);
    }
    expect((await admin.get(`/api/v2/account/${shared}`)).status).toBe(200);
    // letting it leave is A's administrator's to do
    expect((await clients.adminA.raw('DELETE', `/api/v2/organization/${doomed}`)).status).toBe(200);
    expect((await admin.get(`/api/v2/account/${shared}/organizations?limit=100`)).body.data.data.map((row: { id: string }) => row.id)).toEqual([places.B.organization]);
  });
});
