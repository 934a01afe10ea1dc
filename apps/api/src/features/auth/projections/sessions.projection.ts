import { SESSION_EVENT_TYPES, type SessionEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/** sessions_v1: the SHA-256 of each session token, so a request can be authenticated by lookup. */
export class SessionsProjection implements Projection {
  readonly name = 'sessions_v1';
  readonly eventTypes = SESSION_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('sessions_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('sessions_v1_account').ifNotExists().on('sessions_v1').column('account_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('sessions_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as SessionEvent;
    switch (event.type) {
      case 'SessionStarted':
        await trx
          .insertInto('sessions_v1')
          .values({ id: event.data.sessionId, token_hash: event.data.tokenHash, account_id: event.data.accountId, started_at: event.data.startedAt, expires_at: event.data.expiresAt, ended_at: null })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      case 'SessionEnded':
        await trx.updateTable('sessions_v1').set({ ended_at: event.data.endedAt }).where('id', '=', event.data.sessionId).execute();
        return;
    }
  }
}
