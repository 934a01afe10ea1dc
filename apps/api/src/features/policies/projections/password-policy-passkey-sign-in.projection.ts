import { PASSWORD_POLICY_EVENT_TYPES, type PasswordPolicyEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/** a policy whose accounts may sign in with a passkey alone (docs/adr/0029); no row: not allowed */
export interface PasswordPolicyPasskeySignInTable {
  policy_id: string;
}

declare module '../../../platform/read-db/read-database' {
  interface ReadDatabase {
    password_policy_passkey_sign_in_v1: PasswordPolicyPasskeySignInTable;
  }
}

/**
 * password_policy_passkey_sign_in_v1: the policies that let their accounts sign in with a passkey
 * alone. Its own table, like the second-factor rule's (password-policy-second-factor.projection.ts),
 * so the option came without rebuilding the table every sign-in reads; a policy whose events do not
 * say `passkeySignIn: true` has no row. Every event carries the whole rule: idempotent.
 */
export class PasswordPolicyPasskeySignInProjection implements Projection {
  readonly name = 'password_policy_passkey_sign_in_v1';
  readonly eventTypes = PASSWORD_POLICY_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createTable('password_policy_passkey_sign_in_v1').ifNotExists().addColumn('policy_id', 'text', (c) => c.primaryKey()).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('password_policy_passkey_sign_in_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as PasswordPolicyEvent;
    switch (event.type) {
      case 'PasswordPolicyCreated':
      case 'PasswordPolicyUpdated':
        if (event.data.passkeySignIn === true) {
          await trx.insertInto('password_policy_passkey_sign_in_v1').values({ policy_id: event.data.policyId }).onConflict((oc) => oc.column('policy_id').doNothing()).execute();
        } else {
          await trx.deleteFrom('password_policy_passkey_sign_in_v1').where('policy_id', '=', event.data.policyId).execute();
        }
        return;
      case 'PasswordPolicyDeleted':
        await trx.deleteFrom('password_policy_passkey_sign_in_v1').where('policy_id', '=', event.data.policyId).execute();
        return;
    }
  }
}
