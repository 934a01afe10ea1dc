import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccessToken } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ACCESS_TOKEN_COLUMNS, toAccessToken } from '../access-token-row';

export class GetAccessTokenQuery {
  constructor(readonly tokenId: string) {}
}

@QueryHandler(GetAccessTokenQuery)
export class GetAccessTokenHandler implements IQueryHandler<GetAccessTokenQuery, TAccessToken> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ tokenId }: GetAccessTokenQuery): Promise<TAccessToken> {
    const row = await this.db
      .selectFrom('access_tokens_v1')
      .leftJoin('accounts_v2', 'accounts_v2.id', 'access_tokens_v1.account_id')
      .leftJoin('access_token_usage', 'access_token_usage.token_id', 'access_tokens_v1.id')
      .select(ACCESS_TOKEN_COLUMNS)
      .where('access_tokens_v1.id', '=', tokenId)
      .executeTakeFirst();
    if (!row) throw new DomainError('token.not_found', 'This access token does not exist or was deleted');
    return toAccessToken(row);
  }
}
