import {
  ZAccessSlugInput,
  ZAccessTitleInput,
  ZAccountRoleInput,
  ZCreatePermissionInput,
  ZCreateRoleBody,
  ZRolePermissionInput,
  ZToggleRoleInput,
} from '@rollcall/contracts';
import {
  ZAccountOrganizationsInput,
  ZAddMemberInput,
  ZAssociateOrganizationInput,
  ZCreateOrganizationInput,
  ZDeleteOrganizationChoices,
  ZFindOrganizationsInput,
  ZListOrganizationsInput,
  ZSubOrganizationsInput,
  ZUpdateOrganizationDetailsInput,
} from '@rollcall/contracts';
import { ZCreateAccessTokenInput, ZListAccessTokensInput, ZUpdateAccessTokenInput, ZActivateAccountInput, ZAccountAuthInput, ZApiError, ZAuthenticateInput, ZChangeOwnPasswordInput, ZSetPasswordInput, ZCreateAccountInput, ZFindAccountsByUsernameInput, ZImportAccountsInput, ZListAccountsInput, ZPolicy, ZPolicyInput, ZProfilePictureInput, ZUpdateAccountProfileInput } from '@rollcall/contracts';
import { ZAccountTeamsInput, ZAssociateTeamInput, ZCreateTeamInput, ZFindTeamsInput, ZListTeamsInput, ZRenameTeamInput } from '@rollcall/contracts';
import { ZListSmartCardsInput } from '@rollcall/contracts';
import { ZCalendarQuery } from '@rollcall/contracts';
import { ZAccountClaimGroups, ZAccountClaimGroupsV1, ZAccountClaimsInput } from '@rollcall/contracts';
import { lineText, ZAsOfQueryInput, ZAuditEventsInput, ZHistoryPageInput } from '@rollcall/contracts';
import { z } from 'zod';

/**
 * LEGACY, to delete: the former hand-kept list of REST routes. The OpenAPI document, the contract suite
 * and compat.md's check no longer read it: they read the routes the controllers declare with their
 * `@Documented` descriptions (described-routes.ts, docs/adr/0023). The one reader left is
 * apps/api/test/hardening/input-bounds.int.spec.ts (the bodies and queries it audits); once it takes
 * the described routes (e2e/contract/rest-routes.ts), this file goes.
 */
export interface RouteEntry {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** path without version prefix, OpenAPI style ({id}) */
  path: string;
  summary: string;
  public?: boolean;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** what v1 answers (v2 wraps it in {data}); `v2` overrides when v2's inner shape differs */
  response: z.ZodType;
  v2Response?: z.ZodType;
  status?: number;
  /** the REST versions it answers on: both unless said (routes that are ours, not the spec's, are v2 only) */
  versions?: Array<'v1' | 'v2'>;
}

const ZAccountListItem = z.object({
  id: z.string().uuid(),
  username: z.string(),
  username_readable: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  status_id: z.number().int(),
  status_title: z.string(),
  protected: z.boolean(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
const ZContactList = z.array(z.object({ value: z.string(), type: z.string() }));
const ZAccount = ZAccountListItem.extend({
  policy_id: z.string().nullable(),
  additional: z.object({ email: ZContactList, telephone: ZContactList }).catchall(z.unknown()),
});
const ZAccountSearchItem = z.object({ id: z.string().uuid(), username: z.string(), username_readable: z.string(), first_name: z.string(), last_name: z.string() });
const ZAccountAuth = z.object({ username: z.string(), policy_id: z.string().nullable(), status_id: z.number().int(), locked_until: z.string().nullable() });
const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), from: z.number().int().nullable(), to: z.number().int().nullable(), last_page: z.number().int(), current_page: z.number().int(), per_page: z.number().int() });

