import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { accountClaimGroups, type TAccountClaimGroup } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { profileFallbacks } from '../released-sso-claims';

export class GetAccountClaimsQuery {
  constructor(readonly accountId: string) {}
}

/**
 * `GET account/{id}/claims`: the catalogue's groups with the values set for the account (null where
 * none is) and what the profile releases meanwhile (`fallback_value`, the same rule the provider uses).
 */
@QueryHandler(GetAccountClaimsQuery)
export class GetAccountClaimsHandler implements IQueryHandler<GetAccountClaimsQuery, TAccountClaimGroup[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId }: GetAccountClaimsQuery): Promise<TAccountClaimGroup[]> {
    const account = await this.db.selectFrom('accounts_v2').select(['first_name', 'last_name', 'additional']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'Account not found');
    const rows = await this.db.selectFrom('account_sso_claims_v1').select(['claim', 'value']).where('account_id', '=', accountId).execute();
    return accountClaimGroups(Object.fromEntries(rows.map((row) => [row.claim, row.value])), profileFallbacks(account));
  }
}
