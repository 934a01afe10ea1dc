import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccountAuth } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../core/tokens';
import type { ReadDatabase } from '../../read-db/read-database';

export class GetAccountAuthQuery {
  constructor(readonly accountId: string) {}
}

/** `GET account/{id}/auth`: what the status card shows and writes back. */
@QueryHandler(GetAccountAuthQuery)
export class GetAccountAuthHandler implements IQueryHandler<GetAccountAuthQuery, TAccountAuth> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId }: GetAccountAuthQuery): Promise<TAccountAuth> {
    const row = await this.db.selectFrom('accounts_v2').select(['username', 'policy_id', 'status_id']).where('id', '=', accountId).executeTakeFirst();
    if (!row) throw new DomainError('account.not_found', 'Account not found');
    return { username: row.username, policy_id: row.policy_id, status_id: row.status_id };
  }
}