export const ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: 'admin/authenticate',
    summary: 'Sign in; also sets the user_session cookie. password_change_required: true when the session may only change its password',
    public: true,
    body: ZAuthenticateInput,
    response: z.object({ token: z.string(), password_change_required: z.literal(true).optional() }),
  },
  { method: 'get', path: 'admin/logout', summary: 'Sign out (revokes the session on the server)', response: z.object({ message: z.string() }) },
  { method: 'post', path: 'admin/logout', summary: 'Sign out (POST form)', response: z.object({ message: z.string() }) },
  { method: 'get', path: 'account/current', summary: 'The signed-in account', response: z.object({ id: z.string(), first_name: z.string(), last_name: z.string(), username_readable: z.string(), additional: z.object({ profilePicture: z.string().nullable() }) }) },
  { method: 'get', path: 'account/statuses', summary: 'Account statuses (3 = password change required)', response: z.array(z.object({ id: z.number().int(), label: z.string() })) },
  { method: 'post', path: 'account', summary: 'Create an account', body: ZCreateAccountInput, response: z.object({ id: z.string().uuid() }), status: 201 },
  { method: 'get', path: 'accounts', summary: 'List accounts: paging, search, status filter, sort', query: ZListAccountsInput, response: page(ZAccountListItem) },
  { method: 'get', path: 'account/find', summary: 'Find accounts by username: case-insensitive prefix, at most 20 (query form)', query: ZFindAccountsByUsernameInput, response: z.array(ZAccountSearchItem) },
  { method: 'get', path: 'account/find/username', summary: 'Find accounts by username (the v1 form of the spec)', query: ZFindAccountsByUsernameInput, response: z.array(ZAccountSearchItem) },
  { method: 'get', path: 'account/username/{search}', summary: 'Find accounts by username (the v2 form of the spec)', response: z.array(ZAccountSearchItem) },
  { method: 'get', path: 'server/supported-time-zones', summary: 'IANA time zones the server accepts on profiles', response: z.array(z.string()) },
  { method: 'get', path: 'account/{id}', summary: 'Read one account', response: ZAccount, v2Response: z.object({ account: ZAccount }) },
  { method: 'put', path: 'account/{id}', summary: 'Update the profile of an account; answers the account', body: ZUpdateAccountProfileInput, response: ZAccount, v2Response: z.object({ account: ZAccount }) },
  { method: 'delete', path: 'account/{id}', summary: 'Delete an account; refused (403) for protected accounts', response: z.object({ message: z.string() }) },
  { method: 'patch', path: 'account/{id}/profile-picture', summary: 'Set (PNG, JPEG, WebP, GIF data URL, at most 512 KB) or remove (null) the profile picture', body: ZProfilePictureInput, response: z.object({ id: z.string().uuid() }) },
  { method: 'get', path: 'account/{id}/auth', summary: 'Auth info of an account: username, policy_id (text or null), status_id', response: ZAccountAuth },
  { method: 'put', path: 'account/{id}/auth', summary: 'Change status and/or policy (null: none); fields left out keep their values; the username cannot change here', body: ZAccountAuthInput, response: ZAccountAuth },
  { method: 'patch', path: 'account/{id}/password/next-login', summary: 'Require a password change on next login (status 3); answers the auth info', response: ZAccountAuth },
  { method: 'put', path: 'account/{id}/password', summary: "Set the password under the account's policy (length, strength, history)", body: ZSetPasswordInput, response: z.object({ message: z.string() }) },
  { method: 'patch', path: 'account/{id}/password', summary: 'As PUT (the spec leaves the method open)', body: ZSetPasswordInput, response: z.object({ message: z.string() }) },
  { method: 'post', path: 'account/{id}/activation', summary: 'Send a new activation e-mail to an account awaiting activation (status 4); the earlier link stops working. 400 activation.not_awaiting otherwise', response: z.object({ message: z.string() }), status: 202 },
  { method: 'post', path: 'account/{id}/unlock', summary: 'End a lockout and reset the failed sign-in count; answers the auth info', response: ZAccountAuth },
  {
    method: 'get',
    path: 'account/activation/{token}',
    summary: 'Is this activation link valid? Its username, expiry and the password policy rules; 404 activation.invalid for unknown, used, replaced and expired links alike',
    public: true,
    response: z.object({ username: z.string(), expires_at: z.string(), policy: z.object({ title: z.string(), min_length: z.number().int(), min_strength: z.number().int(), history: z.number().int().nullable() }).nullable() }),
  },
  { method: 'post', path: 'account/activate', summary: "Set the first password with an activation token under the account's policy; status 4 becomes 1 and the link stops working", public: true, body: ZActivateAccountInput, response: z.object({ message: z.string(), username: z.string() }) },
  { method: 'post', path: 'account/password/change', summary: 'The signed-in account changes its own password (allowed to a session that must change it)', body: ZChangeOwnPasswordInput, response: z.object({ message: z.string() }) },
  {
    method: 'post',
    path: 'accounts/import/csv',
    summary: 'Bulk create accounts from CSV rows mapped to first_name, last_name, email, username, password?; at most 1,000 rows (413 beyond); a bad row is reported and skipped',
    body: ZImportAccountsInput,
    response: z.object({
      created: z.number().int(),
      failed: z.number().int(),
      rows: z.array(z.union([z.object({ row: z.number().int(), status: z.literal('created'), id: z.string().uuid() }), z.object({ row: z.number().int(), status: z.literal('failed'), errors: z.record(z.string(), z.array(z.string())) })])),
    }),
  },
  { method: 'get', path: 'policies', summary: 'List password policies (oldest first, not paged) with the number of accounts using each', response: z.array(ZPolicy) },
  { method: 'post', path: 'policy', summary: 'Create a password policy (title unique case-insensitively)', body: ZPolicyInput, response: ZPolicy, status: 201 },
  { method: 'put', path: 'policy/{id}', summary: 'Update a password policy (the whole body, as on create)', body: ZPolicyInput, response: ZPolicy },
  { method: 'delete', path: 'policy/{id}', summary: 'Delete a password policy; refused (409) while accounts use it', response: z.object({ message: z.string() }) },
];

