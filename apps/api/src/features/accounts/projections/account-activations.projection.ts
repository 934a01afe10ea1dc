import type { AccountEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

const EVENT_TYPES: AccountEvent['type'][] = ['ActivationIssued', 'AccountActivated', 'AccountDeleted'];

/**
 * account_activations_v1: finds the account of an activation link by the link's SHA-256. At most one
 * row per account (a new link replaces the old one). Whether a link still works is decided on the
 * account's stream, so this table may lag or keep a row too long without harm.
 */
export class AccountActivationsProjection implements Projection {
  readonly name = 'account_activations_v1';
  readonly eventTypes = EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('account_activations_v1')
      .ifNotExists()
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('account_activations_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as AccountEvent;
    switch (event.type) {
      case 'ActivationIssued':
        await trx
          .insertInto('account_activations_v1')
          .values({ account_id: event.data.accountId, token_hash: event.data.tokenHash, expires_at: event.data.expiresAt })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ token_hash: event.data.tokenHash, expires_at: event.data.expiresAt }))
          .execute();
        return;
      case 'AccountActivated':
      case 'AccountDeleted':
        await trx.deleteFrom('account_activations_v1').where('account_id', '=', event.data.accountId).execute();
        return;
    }
  }
}
