import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TPage, type TSubOrganization, type TSubOrganizationsQuery } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { assertOrganizationExists, countMembers } from './organization-rows';

export class ListSubOrganizationsQuery {
  constructor(
    readonly organizationId: string,
    readonly input: TSubOrganizationsQuery,
  ) {}
}

/** The Sub-organizations tab: the direct children, newest first, paged; 404 for an unknown organization. */
@QueryHandler(ListSubOrganizationsQuery)
export class ListSubOrganizationsHandler implements IQueryHandler<ListSubOrganizationsQuery, TPage<TSubOrganization>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ organizationId, input }: ListSubOrganizationsQuery): Promise<TPage<TSubOrganization>> {
    const parent = await assertOrganizationExists(this.db, organizationId);
    const children = this.db.selectFrom('organizations_v1').where('parent_id', '=', organizationId);
    const [rows, count] = await Promise.all([
      children
        .select(['id', 'title', 'is_protected', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      children.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const members = await countMembers(
      this.db,
      rows.map((row) => row.id),
    );
    const items = rows.map((row) => ({ id: row.id, title: row.title, parent_title: parent.title, num_members: members.get(row.id) ?? 0, created_at: row.created_at, protected: Boolean(row.is_protected) }));
    return toPage(items, Number(count.total), input.page, input.limit);
  }
}
