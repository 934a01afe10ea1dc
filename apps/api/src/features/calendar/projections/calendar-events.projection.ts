import { CALENDAR_EVENT_GROUP_EVENT_TYPES, type CalendarEventGroupEvent } from '@rollcall/domain';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { CalendarEventTable } from '../calendar.tables';

/**
 * calendar_events_v1: one row per live day of a calendar event group, with the group's range. A
 * change of the whole group carries every day after it (a day changed alone with its own values), so
 * it replaces the group's rows; the other events name one row. Applying an event again leaves the same rows.
 */
export class CalendarEventsProjection implements Projection {
  readonly name = 'calendar_events_v1';
  readonly eventTypes = CALENDAR_EVENT_GROUP_EVENT_TYPES;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('calendar_events_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('event_group_id', 'text', (c) => c.notNull())
      .addColumn('attendance_status_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text', (c) => c.notNull())
      .addColumn('group_start_date', 'text', (c) => c.notNull())
      .addColumn('group_end_date', 'text', (c) => c.notNull())
      .addColumn('group_start_time', 'text', (c) => c.notNull())
      .addColumn('group_end_time', 'text', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('calendar_events_v1_account_date').ifNotExists().on('calendar_events_v1').columns(['account_id', 'date']).execute();
    await db.schema.createIndex('calendar_events_v1_group').ifNotExists().on('calendar_events_v1').column('event_group_id').execute();
    await db.schema.createIndex('calendar_events_v1_status').ifNotExists().on('calendar_events_v1').column('attendance_status_id').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('calendar_events_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as CalendarEventGroupEvent;
    switch (event.type) {
      case 'CalendarEventGroupCreated':
      case 'CalendarEventGroupChanged': {
        const d = event.data;
        await trx.deleteFrom('calendar_events_v1').where('event_group_id', '=', d.groupId).execute();
        const rows: Insertable<CalendarEventTable>[] = d.events.map((day) => ({
          id: day.eventId,
          account_id: d.accountId,
          event_group_id: d.groupId,
          attendance_status_id: day.alone?.statusId ?? d.statusId,
          title: day.alone?.title ?? d.title,
          description: day.alone?.description ?? d.description,
          date: day.date,
          start_time: day.alone?.startTime ?? d.startTime,
          end_time: day.alone?.endTime ?? d.endTime,
          group_start_date: d.startDate,
          group_end_date: d.endDate,
          group_start_time: d.startTime,
          group_end_time: d.endTime,
        }));
        // a group spans at most 366 days: a few multi-row inserts stay under every engine's parameter limit
        for (let from = 0; from < rows.length; from += 50) await trx.insertInto('calendar_events_v1').values(rows.slice(from, from + 50)).execute();
        return;
      }
      case 'CalendarEventChanged': {
        const d = event.data;
        await trx
          .updateTable('calendar_events_v1')
          .set({ date: d.date, start_time: d.startTime, end_time: d.endTime, title: d.title, description: d.description, attendance_status_id: d.statusId })
          .where('id', '=', d.eventId)
          .execute();
        return;
      }
      case 'CalendarEventRemoved':
        await trx.deleteFrom('calendar_events_v1').where('id', '=', event.data.eventId).execute();
        return;
      case 'CalendarEventGroupRemoved':
        await trx.deleteFrom('calendar_events_v1').where('event_group_id', '=', event.data.groupId).execute();
        return;
    }
  }
}
