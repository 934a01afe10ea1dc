import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FIND_ORGANIZATIONS_LIMIT, type TOrganizationSearchItem } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { organizationsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { escapeLike } from './organization-rows';

export class FindOrganizationsQuery {
  /** `scope`: where the asking administrator may read (docs/adr/0011) */
  constructor(
    readonly text: string,
    readonly scope: Scope,
  ) {}
}

/**
 * The association picker: titles containing the text, case-insensitively, those starting with it
 * first, then alphabetical; at most 20. An empty text answers the first 20 titles, so the picker has
 * something to offer before the first keystroke.
 */
@QueryHandler(FindOrganizationsQuery)
export class FindOrganizationsHandler implements IQueryHandler<FindOrganizationsQuery, TOrganizationSearchItem[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ text, scope }: FindOrganizationsQuery): Promise<TOrganizationSearchItem[]> {
    let query = this.db.selectFrom('organizations_v1').select(['id', 'title']);
    const withinScope = organizationsWithin(scope, 'organizations_v1.id');
    if (withinScope) query = query.where(withinScope);
    if (text) {
      const escaped = escapeLike(text);
      query = query.where(sql<boolean>`title_lower like ${`%${escaped}%`} escape '\\'`).orderBy(sql`case when title_lower like ${`${escaped}%`} escape '\\' then 0 else 1 end`);
    }
    return query.orderBy('title_lower').orderBy('id').limit(FIND_ORGANIZATIONS_LIMIT).execute();
  }
}