/** access tokens: `unique_id` is the secret only in the create answer, a recognisable prefix elsewhere */
const ZAccessToken = z.object({
  id: z.string().uuid(),
  unique_id: z.string(),
  token_title: z.string(),
  account_id: z.string().uuid(),
  account_username: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  permissions: z.array(z.string()),
  restrictions: z.array(z.string()),
});
ROUTES.push(
  { method: 'get', path: 'permissions/system', summary: 'The system permissions an access token (or a role) can be granted: slug and label', response: z.array(z.object({ slug: z.string(), value: z.string() })) },
  { method: 'get', path: 'tokens', summary: 'Access tokens, newest first: paging, sort, optional account_id', query: ZListAccessTokensInput, response: page(ZAccessToken) },
  { method: 'get', path: 'account/{id}/bearer-tokens', summary: "An account's access tokens (same paging as tokens)", query: ZListAccessTokensInput, response: page(ZAccessToken) },
  {
    method: 'post',
    path: 'token',
    summary: 'Create an access token; the answer carries the secret (token, unique_id) this once. Also POST token/. A `token` field in the body is ignored: the server generates the secret',
    body: ZCreateAccessTokenInput,
    response: ZAccessToken.extend({ token: z.string() }),
    status: 201,
  },
  { method: 'get', path: 'token/{id}', summary: 'One access token (without its secret)', response: ZAccessToken },
  { method: 'put', path: 'token/{id}', summary: 'Change title, permissions, restrictions or expiry of an access token; answers the token', body: ZUpdateAccessTokenInput, response: ZAccessToken },
  { method: 'delete', path: 'token/{id}', summary: 'Delete (revoke) an access token: the next request with it is refused', response: z.object({ message: z.string() }) },
);

