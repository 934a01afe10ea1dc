import { READER_EVENT_TYPES, type ReaderEvent, type ScansAcknowledged } from '@rollcall/domain';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { ReaderTable } from '../readers.tables';

/**
 * readers_v1: one row per live reader: its name, door, role, the hash and prefix of its token, its
 * register mode and the highest sequence its ledger acknowledged. A deleted reader's row goes. Every
 * change is state-based, so applying an event again leaves the same row.
 */
export class ReadersProjection implements Projection {
  readonly name = 'readers_v1';
  readonly eventTypes = [...READER_EVENT_TYPES, 'ScansAcknowledged', 'ScanSequenceReset'];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('readers_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('door', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text')
      .addColumn('token_prefix', 'text')
      .addColumn('register_mode_account_id', 'text')
      .addColumn('register_mode_started_by', 'text')
      .addColumn('register_mode_expires_at', 'text')
      .addColumn('last_sequence', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('readers_v1_token_hash').ifNotExists().on('readers_v1').column('token_hash').execute();
    await db.schema.createIndex('readers_v1_register_mode').ifNotExists().on('readers_v1').column('register_mode_expires_at').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('readers_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as ReaderEvent | ScansAcknowledged | { type: 'ScanSequenceReset'; data: { readerId: string } };
    const at = stored.metadata.occurredAt;
    const update = (readerId: string, values: Updateable<ReaderTable>) =>
      trx.updateTable('readers_v1').set(values).where('id', '=', readerId).execute();
    switch (event.type) {
      case 'DoorReaderRegistered': {
        const d = event.data;
        await trx
          .insertInto('readers_v1')
          .values({ id: d.readerId, name: d.name, door: d.door, role: d.role, token_hash: null, token_prefix: null, register_mode_account_id: null, register_mode_started_by: null, register_mode_expires_at: null, last_sequence: 0, created_at: d.registeredAt, updated_at: d.registeredAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'DoorReaderRenamed':
        await update(event.data.readerId, { name: event.data.name, updated_at: event.data.renamedAt });
        return;
      case 'DoorReaderMoved':
        await update(event.data.readerId, { door: event.data.door, updated_at: event.data.movedAt });
        return;
      case 'ReaderTokenIssued':
        await update(event.data.readerId, { token_hash: event.data.tokenHash, token_prefix: event.data.displayPrefix, updated_at: event.data.issuedAt });
        return;
      case 'ReaderTokenRevoked':
        await update(event.data.readerId, { token_hash: null, token_prefix: null, updated_at: event.data.revokedAt });
        return;
      case 'RegisterModeStarted':
        await update(event.data.readerId, { register_mode_account_id: event.data.accountId, register_mode_started_by: event.data.startedBy, register_mode_expires_at: event.data.expiresAt });
        return;
      case 'RegisterModeEnded':
        await update(event.data.readerId, { register_mode_account_id: null, register_mode_started_by: null, register_mode_expires_at: null });
        return;
      case 'DoorReaderDeleted':
        await trx.deleteFrom('readers_v1').where('id', '=', event.data.readerId).execute();
        return;
      case 'ScansAcknowledged': {
        const ranges = event.data.acknowledged;
        await update(event.data.readerId, { last_sequence: ranges.length ? ranges[ranges.length - 1][1] : 0 });
        return;
      }
      case 'ScanSequenceReset':
        await update(event.data.readerId, { last_sequence: 0, updated_at: at });
        return;
    }
  }
}
