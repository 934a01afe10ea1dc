import { PASSWORD_POLICY_EVENT_TYPES, type PasswordPolicyEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * password_policy_second_factor_v1: who must sign in with a second factor under each policy
 * (docs/adr/0025). Its own table beside password_policies_v2, so the rule came without rebuilding
 * (and renaming) the table every sign-in reads; a policy created before the rule has no
 * `secondFactor` in its events and reads as off. Every event carries the whole rule: idempotent.
 */
export class PasswordPolicySecondFactorProjection implements Projection {
  readonly name = 'password_policy_second_factor_v1';
  readonly eventTypes = PASSWORD_POLICY_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('password_policy_second_factor_v1')
      .ifNotExists()
      .addColumn('policy_id', 'text', (c) => c.primaryKey())
      .addColumn('requirement', 'text', (c) => c.notNull())
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('password_policy_second_factor_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as PasswordPolicyEvent;
    switch (event.type) {
      case 'PasswordPolicyCreated':
      case 'PasswordPolicyUpdated': {
        const requirement = event.data.secondFactor ?? 'off';
        await trx
          .insertInto('password_policy_second_factor_v1')
          .values({ policy_id: event.data.policyId, requirement })
          .onConflict((oc) => oc.column('policy_id').doUpdateSet({ requirement }))
          .execute();
        return;
      }
      case 'PasswordPolicyDeleted':
        await trx.deleteFrom('password_policy_second_factor_v1').where('policy_id', '=', event.data.policyId).execute();
        return;
    }
  }
}
