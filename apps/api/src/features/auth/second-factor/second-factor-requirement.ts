import { secondFactorRequired } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { loadGrants } from '../queries/load-grants';

/**
 * Must this account sign in with a second factor? Its password policy says for whom (docs/adr/0025):
 * all its accounts, or administrators only, an administrator being an account that holds any system
 * permission anywhere (the grants of docs/adr/0011, read as they are now).
 */
export async function secondFactorRequiredFor(db: Kysely<ReadDatabase>, accountId: string, policyId: string | null): Promise<boolean> {
  if (!policyId) return false;
  const row = await db.selectFrom('password_policy_second_factor_v1').select('requirement').where('policy_id', '=', policyId).executeTakeFirst();
  const requirement = row?.requirement ?? 'off';
  if (requirement !== 'administrators') return secondFactorRequired(requirement, false);
  const grants = await loadGrants(db, accountId);
  return secondFactorRequired(requirement, grants.everywhere.size > 0 || grants.within.size > 0);
}
