import { SSO_CLAIM_SCOPES } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/**
 * The OpenID scopes the provider knows (docs/adr/0014, 'Scopes'): they mean claims, refresh tokens
 * or our roles claim. Every other scope a relying party may request is a scope of the application's
 * own resource server: its declared scopes and its permission slugs.
 */
export const OPENID_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'address', 'phone', 'roles'] as const;
const OPENID = new Set<string>(OPENID_SCOPES);
export const isOpenIdScope = (scope: string) => OPENID.has(scope);

/** The claims each OpenID scope releases (the catalogue's, plus what always comes from the account). */
export const SCOPE_CLAIMS: Record<string, string[]> = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  roles: ['roles', 'permissions'],
  ...Object.fromEntries(SSO_CLAIM_SCOPES.map((group) => [group.scope, group.members.map((member) => member.claim)])),
};
SCOPE_CLAIMS.profile = [...(SCOPE_CLAIMS.profile ?? []), 'preferred_username'];

/** The consent page's words for a standard scope an application did not word itself. */
const STANDARD_TEXTS: Record<string, string> = {
  openid: 'Sign you in with your Rollcall account',
  offline_access: 'Stay connected while you are away (refresh tokens)',
  email: 'Your e-mail address',
  roles: 'Your roles and permissions in this application',
  ...Object.fromEntries(SSO_CLAIM_SCOPES.map((group) => [group.scope, group.description])),
};

/** The resource indicator of an application's own API: access tokens for it carry its scopes and permission slugs. */
export const resourceOf = (applicationId: string) => `urn:rollcall:application:${applicationId}`;
export const applicationOfResource = (resource: string) => (resource.startsWith('urn:rollcall:application:') ? resource.slice('urn:rollcall:application:'.length) : null);

export interface ApplicationScopes {
  /** declared scopes that are not OpenID scopes, and permission slugs */
  resourceScopes: Set<string>;
  permissionSlugs: Set<string>;
  /** scope -> description for the consent page */
  descriptions: Map<string, string>;
}

/** What an application offers: its declared scopes (with their words) and its permissions (with theirs). */
export async function applicationScopes(db: Kysely<ReadDatabase>, applicationId: string): Promise<ApplicationScopes | null> {
  const application = await db.selectFrom('applications_v1').select(['scopes']).where('id', '=', applicationId).executeTakeFirst();
  if (!application) return null;
  const permissions = await db.selectFrom('application_permissions_v1').select(['slug', 'description']).where('application_id', '=', applicationId).execute();
  const declared = JSON.parse(application.scopes) as Array<{ scope: string; description: string }>;
  const descriptions = new Map(Object.entries(STANDARD_TEXTS));
  const resourceScopes = new Set<string>();
  for (const { scope, description } of declared) {
    if (description.trim()) descriptions.set(scope, description);
    if (!isOpenIdScope(scope)) resourceScopes.add(scope);
  }
  for (const { slug, description } of permissions) {
    descriptions.set(slug, description.trim() || slug);
    resourceScopes.add(slug);
  }
  return { resourceScopes, permissionSlugs: new Set(permissions.map((permission) => permission.slug)), descriptions };
}

/** The slugs of the roles an account holds in one application, and of the permissions those roles hold. */
export async function applicationRolesOf(db: Kysely<ReadDatabase>, accountId: string, applicationId: string): Promise<{ roles: string[]; permissions: string[] }> {
  const roles = await db
    .selectFrom('account_application_roles_v1 as held')
    .innerJoin('application_roles_v1 as role', 'role.id', 'held.role_id')
    .select(['role.id', 'role.slug'])
    .where('held.account_id', '=', accountId)
    .where('held.application_id', '=', applicationId)
    .execute();
  const permissions = roles.length
    ? await db
        .selectFrom('application_role_permissions_v1 as link')
        .innerJoin('application_permissions_v1 as permission', 'permission.id', 'link.permission_id')
        .select('permission.slug')
        .where('link.role_id', 'in', roles.map((role) => role.id))
        .execute()
    : [];
  const sorted = (values: string[]) => [...new Set(values)].sort();
  return { roles: sorted(roles.map((role) => role.slug)), permissions: sorted(permissions.map((permission) => permission.slug)) };
}

/**
 * The resource scopes an account may be granted in an application: every declared scope, and the
 * permission slugs it holds through its roles. A requested permission it does not hold is left out
 * of the grant, not an error (docs/adr/0014).
 */
export async function grantableResourceScopes(db: Kysely<ReadDatabase>, accountId: string, applicationId: string, offered: ApplicationScopes): Promise<Set<string>> {
  const { permissions } = await applicationRolesOf(db, accountId, applicationId);
  const held = new Set(permissions);
  return new Set([...offered.resourceScopes].filter((scope) => !offered.permissionSlugs.has(scope) || held.has(scope)));
}
