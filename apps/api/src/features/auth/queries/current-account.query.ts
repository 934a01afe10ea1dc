import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TCurrentAccount } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { grantsForConsole, type Grants } from '../../../platform/access/grants';
import { loadGrants } from './load-grants';

export class CurrentAccountQuery {
  /** `grants`: the asking credential's, when there is one (a token's are narrower than its account's) */
  constructor(
    readonly accountId: string,
    readonly grants?: Grants,
  ) {}
}

@QueryHandler(CurrentAccountQuery)
export class CurrentAccountHandler implements IQueryHandler<CurrentAccountQuery, TCurrentAccount> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, grants }: CurrentAccountQuery): Promise<TCurrentAccount> {
    const row = await this.db.selectFrom('accounts_v2').select(['id', 'first_name', 'last_name', 'username', 'additional']).where('id', '=', accountId).executeTakeFirst();
    if (!row) throw new DomainError('account.not_found', 'Account not found');
    const additional = JSON.parse(row.additional) as { profilePicture?: string | null };
    return { id: row.id, first_name: row.first_name, last_name: row.last_name, username_readable: row.username, additional: { profilePicture: additional.profilePicture ?? null }, grants: grantsForConsole(grants ?? (await loadGrants(this.db, accountId))) };
  }
}
