import type { TOrganization } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/** an organization row with its parent's title (a self-join; `parent` may be missing) */
export const organizationsWithParent = (db: Kysely<ReadDatabase>) => db.selectFrom('organizations_v1 as o').leftJoin('organizations_v1 as p', 'p.id', 'o.parent_id');

export const ORGANIZATION_COLUMNS = ['o.id', 'o.title', 'o.description', 'o.parent_id', 'o.is_protected', 'o.created_at', 'o.updated_at', 'p.title as parent_title'] as const;

interface OrganizationRow {
  id: string;
  title: string;
  description: string;
  parent_id: string | null;
  is_protected: number;
  created_at: string;
  updated_at: string;
  parent_title: string | null;
}

/** members per organization: one grouped count per page over the primary key's leading column, no query per row */
export async function countMembers(db: Kysely<ReadDatabase>, organizationIds: string[]): Promise<Map<string, number>> {
  if (!organizationIds.length) return new Map();
  const rows = await db
    .selectFrom('organization_members_v1')
    .select(['organization_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('organization_id', 'in', organizationIds)
    .groupBy('organization_id')
    .execute();
  return new Map(rows.map((row) => [row.organization_id, Number(row.count)]));
}

/** direct sub-organizations per organization, the same way (indexed by parent_id) */
export async function countChildren(db: Kysely<ReadDatabase>, organizationIds: string[]): Promise<Map<string, number>> {
  if (!organizationIds.length) return new Map();
  const rows = await db
    .selectFrom('organizations_v1')
    .select(['parent_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('parent_id', 'in', organizationIds)
    .groupBy('parent_id')
    .execute();
  return new Map(rows.map((row) => [row.parent_id as string, Number(row.count)]));
}

export async function toOrganizations(db: Kysely<ReadDatabase>, rows: OrganizationRow[]): Promise<TOrganization[]> {
  const ids = rows.map((row) => row.id);
  const [children, members] = await Promise.all([countChildren(db, ids), countMembers(db, ids)]);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    unique_id: row.id,
    active: 1 as const,
    protected: Boolean(row.is_protected),
    parent_id: row.parent_id,
    parent_title: row.parent_title,
    num_children: children.get(row.id) ?? 0,
    num_members: members.get(row.id) ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

export async function assertOrganizationExists(db: Kysely<ReadDatabase>, organizationId: string): Promise<{ id: string; title: string }> {
  const row = await db.selectFrom('organizations_v1').select(['id', 'title']).where('id', '=', organizationId).executeTakeFirst();
  if (!row) throw new DomainError('organization.not_found', 'Organization not found');
  return row;
}

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
export const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
