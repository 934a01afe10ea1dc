import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TListTeamsQuery, type TPage, type TTeam } from '@rollcall/contracts';
import { sql, type Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { teamsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { escapeLike, TEAM_COLUMNS, teamsWithOrganization, toTeams } from './team-rows';

export class ListTeamsQuery {
  /** `scope`: where the asking administrator may read (docs/adr/0011) */
  constructor(
    readonly input: TListTeamsQuery,
    readonly scope: Scope,
  ) {}
}

const SORT_COLUMNS = { title: 't.title_lower', created_at: 't.created_at' } as const;

/** /teams and an organization's Teams tab: paged; search is a case-insensitive substring of the title. */
@QueryHandler(ListTeamsQuery)
export class ListTeamsHandler implements IQueryHandler<ListTeamsQuery, TPage<TTeam>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ input, scope }: ListTeamsQuery): Promise<TPage<TTeam>> {
    let filtered = teamsWithOrganization(this.db);
    const withinScope = teamsWithin(scope, 't.id', 't.organization_id');
    if (withinScope) filtered = filtered.where(withinScope);
    if (input.search) filtered = filtered.where(sql<boolean>`t.title_lower like ${`%${escapeLike(input.search)}%`} escape '\\'`);
    // a live organization's teams: a deleted organization's teams show without one (docs/adr/0010)
    if (input.organization_id) filtered = filtered.where('t.organization_id', '=', input.organization_id).where('o.id', 'is not', null);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .select(TEAM_COLUMNS)
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('t.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return toPage(await toTeams(this.db, rows), Number(count.total), input.page, input.limit);
  }
}
