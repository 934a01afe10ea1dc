import { ACCESS_TOKEN_EVENT_TYPES, type AccessTokenEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * access_tokens_v1: one row per live token, found by the SHA-256 of its secret. A revoked token's
 * row is deleted, and so are an account's tokens when the account is deleted. Every event carries
 * the token's whole grant, so applying one again leaves the same row.
 */
export class AccessTokensProjection implements Projection {
  readonly name = 'access_tokens_v1';
  readonly eventTypes = [...ACCESS_TOKEN_EVENT_TYPES, 'AccountDeleted'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('access_tokens_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('display_prefix', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('restrictions', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('access_tokens_v1_account').ifNotExists().on('access_tokens_v1').columns(['account_id', 'created_at']).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('access_tokens_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    if (stored.type === 'AccountDeleted') {
      await trx.deleteFrom('access_tokens_v1').where('account_id', '=', (stored.data as { accountId: string }).accountId).execute();
      return;
    }
    const event = { type: stored.type, data: stored.data } as AccessTokenEvent;
    switch (event.type) {
      case 'AccessTokenIssued': {
        const d = event.data;
        await trx
          .insertInto('access_tokens_v1')
          .values({
            id: d.tokenId,
            account_id: d.accountId,
            token_hash: d.tokenHash,
            display_prefix: d.displayPrefix,
            title: d.title,
            permissions: JSON.stringify(d.permissions),
            restrictions: JSON.stringify(d.restrictions),
            expires_at: d.expiresAt,
            created_at: d.issuedAt,
            updated_at: d.issuedAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'AccessTokenUpdated': {
        const d = event.data;
        await trx
          .updateTable('access_tokens_v1')
          .set({ title: d.title, permissions: JSON.stringify(d.permissions), restrictions: JSON.stringify(d.restrictions), expires_at: d.expiresAt, updated_at: d.updatedAt })
          .where('id', '=', d.tokenId)
          .execute();
        return;
      }
      case 'AccessTokenRevoked':
        await trx.deleteFrom('access_tokens_v1').where('id', '=', event.data.tokenId).execute();
        return;
    }
  }
}
