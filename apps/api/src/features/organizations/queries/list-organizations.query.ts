import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TListOrganizationsQuery, type TOrganization, type TPage } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { organizationsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { escapeLike, ORGANIZATION_COLUMNS, organizationsWithParent, toOrganizations } from './organization-rows';

export class ListOrganizationsQuery {
  /** `scope`: where the asking administrator may read (docs/adr/0011) */
  constructor(
    readonly input: TListOrganizationsQuery,
    readonly scope: Scope,
  ) {}
}

const SORT_COLUMNS = { title: 'o.title_lower', created_at: 'o.created_at' } as const;

/** The /organizations list: every organization at any depth, paged; search is a case-insensitive substring of the title. */
@QueryHandler(ListOrganizationsQuery)
export class ListOrganizationsHandler implements IQueryHandler<ListOrganizationsQuery, TPage<TOrganization>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ input, scope }: ListOrganizationsQuery): Promise<TPage<TOrganization>> {
    let filtered = organizationsWithParent(this.db);
    const withinScope = organizationsWithin(scope, 'o.id');
    if (withinScope) filtered = filtered.where(withinScope);
    if (input.search) filtered = filtered.where(sql<boolean>`o.title_lower like ${`%${escapeLike(input.search)}%`} escape '\\'`);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .select(ORGANIZATION_COLUMNS)
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('o.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return toPage(await toOrganizations(this.db, rows), Number(count.total), input.page, input.limit);
  }
}
