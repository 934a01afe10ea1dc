import { ATTENDANCE_STATUS_EVENT_TYPES, type AttendanceStatusEvent } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * attendance_statuses_v1: one row per live status. Every event carries the status's whole state, so
 * applying one again leaves the same row (idempotent without a position column).
 */
export class AttendanceStatusesProjection implements Projection {
  readonly name = 'attendance_statuses_v1';
  readonly eventTypes = ATTENDANCE_STATUS_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('attendance_statuses_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('attendance_statuses_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as AttendanceStatusEvent;
    switch (event.type) {
      case 'AttendanceStatusCreated': {
        const d = event.data;
        await trx
          .insertInto('attendance_statuses_v1')
          .values({ id: d.statusId, title: d.title, active: d.active ? 1 : 0, created_at: d.createdAt, updated_at: d.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'AttendanceStatusUpdated': {
        const d = event.data;
        await trx
          .updateTable('attendance_statuses_v1')
          .set({ title: d.title, active: d.active ? 1 : 0, updated_at: d.updatedAt })
          .where('id', '=', d.statusId)
          .execute();
        return;
      }
      case 'AttendanceStatusDeleted':
        await trx.deleteFrom('attendance_statuses_v1').where('id', '=', event.data.statusId).execute();
        return;
    }
  }
}
