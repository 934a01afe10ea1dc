import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FIND_TEAMS_LIMIT, type TTeamSearchItem } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { teamsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { escapeLike } from './team-rows';

export class FindTeamsQuery {
  /** `scope`: where the asking administrator may read (docs/adr/0011) */
  constructor(
    readonly text: string,
    readonly scope: Scope,
  ) {}
}

/**
 * The team picker: titles containing the text, case-insensitively, those starting with it first, then
 * alphabetical; at most 20. An empty text answers the first 20 titles.
 */
@QueryHandler(FindTeamsQuery)
export class FindTeamsHandler implements IQueryHandler<FindTeamsQuery, TTeamSearchItem[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ text, scope }: FindTeamsQuery): Promise<TTeamSearchItem[]> {
    let query = this.db.selectFrom('teams_v1').select(['id', 'title']);
    const withinScope = teamsWithin(scope, 'teams_v1.id', 'teams_v1.organization_id');
    if (withinScope) query = query.where(withinScope);
    if (text) {
      const escaped = escapeLike(text);
      query = query.where(sql<boolean>`title_lower like ${`%${escaped}%`} escape '\\'`).orderBy(sql`case when title_lower like ${`${escaped}%`} escape '\\' then 0 else 1 end`);
    }
    return query.orderBy('title_lower').orderBy('id').limit(FIND_TEAMS_LIMIT).execute();
  }
}
