import { PASSWORD_POLICY_EVENT_TYPES, type PasswordPolicyEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * password_policies_v2: one row per live policy. Every event carries the policy's full rules, so
 * applying one again leaves the same row (idempotent without a position column).
 */
export class PasswordPoliciesProjection implements Projection {
  readonly name = 'password_policies_v2';
  readonly eventTypes = PASSWORD_POLICY_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('password_policies_v2')
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
      .addColumn('updated_at', 'text')
      .execute();
    // v1 had no updated_at; this version rebuilds itself from the events into its own table
    await db.schema.dropTable('password_policies_v1').ifExists().execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('password_policies_v2').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as PasswordPolicyEvent;
    switch (event.type) {
      case 'PasswordPolicyCreated': {
        const d = event.data;
        await trx
          .insertInto('password_policies_v2')
          .values({ id: d.policyId, ...columns(d), created_at: d.createdAt, updated_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'PasswordPolicyUpdated': {
        const d = event.data;
        await trx
          .updateTable('password_policies_v2')
          .set({ ...columns(d), updated_at: d.updatedAt })
          .where('id', '=', d.policyId)
          .execute();
        return;
      }
      case 'PasswordPolicyDeleted':
        await trx.deleteFrom('password_policies_v2').where('id', '=', event.data.policyId).execute();
        return;
    }
  }
}

const columns = (d: Extract<PasswordPolicyEvent, { type: 'PasswordPolicyUpdated' | 'PasswordPolicyCreated' }>['data']) => ({
  title: d.title,
  description: d.description,
  min_length: d.minLength,
  min_strength: d.minStrength,
  history: d.history,
  max_age: d.maxAgeDays,
  lockout: d.lockoutAttempts,
  lockout_duration: d.lockoutDurationSeconds,
});

