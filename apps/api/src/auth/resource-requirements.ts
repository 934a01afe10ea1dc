/** The kinds of resource an administrator's grant is checked against (docs/adr/0011). */
export type ResourceKind = 'account' | 'organization' | 'team' | 'token' | 'role' | 'permission';

/**
 * Where a route's resource id is in the request: `param:id`, `body:organization_id`,
 * `query:account_id` (REST) or `input:id` (tRPC). The value may be one id or a list of ids.
 */
export type IdLocation = `${'param' | 'body' | 'query' | 'input'}:${string}`;

export type ResourceRequirement = { kind: ResourceKind; at: IdLocation } | { kind: 'everywhere' };

/** The call acts on the resource whose id is found `at`: the permission must be held where it belongs. */
export const on = (kind: ResourceKind, at: IdLocation): ResourceRequirement => ({ kind, at });

/** The call acts on what belongs to no organization (password policies, imports): the permission must be held everywhere. */
export const EVERYWHERE: ResourceRequirement = { kind: 'everywhere' };

export interface RequestParts {
  param?: unknown;
  body?: unknown;
  query?: unknown;
  input?: unknown;
}

export function idsAt(request: RequestParts, at: IdLocation): string[] {
  const separator = at.indexOf(':');
  const part = request[at.slice(0, separator) as keyof RequestParts];
  if (!part || typeof part !== 'object') return [];
  const value = (part as Record<string, unknown>)[at.slice(separator + 1)];
  const ids = Array.isArray(value) ? value : [value];
  // v1 clients may send an id as a number: the handlers read it as its text
  return ids.filter((id) => (typeof id === 'string' && id !== '') || typeof id === 'number').map(String);
}
