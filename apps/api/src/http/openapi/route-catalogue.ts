import { ZAccountAuthInput, ZApiError, ZAuthenticateInput, ZChangeOwnPasswordInput, ZSetPasswordInput, ZCreateAccountInput, ZFindAccountsByUsernameInput, ZListAccountsInput, ZPolicy, ZPolicyInput, ZProfilePictureInput, ZUpdateAccountProfileInput } from '@rollcall/contracts';
import { z } from 'zod';

/**
 * Every REST route, once: the OpenAPI document is generated from this list, and the contract suite
 * checks each row answers on v1, v2 and unprefixed. docs/api/compat.md is its human-readable twin.
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
const ZAccountAuth = z.object({ username: z.string(), policy_id: z.string().nullable(), status_id: z.number().int() });
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
  { method: 'post', path: 'account/password/change', summary: 'The signed-in account changes its own password (allowed to a session that must change it)', body: ZChangeOwnPasswordInput, response: z.object({ message: z.string() }) },
  { method: 'get', path: 'policies', summary: 'List password policies (oldest first, not paged) with the number of accounts using each', response: z.array(ZPolicy) },
  { method: 'post', path: 'policy', summary: 'Create a password policy (title unique case-insensitively)', body: ZPolicyInput, response: ZPolicy, status: 201 },
  { method: 'put', path: 'policy/{id}', summary: 'Update a password policy (the whole body, as on create)', body: ZPolicyInput, response: ZPolicy },
  { method: 'delete', path: 'policy/{id}', summary: 'Delete a password policy; refused (409) while accounts use it', response: z.object({ message: z.string() }) },
];

export const ERROR_SCHEMA = ZApiError;