/** organizations and membership (docs/adr/0009); members' and accounts' `roles` come from the roles work (docs/adr/0012) */
const ZOrganization = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  unique_id: z.string().uuid(),
  active: z.literal(1),
  protected: z.boolean(),
  parent_id: z.string().uuid().nullable(),
  parent_title: z.string().nullable(),
  num_children: z.number().int(),
  num_members: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
const ZMemberRole = z.object({ id: z.string(), slug: z.string() });
const ZSubOrganization = z.object({ id: z.string().uuid(), title: z.string(), parent_title: z.string(), num_members: z.number().int(), created_at: z.string(), protected: z.boolean() });
const ZOrganizationMember = z.object({
  id: z.string().uuid(),
  status_id: z.number().int(),
  status_title: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username_readable: z.string(),
  roles: z.array(ZMemberRole),
  created_at: z.string(),
  protected: z.boolean(),
});
const ZAccountOrganization = z.object({
  id: z.string().uuid(),
  org_title: z.string(),
  created_at: z.string(),
  roles: z.array(z.object({ id: z.string(), slug: z.string(), title: z.string(), associated: z.union([z.literal(0), z.literal(1)]) })),
});
const ZMessage = z.object({ message: z.string() });
ROUTES.push(
  { method: 'get', path: 'organizations', summary: 'Organizations at any depth: paging, search on the title, sort by title or created_at', query: ZListOrganizationsInput, response: page(ZOrganization) },
  { method: 'get', path: 'organization/find', summary: 'Find organizations by title: case-insensitive substring (prefix matches first), at most 20', query: ZFindOrganizationsInput, response: z.array(z.object({ id: z.string().uuid(), title: z.string() })) },
  { method: 'post', path: 'organization', summary: 'Create an organization (title unique case-insensitively; parent_id optional)', body: ZCreateOrganizationInput, response: ZOrganization, status: 201 },
  { method: 'patch', path: 'organization/details/{organization_id}', summary: 'Change title and description; parent_id (optional) moves the organization, never under itself (409 organization.cycle)', body: ZUpdateOrganizationDetailsInput, response: ZOrganization },
  { method: 'get', path: 'organization/{id}/sub-orgs', summary: 'The direct sub-organizations, newest first, paged', query: ZSubOrganizationsInput, response: page(ZSubOrganization) },
  { method: 'get', path: 'organization/{id}/members/all', summary: 'Every member of the organization, newest membership first', response: z.array(ZOrganizationMember) },
  { method: 'post', path: 'organization/{id}/member', summary: "Add a member (our addition for the members tab's 'Add a member')", body: ZAddMemberInput, response: ZMessage, status: 201 },
  { method: 'delete', path: 'organization/{org_id}/member/{account_id}', summary: 'Remove a member from the organization', response: ZMessage },
  { method: 'get', path: 'organization/{id}', summary: 'One organization with its parent title and counts', response: ZOrganization },
  { method: 'get', path: 'organization/{id}/time-zone', summary: "Ours: the organization's own time zone (null: none), which draws the attendance days of members without a zone of their own", versions: ['v2'], response: z.object({ time_zone: z.string().nullable() }) },
  { method: 'put', path: 'organization/{id}/time-zone', summary: "Ours: set (an IANA name of server/supported-time-zones; 400 organization.time_zone_invalid on time_zone) or clear (null) the organization's time zone", versions: ['v2'], body: z.object({ time_zone: lineText('time_zone', 64).nullable() }), response: z.object({ time_zone: z.string().nullable() }) },
  { method: 'delete', path: 'organization/{id}', summary: 'Delete an organization: suborganizations and accounts each disconnect (default), delete or move (with *_move_to); all or nothing', query: ZDeleteOrganizationChoices, response: ZMessage },
  { method: 'post', path: 'account/{account_id}/associate/organization', summary: 'The account joins an organization (409 membership.exists when it already belongs)', body: ZAssociateOrganizationInput, response: ZMessage, status: 201 },
  { method: 'get', path: 'account/{id}/organizations-and-roles', summary: "An account's organizations, paged, each with every role of that organization and associated 1 for those the account holds", query: ZAccountOrganizationsInput, response: page(ZAccountOrganization) },
  { method: 'get', path: 'account/{id}/organizations', summary: 'As organizations-and-roles (the v2 name; served on v1 too)', query: ZAccountOrganizationsInput, response: page(ZAccountOrganization) },
  { method: 'delete', path: 'account/{id}/leave-organization/{organization_id}', summary: 'The account leaves an organization', response: ZMessage },
);

