/** The kinds of resource an administrator's grant is checked against (docs/adr/0011). */
export type ResourceKind = 'account' | 'organization' | 'team' | 'token' | 'role' | 'permission';

/**
 * Where a route's resource id is in the request: `param:id`, `body:organization_id`,
 * `query:account_id` (REST) or `input:id` (tRPC). The value may be one id or a list of ids.
 */
export type IdLocation = `${'param' | 'body' | 'query' | 'input'}:${string}`;

export type ResourceRequirement =
  /** the permission must be held in one of the organizations the resource belongs to */
  | { kind: ResourceKind; at: IdLocation }
  /**
   * `account-fully-within-scope`: the permission must be held in EVERY organization the account (or
   * the token's account) belongs to. What acts on the account itself, its credentials, tokens,
   * status, profile, cards, claims and deletion, needs it (docs/adr/0011): an account shared with an
   * organization outside the administrator's subtree is only theirs as far as its membership and
   * roles go.
   */
  | { kind: 'account-fully-within-scope'; resource: 'account' | 'token' | 'team'; at: IdLocation }
  /** a move in the tree: the permission where the organization leaves and where it lands; the top level is the root's */
  | { kind: 'organization-move'; organization: IdLocation; parent: IdLocation }
  /**
   * deleting an organization: sub-organizations sent to the top level need the root; accounts deleted
   * with it need accounts:delete wherever each of them belongs
   */
  | { kind: 'organization-deletion'; organization: IdLocation; suborganizations: IdLocation; accounts: IdLocation }
  | { kind: 'everywhere' };

/** The call acts on the resource whose id is found `at`: the permission must be held where it belongs. */
export const on = (kind: ResourceKind, at: IdLocation): ResourceRequirement => ({ kind, at });

/**
 * The call acts on the account itself (credentials, tokens, status, profile, deletion), or on a token
 * of an account: the permission must be held wherever that account belongs (docs/adr/0011).
 */
export const onWholeAccount = (at: IdLocation, resource: 'account' | 'token' = 'account'): ResourceRequirement => ({ kind: 'account-fully-within-scope', resource, at });

/**
 * The call changes or deletes a team: the permission must be held in every organization it spans (a
 * multi-organization team spans its members' organizations), like the whole-account rule (docs/adr/0010).
 */
export const onWholeTeam = (at: IdLocation): ResourceRequirement => ({ kind: 'account-fully-within-scope', resource: 'team', at });

/**
 * The call may move the organization found at `organization` under the parent found at `parent`
 * (absent: no move; null or '': to the top level).
 */
export const movingOrganization = (organization: IdLocation, parent: IdLocation): ResourceRequirement => ({ kind: 'organization-move', organization, parent });

/** The call deletes the organization at `organization` with the dialog's choices found at `suborganizations` and `accounts`. */
export const deletingOrganization = (organization: IdLocation, suborganizations: IdLocation, accounts: IdLocation): ResourceRequirement => ({
  kind: 'organization-deletion',
  organization,
  suborganizations,
  accounts,
});

/** The call acts on what belongs to no organization (password policies, imports): the permission must be held everywhere. */
export const EVERYWHERE: ResourceRequirement = { kind: 'everywhere' };

export interface RequestParts {
  param?: unknown;
  body?: unknown;
  query?: unknown;
  input?: unknown;
}

/** The raw value at a location; `undefined` when the request does not carry it. */
export function valueAt(request: RequestParts, at: IdLocation): unknown {
  const separator = at.indexOf(':');
  const part = request[at.slice(0, separator) as keyof RequestParts];
  if (!part || typeof part !== 'object') return undefined;
  return (part as Record<string, unknown>)[at.slice(separator + 1)];
}

export function idsAt(request: RequestParts, at: IdLocation): string[] {
  const value = valueAt(request, at);
  const ids = Array.isArray(value) ? value : [value];
  // v1 clients may send an id as a number: the handlers read it as its text
  return ids.filter((id) => (typeof id === 'string' && id !== '') || typeof id === 'number').map(String);
}
