import { SYSTEM_PERMISSION_SLUGS, type SystemPermission, type TGrants } from '@rollcall/contracts';

/**
 * What a principal may do, and where (docs/adr/0011): system permissions held everywhere (the super
 * administrator) and system permissions held within organizations, each with the whole subtree below
 * the organization where a role grants it already expanded, so a check is one set lookup.
 */
export interface Grants {
  everywhere: ReadonlySet<SystemPermission>;
  /** permission -> every organization (subtrees expanded) where it is held */
  within: ReadonlyMap<SystemPermission, ReadonlySet<string>>;
}

export const NO_GRANTS: Grants = { everywhere: new Set(), within: new Map() };

export const EVERY_GRANT: Grants = { everywhere: new Set(SYSTEM_PERMISSION_SLUGS), within: new Map() };

/** Where a principal may use a permission: everywhere, or within these organizations (possibly none). */
export type Scope = 'everywhere' | ReadonlySet<string>;

export function scopeOf(grants: Grants, permission: SystemPermission): Scope {
  if (grants.everywhere.has(permission)) return 'everywhere';
  return grants.within.get(permission) ?? new Set();
}

export function holdsAnywhere(grants: Grants, permission: SystemPermission): boolean {
  return grants.everywhere.has(permission) || (grants.within.get(permission)?.size ?? 0) > 0;
}

export function isWithin(scope: Scope, organizationIds: readonly string[]): boolean {
  return scope === 'everywhere' || organizationIds.some((id) => scope.has(id));
}

/**
 * Every one of the organizations lies within the scope (docs/adr/0011): what acting on an account
 * itself needs. A resource that belongs to no organization is only within 'everywhere'.
 */
export function isFullyWithin(scope: Scope, organizationIds: readonly string[]): boolean {
  return scope === 'everywhere' || (organizationIds.length > 0 && organizationIds.every((id) => scope.has(id)));
}

/** Every organization where the principal holds any permission: what it may know exists. */
export function visibleOrganizations(grants: Grants): Scope {
  if (grants.everywhere.size > 0) return 'everywhere';
  const visible = new Set<string>();
  for (const organizations of grants.within.values()) for (const id of organizations) visible.add(id);
  return visible;
}

/** An access token's grants: its own permission list, never beyond what its account holds. */
export function restrictGrants(grants: Grants, permissions: ReadonlySet<SystemPermission>): Grants {
  return {
    everywhere: new Set([...grants.everywhere].filter((permission) => permissions.has(permission))),
    within: new Map([...grants.within].filter(([permission]) => permissions.has(permission))),
  };
}

/** For the console (`auth.me`): what to show, hide or disable. */
export function grantsForConsole(grants: Grants): TGrants {
  const anywhere = SYSTEM_PERMISSION_SLUGS.filter((permission) => holdsAnywhere(grants, permission));
  return {
    everywhere: [...grants.everywhere],
    anywhere,
    within: Object.fromEntries([...grants.within].map(([permission, organizations]) => [permission, [...organizations]])),
  };
}
