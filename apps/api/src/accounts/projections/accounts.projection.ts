import type { AccountEvent } from '@rollcall/domain';
import { ACCOUNT_EVENT_TYPES } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../event-store/event-store.port';
import type { Projection } from '../../projections/projection';
import type { ReadDatabase } from '../../read-db/read-database';

/** accounts_v1: one row per account, what lists, search and sign-in read. */
export class AccountsProjection implements Projection {
  readonly name = 'accounts_v1';
  readonly eventTypes = ACCOUNT_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('accounts_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lower', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('status_id', 'integer', (c) => c.notNull())
      .addColumn('policy_id', 'text')
      .addColumn('organization_id', 'text')
      .addColumn('is_protected', 'integer', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_login_at', 'text')
      .addColumn('additional', 'text', (c) => c.notNull())
      .addColumn('position_commit', 'bigint', (c) => c.notNull())
      .addColumn('position_sequence', 'bigint', (c) => c.notNull())
      .execute();
    // Each index serves a sort of the list (newest first is the default) or a lookup.
    for (const column of ['created_at', 'status_id', 'last_name', 'email_lower'] as const) {
      await db.schema.createIndex(`accounts_v1_${column}`).ifNotExists().on('accounts_v1').columns([column, 'id']).execute();
    }
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('accounts_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as AccountEvent;
    const position = { position_commit: stored.position.commit, position_sequence: stored.position.sequence };
    switch (event.type) {
      case 'AccountCreated': {
        const d = event.data;
        await trx
          .insertInto('accounts_v1')
          .values({
            id: d.accountId,
            username: d.username,
            username_lower: d.username.toLowerCase(),
            email: d.email,
            email_lower: d.email.toLowerCase(),
            first_name: d.firstName,
            last_name: d.lastName,
            search_text: [d.username, d.firstName, d.lastName, d.email].join(' ').toLowerCase(),
            status_id: d.statusId,
            policy_id: d.policyId,
            organization_id: d.organizationId,
            is_protected: d.isProtected ? 1 : 0,
            password_hash: d.passwordHash,
            expires_at: d.expiresAt,
            created_at: d.createdAt,
            last_login_at: null,
            additional: JSON.stringify({ email: [{ value: d.email, type: 'work' }], telephone: [] }),
            ...position,
          })
          // replaying an already applied event changes nothing
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'AccountSignedIn':
        await trx
          .updateTable('accounts_v1')
          .set({ last_login_at: event.data.at, ...position })
          .where('id', '=', event.data.accountId)
          .execute();
        return;
    }
  }
}
