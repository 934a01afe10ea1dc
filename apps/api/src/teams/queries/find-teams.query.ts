import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FIND_TEAMS_LIMIT, type TTeamSearchItem } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import { READ_DB } from '../../core/tokens';
import type { ReadDatabase } from '../../read-db/read-database';
import { escapeLike } from './team-rows';

export class FindTeamsQuery {
  constructor(readonly text: string) {}
}

/**
 * The team picker: titles containing the text, case-insensitively, those starting with it first, then
 * alphabetical; at most 20. An empty text answers the first 20 titles.
 */
@QueryHandler(FindTeamsQuery)
export class FindTeamsHandler implements IQueryHandler<FindTeamsQuery, TTeamSearchItem[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ text }: FindTeamsQuery): Promise<TTeamSearchItem[]> {
    let query = this.db.selectFrom('teams_v1').select(['id', 'title']);
    if (text) {
      const escaped = escapeLike(text);
      query = query.where(sql<boolean>`title_lower like ${`%${escaped}%`} escape '\\'`).orderBy(sql`case when title_lower like ${`${escaped}%`} escape '\\' then 0 else 1 end`);
    }
    return query.orderBy('title_lower').orderBy('id').limit(FIND_TEAMS_LIMIT).execute();
  }
}