/** teams and team membership (docs/adr/0010) */
const ZTeam = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  interorg: z.boolean(),
  organization: z.string().uuid().nullable(),
  organization_title: z.string().nullable(),
  num_members: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  protected: z.boolean(),
});
const ZTeamDetails = ZTeam.extend({ accounts: z.array(z.string().uuid()) });
const ZTeamMessage = z.object({ message: z.string() });
ROUTES.push(
  { method: 'get', path: 'teams', summary: "Teams: paging, search on the title, organization_id (a live organization's teams), sort by title or created_at", query: ZListTeamsInput, response: page(ZTeam) },
  { method: 'get', path: 'team/find', summary: 'Find teams by title: case-insensitive substring (prefix matches first), at most 20', query: ZFindTeamsInput, response: z.array(z.object({ id: z.string().uuid(), title: z.string() })) },
  { method: 'post', path: 'team', summary: 'Create a team: title unique within its organization (or among multi-organization teams); organization required unless interorg; accounts are the first members', body: ZCreateTeamInput, response: ZTeamDetails, status: 201 },
  { method: 'patch', path: 'team/{id}/title', summary: 'Rename a team (the inline title edit)', body: ZRenameTeamInput, response: ZTeamDetails },
  { method: 'get', path: 'team/{id}/associated-accounts', summary: 'The members of a team, by name', response: z.array(z.object({ id: z.string().uuid(), first_name: z.string(), last_name: z.string(), username_readable: z.string() })) },
  { method: 'get', path: 'team/{id}', summary: "One team with its organization's title, member count and members' ids (our addition for the console)", response: ZTeamDetails },
  { method: 'delete', path: 'team/{id}', summary: 'Delete a team (403 team.protected for a protected one)', response: ZTeamMessage },
  { method: 'get', path: 'account/{id}/teams', summary: "An account's teams, paged (sortBy association_created_at or team_title)", query: ZAccountTeamsInput, response: page(z.object({ team_id: z.string().uuid(), team_title: z.string(), association_created_at: z.string() })) },
  { method: 'post', path: 'account/{id}/associate/team', summary: "The account joins a team (409 team.member_exists 'User already associated!')", body: ZAssociateTeamInput, response: ZTeamMessage, status: 201 },
  { method: 'delete', path: 'account/{id}/leave-team/{team_id}', summary: 'The account leaves a team', response: ZTeamMessage },
);

