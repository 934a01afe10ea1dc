import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS_LABELS, toPage, type AccountStatusId, type TMemberRole, type TOrganizationMember, type TOrganizationMembersQuery, type TPage } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { assertOrganizationExists, escapeLike } from './organization-rows';

export class ListOrganizationMembersQuery {
  /** without `input`: every member (the spec's `members/all`) */
  constructor(
    readonly organizationId: string,
    readonly input?: TOrganizationMembersQuery,
  ) {}
}

export type OrganizationMembers = TPage<TOrganizationMember> | TOrganizationMember[];

/**
 * The Members tab: newest membership first; a search matches username, names and e-mail. Each member's
 * roles there (`{id, slug}`) come from one query for the whole page. 404 for an unknown organization.
 */
@QueryHandler(ListOrganizationMembersQuery)
export class ListOrganizationMembersHandler implements IQueryHandler<ListOrganizationMembersQuery, OrganizationMembers> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId, input }: ListOrganizationMembersQuery): Promise<OrganizationMembers> {
    await assertOrganizationExists(this.db, organizationId);
    let members = this.db.selectFrom('organization_members_v1 as m').innerJoin('accounts_v2 as a', 'a.id', 'm.account_id').where('m.organization_id', '=', organizationId);
    if (input?.search) members = members.where(sql<boolean>`a.search_text like ${`%${escapeLike(input.search)}%`} escape '\\'`);
    let rowsQuery = members
      .select(['a.id', 'a.status_id', 'a.first_name', 'a.last_name', 'a.username', 'a.is_protected', 'm.created_at'])
      .orderBy('m.created_at', 'desc')
      .orderBy('a.id', 'desc');
    if (input) rowsQuery = rowsQuery.limit(input.limit).offset((input.page - 1) * input.limit);
    const rows = await rowsQuery.execute();
    const roles = await rolesOfMembers(
      this.db,
      organizationId,
      rows.map((row) => row.id),
    );
    const items: TOrganizationMember[] = rows.map((row) => ({
      id: row.id,
      status_id: row.status_id,
      status_title: ACCOUNT_STATUS_LABELS[row.status_id as AccountStatusId] ?? 'Unknown',
      first_name: row.first_name,
      last_name: row.last_name,
      username_readable: row.username,
      roles: roles.get(row.id) ?? [],
      created_at: row.created_at,
      protected: Boolean(row.is_protected),
    }));
    if (!input) return items;
    const count = await members.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return toPage(items, Number(count.total), input.page, input.limit);
  }
}

/** the roles each account holds in the organization, oldest role first */
async function rolesOfMembers(db: Kysely<ReadDatabase>, organizationId: string, accountIds: string[]): Promise<Map<string, TMemberRole[]>> {
  const byAccount = new Map<string, TMemberRole[]>();
  for (let start = 0; start < accountIds.length; start += 500) {
    const rows = await db
      .selectFrom('account_roles_v1 as ar')
      .innerJoin('organization_roles_v1 as r', 'r.id', 'ar.role_id')
      .select(['ar.account_id', 'r.id', 'r.slug'])
      .where('ar.organization_id', '=', organizationId)
      .where('ar.account_id', 'in', accountIds.slice(start, start + 500))
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute();
    for (const row of rows) {
      const held = byAccount.get(row.account_id) ?? [];
      held.push({ id: row.id, slug: row.slug });
      byAccount.set(row.account_id, held);
    }
  }
  return byAccount;
}
