import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * A list under an account (its tokens, calendar, smart cards) answers 404 `account.not_found` for an
 * account that does not exist, as `GET account/{id}` and `/auth` do, instead of an empty 200. An
 * account outside the caller's reach was already refused by the guard with the very same answer
 * (auth/access-policy.ts), so neither answer tells the two apart. A call whose guard does not check
 * the account (tRPC `tokens.list` filters by the caller's `scope`) passes that scope: an account
 * outside it is 'not found' too, never an empty list beside a 404 for an unknown one.
 */
export async function assertAccountExists(db: Kysely<ReadDatabase>, accountId: string, scope: Scope = 'everywhere'): Promise<void> {
  let query = db.selectFrom('accounts_v2').select('id').where('id', '=', accountId);
  const withinScope = accountsWithin(scope, 'accounts_v2.id');
  if (withinScope) query = query.where(withinScope);
  const row = await query.executeTakeFirst();
  if (!row) throw new DomainError('account.not_found', 'Account not found');
}