/** an organization's permissions and roles and the roles its members hold (docs/adr/0012) */
const ZPermission = z.object({ id: z.string().uuid(), title: z.string(), slug: z.string(), value: z.string(), description: z.string(), num_uses: z.number().int(), created_at: z.string(), protected: z.boolean() });
const ZRole = z.object({
  id: z.string().uuid(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  organization_id: z.string().uuid(),
  num_associations: z.number().int(),
  permissions: z.array(z.object({ id: z.string().uuid() })),
  created_at: z.string(),
  protected: z.boolean(),
});
const ZRoleAccount = z.object({ id: z.string().uuid(), first_name: z.string(), last_name: z.string(), username_readable: z.string() });
ROUTES.push(
  { method: 'get', path: 'organization/{id}/permissions', summary: "The organization's permissions, oldest first, with num_uses (roles holding each)", response: z.array(ZPermission) },
  { method: 'get', path: 'organization/{id}/roles', summary: "The organization's roles, oldest first, with their permissions and num_associations (accounts holding each)", response: z.array(ZRole) },
  { method: 'post', path: 'permission', summary: 'Create a permission of an organization (slug an OAuth2 scope token, unique within the organization)', body: ZCreatePermissionInput, response: ZPermission, status: 201 },
  { method: 'patch', path: 'permission/{id}/title', summary: "Change a permission's title", body: ZAccessTitleInput, response: ZPermission },
  { method: 'patch', path: 'permission/{id}/slug', summary: "Change a permission's slug (409 permission.slug_taken)", body: ZAccessSlugInput, response: ZPermission },
  { method: 'delete', path: 'permission/{id}', summary: 'Delete a permission (403 when protected); it leaves every role', response: ZMessage },
  { method: 'post', path: 'organization/{org}/role', summary: 'Create a role of the organization with some of its permissions', body: ZCreateRoleBody, response: ZRole, status: 201 },
  { method: 'patch', path: 'role/{id}/title', summary: "Change a role's title", body: ZAccessTitleInput, response: ZRole },
  { method: 'post', path: 'role/{id}/title', summary: "Change a role's title (the v2 form; served on v1 too)", body: ZAccessTitleInput, response: ZRole },
  { method: 'patch', path: 'role/{id}/slug', summary: "Change a role's slug (409 role.slug_taken)", body: ZAccessSlugInput, response: ZRole },
  { method: 'post', path: 'role/{id}/slug', summary: "Change a role's slug (the v2 form; served on v1 too)", body: ZAccessSlugInput, response: ZRole },
  { method: 'delete', path: 'role/{id}', summary: 'Delete a role (403 when protected); every account holding it loses it', response: ZMessage },
  { method: 'get', path: 'permission/{id}/associated-accounts', summary: 'The accounts holding a permission through any role that carries it (not in the spec)', response: z.array(ZRoleAccount) },
  { method: 'get', path: 'role/{id}/associated-accounts', summary: 'The accounts holding a role', response: z.array(ZRoleAccount) },
  { method: 'post', path: 'role/{id}/permission', summary: 'Switch a permission on for a role (idempotent)', body: ZRolePermissionInput, response: ZMessage },
  { method: 'delete', path: 'role/{id}/permission', summary: 'Switch a permission off for a role (query permission_id; idempotent)', query: ZRolePermissionInput, response: ZMessage },
  { method: 'get', path: 'organization/{org}/member/{account}/roles', summary: 'Every role of the organization with associated 1 for those the member holds', response: z.array(ZRole.extend({ associated: z.union([z.literal(0), z.literal(1)]) })) },
  { method: 'post', path: 'organization/{org}/account-role', summary: 'Give a member a role of the organization (idempotent; 404 membership.not_found for a non-member)', body: ZAccountRoleInput, response: ZMessage },
  { method: 'delete', path: 'organization/{org}/account-role', summary: 'Take a role from a member (query account_id, role_id; idempotent)', query: ZAccountRoleInput, response: ZMessage },
  { method: 'post', path: 'account/{id}/toggle-role', summary: "Give the account a role (the role names its organization; the account must be a member)", body: ZToggleRoleInput, response: ZMessage },
  { method: 'delete', path: 'account/{id}/toggle-role', summary: 'Take a role from the account (query role_id)', query: ZToggleRoleInput, response: ZMessage },
);

/** smart cards and register mode (docs/readers.md, docs/adr/0013); the reader protocol and the readers' admin routes are v2-only and listed in docs/api/compat.md */
ROUTES.push(
  { method: 'get', path: 'account/{id}/smartcards', summary: "The account's smart cards: 10 per page, newest first (sortBy created_at or card_uid)", query: ZListSmartCardsInput, response: page(z.object({ id: z.string().uuid(), card_uid: z.string(), created_at: z.string() })) },
  { method: 'post', path: 'scanner/cancel', summary: 'End the register modes this administrator started (nothing armed is fine)', response: z.object({ readers: z.array(z.string().uuid()) }) },
  { method: 'get', path: 'scanner/unknown-cards', summary: 'Cards scanned at a reader that no account holds, latest first (not in the spec)', response: z.array(z.object({ card_uid: z.string(), reader_id: z.string().uuid(), reader_name: z.string(), door: z.string(), scanned_at: z.string() })) },
);

/** attendance statuses and an account's calendar (docs/adr/0013); the writes are in docs/api/compat.md (the contract suite has no sample bodies for them) */
ROUTES.push(
  { method: 'get', path: 'states/attendance', summary: 'Attendance statuses, oldest first: id, title, active (1 means selectable)', response: z.array(z.object({ id: z.string().uuid(), title: z.string(), active: z.union([z.literal(0), z.literal(1)]) })) },
  { method: 'get', path: 'account/{id}/calendar', summary: "An account's calendar events of a month (query date YYYY-MM, default the current month), one per day of each event group", query: ZCalendarQuery, response: z.array(z.object({ id: z.string().uuid(), account_id: z.string().uuid(), event_group_id: z.string().uuid(), attendance_status_id: z.string().uuid(), status_title: z.string().nullable(), title: z.string(), description: z.string(), start_date: z.string(), end_date: z.string(), start_event: z.string(), end_event: z.string() })) },
);

/** the Attendance tab and the statistics (apps/api/src/features/attendance/rest/attendance-reports.routes.ts); the download (a CSV or XLSX file, query date_at, organization_id, format csv|xlsx) is in docs/api/compat.md */
const ZAttendanceAverages = z.object({ average_arrival: z.string().nullable(), average_departure: z.string().nullable(), average_working_hours: z.number().int().nullable() });
const ZAccountAttendance = z.object({
  attendance: z.array(z.object({ day: z.string(), arrived: z.object({ created_at: z.string() }).nullable(), departed: z.object({ created_at: z.string() }).nullable(), time_logged: z.number().int() })),
  total_time_logged: z.number().int(),
  extra: z.tuple([ZAttendanceAverages]),
  selected: z.enum(['daily', 'weekly', 'monthly']),
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
});
ROUTES.push(
  ...(['daily', 'weekly', 'monthly'] as const).map((selected): RouteEntry => ({ method: 'get', path: `account/{id}/attendance/${selected}`, summary: `An account's attendance, ${selected} (query date_at YYYY-MM-DD${selected === 'monthly' ? ' or YYYY-MM' : ''}, default today in its zone): slots and days without data, time logged, and extra[0] the averages`, response: ZAccountAttendance })),
  {
    method: 'get',
    path: 'accounts/statistics/attendance',
    summary: 'Attendance per account of a month (query date_at YYYY-MM, default this month; organization_id; page, limit), with the month summary and its days',
    response: page(ZAttendanceAverages.extend({ account_id: z.string().uuid(), first_name: z.string(), last_name: z.string(), username_readable: z.string(), days_present: z.number().int(), total_time_logged: z.number().int() })).extend({
      month: z.string(),
      summary: ZAttendanceAverages.extend({ accounts: z.number().int(), days_present: z.number().int(), total_time_logged: z.number().int() }),
      days: z.array(z.object({ day: z.string(), present: z.number().int(), total_time_logged: z.number().int() })),
    }),
  },
);

/** lists of the areas that are v2 only (docs/api/compat.md): applications, door readers, the event log */
const ZApplicationClientType = z.enum(['confidential', 'public']);
const ZReaderRow = z.object({
  id: z.string().uuid(),
  name: z.string(),
  door: z.string(),
  role: z.enum(['door', 'enrollment']),
  token_prefix: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_contact_at: z.string().nullable(),
  queue_depth: z.number().int().nullable(),
  connection: z.string(),
  backlog: z.boolean(),
  register_mode: z.object({ account_id: z.string().uuid(), expires_at: z.string() }).nullable(),
  last_sequence: z.number().int(),
  oldest_queued_at: z.string().nullable(),
  clock_skew_ms: z.number().int().nullable(),
  // from the agent's last health report (issue 20): scan intake and scans set aside on the box
  intake: z.object({ state: z.enum(['ok', 'storage_failed', 'gave_up']), error: z.string().nullable(), since: z.string().nullable() }).nullable().optional(),
  dead_letters: z.number().int().nullable().optional(),
  last_dead_letter: z.object({ sequence: z.number().int(), card_uid: z.string(), code: z.string(), message: z.string(), refused_at: z.string() }).nullable().optional(),
});
ROUTES.push(
  {
    method: 'get',
    path: 'applications',
    summary: 'Applications, paged (search, sortBy title or created_at)',
    versions: ['v2'],
    response: page(z.object({ id: z.string().uuid(), title: z.string(), url: z.string().nullable(), description: z.string(), unique_id: z.string(), client_type: ZApplicationClientType, num_roles: z.number().int(), num_permissions: z.number().int(), created_at: z.string(), updated_at: z.string() })),
  },
  { method: 'get', path: 'readers', summary: 'Door readers with their last contact, queue depth and register mode, paged', versions: ['v2'], response: page(ZReaderRow) },
);

/** the event log, an entity's history and time travel (issue 8, docs/api/compat.md); v2 only */
const ZAuditEventRow = z.object({
  position: z.string(),
  stream_id: z.string(),
  stream_version: z.number().int(),
  type: z.string(),
  event_id: z.string(),
  actor: z.string(),
  actor_kind: z.string(),
  source_ip: z.string().nullable(),
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  recorded_at: z.string(),
  schema_version: z.number().int(),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
});
const ZAuditPage = <Row extends z.ZodType>(row: Row) => z.object({ data: z.array(row), next_before: z.string().nullable() });
ROUTES.push(
  { method: 'get', path: 'audit/events', summary: 'The event log, newest first, keyset-paged (filters stream, stream_prefix, type, actor, correlation_id, from, to; before, limit)', versions: ['v2'], query: ZAuditEventsInput, response: ZAuditPage(ZAuditEventRow) },
  {
    method: 'get',
    path: 'account/{id}/history',
    summary: "The account's events, newest first, each with a plain-words summary and the fields it changed (also organization/{id}, team/{id}, application/{id} and readers/{id}/history)",
    versions: ['v2'],
    query: ZHistoryPageInput,
    response: ZAuditPage(ZAuditEventRow.extend({ summary: z.string(), changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })) })),
  },
  {
    method: 'get',
    path: 'account/{id}/as-of',
    summary: 'The account as it was at a time (at) or position, folded from its stream (also organization/{id}/as-of)',
    versions: ['v2'],
    query: ZAsOfQueryInput,
    response: z.object({ kind: z.enum(['account', 'organization']), id: z.string(), existed: z.boolean(), status: z.string(), version: z.number().int(), position: z.string().nullable(), recorded_at: z.string().nullable(), fields: z.array(z.object({ field: z.string(), value: z.string().nullable() })) }),
  },
);

/** the right to be forgotten (docs/adr/0015); v2 only */
ROUTES.push({
  method: 'post',
  path: 'account/{id}/erase',
  summary: "Erase the account's personal data for good (names, e-mails, phones, birth date, picture, claim values): a live account is deleted too; its history keeps its shape, as an erased person. 409 account.erased when done before",
  versions: ['v2'],
  response: z.object({ message: z.string() }),
});

/** an account's single sign-on claims (docs/adr/0014); the write is v2 only */
ROUTES.push(
  { method: 'get', path: 'account/{id}/claims', summary: "The account's single sign-on claims: one group per scope (title, description, num_members) with each claim's title, description, scope and value (null: the profile's value is released)", response: ZAccountClaimGroupsV1, v2Response: ZAccountClaimGroups },
  { method: 'put', path: 'account/{id}/claims', summary: 'Set claim values: only the claims sent change; null or empty text clears one (its profile value is released again)', versions: ['v2'], body: ZAccountClaimsInput, response: ZAccountClaimGroups },
);

export const ERROR_SCHEMA = ZApiError;
