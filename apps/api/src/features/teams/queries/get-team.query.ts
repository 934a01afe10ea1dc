import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TTeamDetails } from '@rollcall/contracts';
import { teamNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { TEAM_COLUMNS, teamsWithOrganization, toTeams } from './team-rows';

export class GetTeamQuery {
  constructor(
    readonly teamId: string,
    /** where the caller may read teams: only members inside it are listed (docs/adr/0010) */
    readonly scope: Scope,
  ) {}
}

/**
 * One team with its organization's title, its member count and its members' ids; 404 team.not_found.
 * The ids are those of the members inside the caller's scope; the count counts them all.
 */
@QueryHandler(GetTeamQuery)
export class GetTeamHandler implements IQueryHandler<GetTeamQuery, TTeamDetails> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ teamId, scope }: GetTeamQuery): Promise<TTeamDetails> {
    const inScope = accountsWithin(scope, 'team_members_v1.account_id');
    const row = await teamsWithOrganization(this.db).select(TEAM_COLUMNS).where('t.id', '=', teamId).executeTakeFirst();
    if (!row) throw teamNotFound();
    const [[team], members] = await Promise.all([
      toTeams(this.db, [row]),
      this.db
        .selectFrom('team_members_v1')
        .select('account_id')
        .where('team_id', '=', teamId)
        .$if(inScope !== null, (query) => query.where(inScope!))
        .orderBy('created_at')
        .orderBy('account_id')
        .execute(),
    ]);
    return { ...team, accounts: members.map((member) => member.account_id) };
  }
}
