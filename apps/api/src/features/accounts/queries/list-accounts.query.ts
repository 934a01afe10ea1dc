import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TAccountListItem, type TListAccountsQuery, type TPage } from '@rollcall/contracts';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ACCOUNT_LIST_COLUMNS, toAccountListItem } from '../account-row';

export class ListAccountsQuery {
  /** `scope`: where the asking administrator may read accounts (docs/adr/0011) */
  constructor(
    readonly input: TListAccountsQuery,
    readonly scope: Scope,
  ) {}
}

const SORT_COLUMNS = {
  created_at: 'created_at',
  username: 'username_lower',
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email_lower',
  status_id: 'status_id',
  last_login_at: 'last_login_at',
} as const;

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

@QueryHandler(ListAccountsQuery)
export class ListAccountsHandler implements IQueryHandler<ListAccountsQuery, TPage<TAccountListItem>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ input, scope }: ListAccountsQuery): Promise<TPage<TAccountListItem>> {
    let filtered = this.db.selectFrom('accounts_v2');
    const withinScope = accountsWithin(scope, 'accounts_v2.id');
    if (withinScope) filtered = filtered.where(withinScope);
    if (input.search) filtered = filtered.where(sql<boolean>`search_text like ${likePattern(input.search)} escape '\\'`);
    if (input.status?.length) filtered = filtered.where('status_id', 'in', input.status);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, total] = await Promise.all([
      filtered
        .select(ACCOUNT_LIST_COLUMNS)
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      input.search || withinScope ? this.countMatching(filtered) : this.countByStatus(input.status),
    ]);
    return toPage(rows.map(toAccountListItem), total, input.page, input.limit);
  }

  /** without a search, the projection's per-status counters give the total at once */
  private async countByStatus(statuses: number[] | undefined): Promise<number> {
    let query = this.db.selectFrom('account_status_counts_v2').select((eb) => eb.fn.sum<number | null>('count').as('total'));
    if (statuses?.length) query = query.where('status_id', 'in', statuses);
    return Number((await query.executeTakeFirstOrThrow()).total ?? 0);
  }

  private async countMatching(filtered: SelectQueryBuilder<ReadDatabase, 'accounts_v2', object>): Promise<number> {
    return Number((await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  }
}
