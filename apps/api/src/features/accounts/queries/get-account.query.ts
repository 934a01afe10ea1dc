import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@rollcall/domain';
import type { TAccount } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ACCOUNT_LIST_COLUMNS, toAccount } from '../account-row';

export class GetAccountQuery {
  constructor(readonly accountId: string) {}
}

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, TAccount> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId }: GetAccountQuery): Promise<TAccount> {
    const row = await this.db
      .selectFrom('accounts_v2')
      .select([...ACCOUNT_LIST_COLUMNS, 'policy_id', 'additional'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new DomainError('account.not_found', 'Account not found');
    return toAccount(row);
  }
}
