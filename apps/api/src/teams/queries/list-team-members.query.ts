import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TTeamMember } from '@rollcall/contracts';
import { teamNotFound } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../core/tokens';
import type { ReadDatabase } from '../../read-db/read-database';

export class ListTeamMembersQuery {
  constructor(readonly teamId: string) {}
}

/** 'Associated accounts for a team': every member, by name; 404 team.not_found. */
@QueryHandler(ListTeamMembersQuery)
export class ListTeamMembersHandler implements IQueryHandler<ListTeamMembersQuery, TTeamMember[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ teamId }: ListTeamMembersQuery): Promise<TTeamMember[]> {
    const team = await this.db.selectFrom('teams_v1').select('id').where('id', '=', teamId).executeTakeFirst();
    if (!team) throw teamNotFound();
    const rows = await this.db
      .selectFrom('team_members_v1 as m')
      .innerJoin('accounts_v2 as a', 'a.id', 'm.account_id')
      .select(['a.id', 'a.first_name', 'a.last_name', 'a.username'])
      .where('m.team_id', '=', teamId)
      .orderBy('a.last_name')
      .orderBy('a.first_name')
      .orderBy('a.id')
      .execute();
    return rows.map((row) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name, username_readable: row.username }));
  }
}
