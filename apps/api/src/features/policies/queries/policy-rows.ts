import type { TPolicy } from '@rollcall/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { PasswordPolicyTable } from '../policies.tables';

/** Accounts that have each policy enforced, from the accounts read model (indexed by policy_id). */
export async function countAccountsByPolicy(db: Kysely<ReadDatabase>, policyIds: string[]): Promise<Map<string, number>> {
  if (!policyIds.length) return new Map();
  const rows = await db
    .selectFrom('accounts_v2')
    .select(['policy_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('policy_id', 'in', policyIds)
    .groupBy('policy_id')
    .execute();
  return new Map(rows.map((row) => [row.policy_id as string, Number(row.count)]));
}

/** Who must use a second factor under each policy (its own read model, docs/adr/0025); no row: off. */
export async function secondFactorRequirements(db: Kysely<ReadDatabase>, policyIds: string[]): Promise<Map<string, 'off' | 'all' | 'administrators'>> {
  if (!policyIds.length) return new Map();
  const rows = await db.selectFrom('password_policy_second_factor_v1').selectAll().where('policy_id', 'in', policyIds).execute();
  return new Map(rows.map((row) => [row.policy_id, row.requirement]));
}

/** The policies (of these) whose accounts may sign in with a passkey alone (docs/adr/0029). */
export async function passkeySignInAllowed(db: Kysely<ReadDatabase>, policyIds: string[]): Promise<Set<string>> {
  if (!policyIds.length) return new Set();
  const rows = await db.selectFrom('password_policy_passkey_sign_in_v1').select('policy_id').where('policy_id', 'in', policyIds).execute();
  return new Set(rows.map((row) => row.policy_id));
}

export async function toPolicies(db: Kysely<ReadDatabase>, rows: Selectable<PasswordPolicyTable>[]): Promise<TPolicy[]> {
  const counts = await countAccountsByPolicy(
    db,
    rows.map((row) => row.id),
  );
  const secondFactor = await secondFactorRequirements(db, rows.map((row) => row.id));
  const passkeySignIn = await passkeySignInAllowed(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    min_length: row.min_length,
    min_strength: row.min_strength,
    history: row.history,
    max_age: row.max_age,
    lockout: row.lockout,
    lockout_duration: row.lockout_duration,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
    second_factor: secondFactor.get(row.id) ?? 'off',
    passkey_sign_in: passkeySignIn.has(row.id),
    num_accounts: counts.get(row.id) ?? 0,
  }));
}
