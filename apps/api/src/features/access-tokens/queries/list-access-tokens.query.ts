import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TAccessToken, type TListAccessTokensQuery, type TPage } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { assertAccountExists } from '../../accounts/queries/assert-account-exists';
import { ACCESS_TOKEN_COLUMNS, toAccessToken } from '../access-token-row';

export class ListAccessTokensQuery {
  /** `scope`: where the asking administrator may read (docs/adr/0011) */
  constructor(
    readonly input: TListAccessTokensQuery,
    readonly scope: Scope,
  ) {}
}

const SORT_COLUMNS = {
  created_at: 'access_tokens_v1.created_at',
  token_title: 'access_tokens_v1.title',
  expires_at: 'access_tokens_v1.expires_at',
  last_used_at: 'access_token_usage.last_used_at',
} as const;

/** The global /access-tokens list, or one account's tokens (`account_id`): newest first by default. */
@QueryHandler(ListAccessTokensQuery)
export class ListAccessTokensHandler implements IQueryHandler<ListAccessTokensQuery, TPage<TAccessToken>> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ input, scope }: ListAccessTokensQuery): Promise<TPage<TAccessToken>> {
    if (input.account_id) await assertAccountExists(this.db, input.account_id, scope);
    let filtered = this.db.selectFrom('access_tokens_v1');
    const withinScope = accountsWithin(scope, 'access_tokens_v1.account_id');
    if (withinScope) filtered = filtered.where(withinScope);
    if (input.account_id) filtered = filtered.where('access_tokens_v1.account_id', '=', input.account_id);
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .leftJoin('accounts_v2', 'accounts_v2.id', 'access_tokens_v1.account_id')
        .leftJoin('access_token_usage', 'access_token_usage.token_id', 'access_tokens_v1.id')
        .select(ACCESS_TOKEN_COLUMNS)
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('access_tokens_v1.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return toPage(rows.map(toAccessToken), Number(count.total), input.page, input.limit);
  }
}
