import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TApplicationClientType, type TApplicationListItem, type TListApplicationsQuery, type TPage } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { countPerApplication, escapeLike } from './application-rows';

export class ListApplicationsQuery {
  constructor(readonly input: TListApplicationsQuery) {}
}

const SORT_COLUMNS = { title: 'title_lower', created_at: 'created_at' } as const;

/** /applications: paged; search is a case-insensitive substring of the title. Applications belong to no organization. */
@QueryHandler(ListApplicationsQuery)
export class ListApplicationsHandler implements IQueryHandler<ListApplicationsQuery, TPage<TApplicationListItem>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ input }: ListApplicationsQuery): Promise<TPage<TApplicationListItem>> {
    let filtered = this.db.selectFrom('applications_v1');
    if (input.search) filtered = filtered.where(sql<boolean>`title_lower like ${`%${escapeLike(input.search)}%`} escape '\\'`);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .select(['id', 'title', 'url', 'description', 'client_type', 'created_at', 'updated_at'])
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const ids = rows.map((row) => row.id);
    const [roles, permissions] = await Promise.all([countPerApplication(this.db, 'application_roles_v1', ids), countPerApplication(this.db, 'application_permissions_v1', ids)]);
    const items = rows.map((row) => ({
      ...row,
      unique_id: row.id,
      client_type: row.client_type as TApplicationClientType,
      num_roles: roles.get(row.id) ?? 0,
      num_permissions: permissions.get(row.id) ?? 0,
    }));
    return toPage(items, Number(count.total), input.page, input.limit);
  }
}
