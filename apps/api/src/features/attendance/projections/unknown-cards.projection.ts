import type { SmartCardRegistered, UnknownCardDismissed, UnknownCardScanned } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * unknown_cards_v1: cards scanned at a reader that no account holds, one row per card with its latest
 * scan and how often it was seen; a card leaves the list once it is registered to someone or an
 * administrator dismisses it (a later scan lists it again, counted from one).
 */
export class UnknownCardsProjection implements Projection {
  readonly name = 'unknown_cards_v1';
  readonly eventTypes = ['UnknownCardScanned', 'SmartCardRegistered', 'UnknownCardDismissed'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('unknown_cards_v1')
      .ifNotExists()
      .addColumn('card_uid', 'text', (c) => c.primaryKey())
      .addColumn('reader_id', 'text', (c) => c.notNull())
      .addColumn('door', 'text', (c) => c.notNull())
      .addColumn('scanned_at', 'text', (c) => c.notNull())
      .addColumn('scans', 'integer', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('unknown_cards_v1_scanned_at').ifNotExists().on('unknown_cards_v1').column('scanned_at').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('unknown_cards_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    if (stored.type === 'SmartCardRegistered') {
      await trx.deleteFrom('unknown_cards_v1').where('card_uid', '=', (stored.data as SmartCardRegistered['data']).cardUid).execute();
      return;
    }
    if (stored.type === 'UnknownCardDismissed') {
      await trx.deleteFrom('unknown_cards_v1').where('card_uid', '=', (stored.data as UnknownCardDismissed['data']).cardUid).execute();
      return;
    }
    // named, not assumed: apply handles exactly what eventTypes declares (projection-event-types.unit.spec.ts)
    if (stored.type !== 'UnknownCardScanned') return;
    const { readerId, scan } = stored.data as UnknownCardScanned['data'];
    await trx
      .insertInto('unknown_cards_v1')
      .values({ card_uid: scan.cardUid, reader_id: readerId, door: scan.door, scanned_at: scan.at, scans: 1 })
      .onConflict((oc) =>
        oc.column('card_uid').doUpdateSet({
          reader_id: readerId,
          door: scan.door,
          scanned_at: scan.at,
          scans: (eb) => eb(eb.ref('unknown_cards_v1.scans'), '+', 1),
        }),
      )
      .execute();
  }
}
