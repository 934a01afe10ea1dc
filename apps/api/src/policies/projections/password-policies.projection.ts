import { PASSWORD_POLICY_EVENT_TYPES, type PasswordPolicyEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../event-store/event-store.port';
import type { Projection } from '../../projections/projection';
import type { ReadDatabase } from '../../read-db/read-database';

export class PasswordPoliciesProjection implements Projection {
  readonly name = 'password_policies_v1';
  readonly eventTypes = PASSWORD_POLICY_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('password_policies_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('min_length', 'integer', (c) => c.notNull())
      .addColumn('min_strength', 'integer', (c) => c.notNull())
      .addColumn('history', 'integer')
      .addColumn('max_age', 'integer')
      .addColumn('lockout', 'integer', (c) => c.notNull())
      .addColumn('lockout_duration', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('password_policies_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as PasswordPolicyEvent;
    switch (event.type) {
      case 'PasswordPolicyCreated': {
        const d = event.data;
        await trx
          .insertInto('password_policies_v1')
          .values({ id: d.policyId, title: d.title, description: d.description, min_length: d.minLength, min_strength: d.minStrength, history: d.history, max_age: d.maxAgeDays, lockout: d.lockoutAttempts, lockout_duration: d.lockoutDurationSeconds, created_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
    }
  }
}
