import { SMART_CARD_EVENT_TYPES, type SmartCardEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * smart_cards_v1: the current registration of each card (the account's Smart cards tab). A removed
 * card's row goes; a deleted account's cards leave the list (their streams still name the old owner,
 * and the scan path treats a card without a live owner as unknown).
 */
export class SmartCardsProjection implements Projection {
  readonly name = 'smart_cards_v1';
  readonly eventTypes = [...SMART_CARD_EVENT_TYPES, 'AccountDeleted'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('smart_cards_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('card_uid', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('smart_cards_v1_account').ifNotExists().on('smart_cards_v1').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('smart_cards_v1_uid').ifNotExists().on('smart_cards_v1').column('card_uid').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('smart_cards_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    if (stored.type === 'AccountDeleted') {
      await trx.deleteFrom('smart_cards_v1').where('account_id', '=', (stored.data as { accountId: string }).accountId).execute();
      return;
    }
    const event = { type: stored.type, data: stored.data } as SmartCardEvent;
    switch (event.type) {
      case 'SmartCardRegistered': {
        const d = event.data;
        await trx
          .insertInto('smart_cards_v1')
          .values({ id: d.cardId, card_uid: d.cardUid, account_id: d.accountId, via: d.via, created_at: d.registeredAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'SmartCardRemoved':
        await trx.deleteFrom('smart_cards_v1').where('id', '=', event.data.cardId).execute();
        return;
    }
  }
}
