import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TTeamMember } from '@rollcall/contracts';
import { teamNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListTeamMembersQuery {
  constructor(
    readonly teamId: string,
    /** where the caller may read teams: only members inside it are named (docs/adr/0010) */
    readonly scope: Scope,
  ) {}
}

/**
 * 'Associated accounts for a team': its members by name; 404 team.not_found. An organization
 * administrator sees only the members inside its scope: a multi-organization team's members from
 * other organizations are counted (`num_members`) but never named (docs/adr/0010).
 */
@QueryHandler(ListTeamMembersQuery)
export class ListTeamMembersHandler implements IQueryHandler<ListTeamMembersQuery, TTeamMember[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ teamId, scope }: ListTeamMembersQuery): Promise<TTeamMember[]> {
    const team = await this.db.selectFrom('teams_v1').select('id').where('id', '=', teamId).executeTakeFirst();
    if (!team) throw teamNotFound();
    const inScope = accountsWithin(scope, 'a.id');
    const rows = await this.db
      .selectFrom('team_members_v1 as m')
      .innerJoin('accounts_v2 as a', 'a.id', 'm.account_id')
      .select(['a.id', 'a.first_name', 'a.last_name', 'a.username'])
      .where('m.team_id', '=', teamId)
      .$if(inScope !== null, (query) => query.where(inScope!))
      .orderBy('a.last_name')
      .orderBy('a.first_name')
      .orderBy('a.id')
      .execute();
    return rows.map((row) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name, username_readable: row.username }));
  }
}
