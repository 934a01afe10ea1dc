import { SYSTEM_PERMISSION_SLUGS, type SystemPermission } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { EVERY_GRANT, type Grants, NO_GRANTS } from '../../../platform/access/grants';

/**
 * Holds a protected role of the protected first organization (the bootstrap's `administrator`):
 * the super administrator, every system permission everywhere.
 */
export async function isSuperAdministrator(db: Kysely<ReadDatabase>, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_roles_v1')
    .innerJoin('organization_roles_v1', 'organization_roles_v1.id', 'account_roles_v1.role_id')
    .innerJoin('organizations_v1', 'organizations_v1.id', 'organization_roles_v1.organization_id')
    .select('account_roles_v1.role_id')
    .where('account_roles_v1.account_id', '=', accountId)
    .where('organization_roles_v1.is_protected', '=', 1)
    .where('organizations_v1.is_protected', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * An account's grants (docs/adr/0011): everything for the super administrator; otherwise each
 * organization permission whose slug is a system permission, held through the account's roles,
 * grants that permission in the role's organization and every organization below it.
 */
export async function loadGrants(db: Kysely<ReadDatabase>, accountId: string): Promise<Grants> {
  if (await isSuperAdministrator(db, accountId)) return EVERY_GRANT;
  const held = await db
    .selectFrom('account_roles_v1')
    .innerJoin('organization_role_permissions_v1', 'organization_role_permissions_v1.role_id', 'account_roles_v1.role_id')
    .innerJoin('organization_permissions_v1', 'organization_permissions_v1.id', 'organization_role_permissions_v1.permission_id')
    .select(['organization_permissions_v1.slug', 'account_roles_v1.organization_id'])
    .distinct()
    .where('account_roles_v1.account_id', '=', accountId)
    .where('organization_permissions_v1.slug', 'in', SYSTEM_PERMISSION_SLUGS)
    .execute();
  if (held.length === 0) return NO_GRANTS;
  const subtrees = await expandSubtrees(db, [...new Set(held.map((row) => row.organization_id))]);
  const within = new Map<SystemPermission, Set<string>>();
  for (const { slug, organization_id } of held) {
    const organizations = within.get(slug as SystemPermission) ?? new Set<string>();
    for (const id of subtrees.get(organization_id) ?? []) organizations.add(id);
    within.set(slug as SystemPermission, organizations);
  }
  return { everywhere: new Set(), within };
}

/** root -> the root and every organization below it, by one recursive query over `parent_id`. */
export async function expandSubtrees(db: Kysely<ReadDatabase>, roots: string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .withRecursive('subtree(root, id)', (qb) =>
      qb
        .selectFrom('organizations_v1')
        .select(['organizations_v1.id as root', 'organizations_v1.id as id'])
        .where('organizations_v1.id', 'in', roots)
        .unionAll((union) => union.selectFrom('organizations_v1 as child').innerJoin('subtree', 'subtree.id', 'child.parent_id').select(['subtree.root as root', 'child.id as id'])),
    )
    .selectFrom('subtree')
    .select(['root', 'id'])
    .execute();
  const subtrees = new Map<string, string[]>();
  for (const { root, id } of rows) subtrees.set(root, [...(subtrees.get(root) ?? []), id]);
  return subtrees;
}
