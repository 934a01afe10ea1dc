import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TAccountTeam, type TAccountTeamsQuery, type TPage } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { Scope } from '../../../platform/access/grants';
import { teamsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListAccountTeamsQuery {
  constructor(
    readonly accountId: string,
    readonly input: TAccountTeamsQuery,
    /** where the caller may read teams: a shared member's teams elsewhere stay out of sight (docs/adr/0011) */
    readonly scope: Scope = 'everywhere',
  ) {}
}

const SORT_COLUMNS = { association_created_at: 'm.created_at', team_title: 't.title_lower' } as const;

/** The account's 'Team association' tab: its teams, newest membership first by default. */
@QueryHandler(ListAccountTeamsQuery)
export class ListAccountTeamsHandler implements IQueryHandler<ListAccountTeamsQuery, TPage<TAccountTeam>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, input, scope }: ListAccountTeamsQuery): Promise<TPage<TAccountTeam>> {
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'Account not found');
    const within = teamsWithin(scope, 't.id', 't.organization_id');
    const memberships = this.db
      .selectFrom('team_members_v1 as m')
      .innerJoin('teams_v1 as t', 't.id', 'm.team_id')
      .where('m.account_id', '=', accountId)
      .$if(within !== null, (query) => query.where(within!));
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      memberships
        .select(['t.id', 't.title', 'm.created_at'])
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('t.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      memberships.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return toPage(
      rows.map((row) => ({ team_id: row.id, team_title: row.title, association_created_at: row.created_at })),
      Number(count.total),
      input.page,
      input.limit,
    );
  }
}
