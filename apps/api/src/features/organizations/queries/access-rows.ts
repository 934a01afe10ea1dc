import type { TPermission, TRole } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * Permissions and roles as the spec's shapes (section 3), with their counts: one grouped query per
 * list over the link tables' indexes (`num_uses`: roles holding a permission; `num_associations`:
 * accounts holding a role) and one query for the roles' permissions, never one per row.
 */
export type AccessFilter = { organizationId: string } | { id: string };

export async function loadPermissions(db: Kysely<ReadDatabase>, filter: AccessFilter): Promise<TPermission[]> {
  let query = db.selectFrom('organization_permissions_v1').selectAll();
  query = 'id' in filter ? query.where('id', '=', filter.id) : query.where('organization_id', '=', filter.organizationId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  if (!rows.length) return [];
  const uses = await db
    .selectFrom('organization_role_permissions_v1')
    .select(['permission_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where(
      'permission_id',
      'in',
      rows.map((row) => row.id),
    )
    .groupBy('permission_id')
    .execute();
  const counts = new Map(uses.map((row) => [row.permission_id, Number(row.count)]));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    value: row.title,
    description: row.description,
    num_uses: counts.get(row.id) ?? 0,
    created_at: row.created_at,
    protected: Boolean(row.is_protected),
  }));
}

export async function loadRoles(db: Kysely<ReadDatabase>, filter: AccessFilter): Promise<TRole[]> {
  let query = db.selectFrom('organization_roles_v1').selectAll();
  query = 'id' in filter ? query.where('id', '=', filter.id) : query.where('organization_id', '=', filter.organizationId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  if (!rows.length) return [];
  const ids = rows.map((row) => row.id);
  const [links, associations] = await Promise.all([
    db.selectFrom('organization_role_permissions_v1 as rp').innerJoin('organization_permissions_v1 as p', 'p.id', 'rp.permission_id').select(['rp.role_id', 'rp.permission_id']).where('rp.role_id', 'in', ids).orderBy('p.created_at').orderBy('p.id').execute(),
    db
      .selectFrom('account_roles_v1')
      .select(['role_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('role_id', 'in', ids)
      .groupBy('role_id')
      .execute(),
  ]);
  const permissions = new Map<string, Array<{ id: string }>>();
  for (const link of links) {
    const held = permissions.get(link.role_id) ?? [];
    held.push({ id: link.permission_id });
    permissions.set(link.role_id, held);
  }
  const counts = new Map(associations.map((row) => [row.role_id, Number(row.count)]));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    organization_id: row.organization_id,
    num_associations: counts.get(row.id) ?? 0,
    permissions: permissions.get(row.id) ?? [],
    created_at: row.created_at,
    protected: Boolean(row.is_protected),
  }));
}

/** the roles an account holds in an organization, by role id */
export async function heldRoleIds(db: Kysely<ReadDatabase>, accountId: string, organizationIds: string[]): Promise<Set<string>> {
  if (!organizationIds.length) return new Set();
  const rows = await db.selectFrom('account_roles_v1').select('role_id').where('account_id', '=', accountId).where('organization_id', 'in', organizationIds).execute();
  return new Set(rows.map((row) => row.role_id));
}
