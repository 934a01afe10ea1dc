import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Scope } from './grants';

const nothing = sql<SqlBool>`1 = 0`;

/** The super administrators: only a super administrator may see or act on them (docs/adr/0011). */
const superAdministrator = (accountColumn: string) => sql<SqlBool>`exists (
  select 1 from account_roles_v1 held
  join organization_roles_v1 role on role.id = held.role_id and role.is_protected = 1
  join organizations_v1 root on root.id = role.organization_id and root.is_protected = 1
  where held.account_id = ${sql.ref(accountColumn)})`;

/**
 * Lists are filtered, not refused (docs/adr/0011): the condition keeping the rows an organization
 * administrator may see; null (no condition) for a scope of everywhere.
 */
export function accountsWithin(scope: Scope, accountColumn: string): RawBuilder<SqlBool> | null {
  if (scope === 'everywhere') return null;
  if (scope.size === 0) return nothing;
  return sql<SqlBool>`(exists (select 1 from organization_members_v1 member where member.account_id = ${sql.ref(accountColumn)} and member.organization_id in (${sql.join([...scope])})) and not ${superAdministrator(accountColumn)})`;
}

export function organizationsWithin(scope: Scope, organizationColumn: string): RawBuilder<SqlBool> | null {
  if (scope === 'everywhere') return null;
  if (scope.size === 0) return nothing;
  return sql<SqlBool>`${sql.ref(organizationColumn)} in (${sql.join([...scope])})`;
}

/** A team of one organization by that organization; a multi-organization team by its members' organizations. */
export function teamsWithin(scope: Scope, teamIdColumn: string, teamOrganizationColumn: string): RawBuilder<SqlBool> | null {
  if (scope === 'everywhere') return null;
  if (scope.size === 0) return nothing;
  const organizations = sql.join([...scope]);
  return sql<SqlBool>`(${sql.ref(teamOrganizationColumn)} in (${organizations}) or (${sql.ref(teamOrganizationColumn)} is null and exists (
    select 1 from team_members_v1 team_member
    join organization_members_v1 member on member.account_id = team_member.account_id
    where team_member.team_id = ${sql.ref(teamIdColumn)} and member.organization_id in (${organizations}))))`;
}

/**
 * The actors a history may name to an organization administrator (docs/adr/0011): accounts of an
 * organization inside the scope, and the super administrators (who act from above every subtree).
 */
export function actorsWithin(scope: Scope, accountColumn: string): RawBuilder<SqlBool> {
  if (scope === 'everywhere') return sql<SqlBool>`1 = 1`;
  if (scope.size === 0) return superAdministrator(accountColumn);
  return sql<SqlBool>`(exists (select 1 from organization_members_v1 member where member.account_id = ${sql.ref(accountColumn)} and member.organization_id in (${sql.join([...scope])})) or ${superAdministrator(accountColumn)})`;
}
