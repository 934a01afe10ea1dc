import type { AttendanceDayEvent, ScanFlag } from '@rollcall/domain';
import { ATTENDANCE_DAY_EVENT_TYPES } from '@rollcall/domain';
import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import { compiledStatement } from '../../../platform/read-db/compiled-statement';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

// the statements every scan runs, compiled once (compiledStatement): a scan is an arrival, a departure or an uncounted scan
const insertArrival = compiledStatement<[id: string, accountId: string, day: string, arrivedAt: string, readerId: string, door: string, flags: string]>(7, (db, id, accountId, day, arrivedAt, readerId, door, flags) =>
  db
    .insertInto('attendance_slots_v1')
    .values({
      id,
      account_id: accountId,
      day,
      arrived_at: arrivedAt,
      departed_at: null,
      arrival_reader_id: readerId,
      arrival_door: door,
      departure_reader_id: null,
      departure_door: null,
      flags,
      corrected: 0,
      uncounted_scans: 0,
    })
    .onConflict((oc) => oc.column('id').doNothing()),
);
const selectFlags = compiledStatement<[id: string]>(1, (db, id) => db.selectFrom('attendance_slots_v1').select('flags').where('id', '=', id));
const recordDeparture = compiledStatement<[departedAt: string, readerId: string, door: string, flags: string, id: string]>(5, (db, departedAt, readerId, door, flags, id) =>
  db.updateTable('attendance_slots_v1').set({ departed_at: departedAt, departure_reader_id: readerId, departure_door: door, flags }).where('id', '=', id),
);
const selectLatestOfDay = compiledStatement<[accountId: string, day: string]>(2, (db, accountId, day) =>
  db.selectFrom('attendance_slots_v1').select(['id', 'flags']).where('account_id', '=', accountId).where('day', '<=', day).orderBy('arrived_at', 'desc').limit(1),
);
const countUncounted = compiledStatement<[flags: string, id: string]>(2, (db, flags, id) =>
  db
    .updateTable('attendance_slots_v1')
    .set((eb) => ({ uncounted_scans: eb(eb.ref('uncounted_scans'), '+', 1), flags }))
    .where('id', '=', id),
);

const mergeFlags = (current: string, added: readonly string[]) => JSON.stringify([...new Set([...(JSON.parse(current) as string[]), ...added])]);

/**
 * attendance_slots_v1: the arrivals / departures log, one row per slot (an arrival and its
 * departure), in the day of its arrival, with the doors and readers and the flags of its scans
 * (clock_skew, two_doors, open_day; 'manual' for a slot an administrator added by hand, which has no
 * reader or door). A correction changes the times and marks the row corrected; the
 * events keep what it said before. Uncounted scans (duplicates, late ones) count on the account's
 * latest slot of their day.
 */
export class AttendanceSlotsProjection implements Projection {
  readonly name = 'attendance_slots_v1';
  readonly eventTypes = [...ATTENDANCE_DAY_EVENT_TYPES];

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema
      .createTable('attendance_slots_v1')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('arrived_at', 'text', (c) => c.notNull())
      .addColumn('departed_at', 'text')
      .addColumn('arrival_reader_id', 'text', (c) => c.notNull())
      .addColumn('arrival_door', 'text', (c) => c.notNull())
      .addColumn('departure_reader_id', 'text')
      .addColumn('departure_door', 'text')
      .addColumn('flags', 'text', (c) => c.notNull())
      .addColumn('corrected', 'integer', (c) => c.notNull())
      .addColumn('uncounted_scans', 'integer', (c) => c.notNull())
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.createIndex('attendance_slots_v1_account_day').ifNotExists().on('attendance_slots_v1').columns(['account_id', 'day', 'arrived_at']).execute();
    await db.schema.createIndex('attendance_slots_v1_arrived_at').ifNotExists().on('attendance_slots_v1').column('arrived_at').execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable('attendance_slots_v1').ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, stored: StoredEvent): Promise<void> {
    const event = { type: stored.type, data: stored.data } as AttendanceDayEvent;
    switch (event.type) {
      case 'ArrivalRecorded': {
        const { slotId, accountId, day, scan } = event.data;
        await insertArrival(trx, slotId, accountId, day, scan.at, scan.readerId, scan.door, JSON.stringify(scan.flags));
        return;
      }
      case 'DepartureRecorded': {
        const { slotId, scan } = event.data;
        const [row] = (await selectFlags(trx, slotId)).rows as Array<{ flags: string }>;
        if (!row) return;
        await recordDeparture(trx, scan.at, scan.readerId, scan.door, mergeFlags(row.flags, scan.flags), slotId);
        return;
      }
      case 'UncountedScanRecorded': {
        const { accountId, day, scan } = event.data;
        const [latest] = (await selectLatestOfDay(trx, accountId, day)).rows as Array<{ id: string; flags: string }>;
        if (!latest) return;
        // the count is not state-based; the runner applies an event once (its checkpoint commits with the rows)
        await countUncounted(trx, mergeFlags(latest.flags, scan.flags satisfies ScanFlag[]), latest.id);
        return;
      }
      case 'OpenDayFlagged': {
        const row = await trx.selectFrom('attendance_slots_v1').select('flags').where('id', '=', event.data.slotId).executeTakeFirst();
        if (row) await trx.updateTable('attendance_slots_v1').set({ flags: mergeFlags(row.flags, ['open_day']) }).where('id', '=', event.data.slotId).execute();
        return;
      }
      case 'ManualSlotRecorded': {
        // no scan opened it: no reader and no door; the 'manual' flag marks it (its reason stays in the event)
        const { slotId, accountId, day, arrivedAt, departedAt } = event.data;
        await trx
          .insertInto('attendance_slots_v1')
          .values({
            id: slotId,
            account_id: accountId,
            day,
            arrived_at: arrivedAt,
            departed_at: departedAt,
            arrival_reader_id: '',
            arrival_door: '',
            departure_reader_id: null,
            departure_door: null,
            flags: JSON.stringify(['manual']),
            corrected: 0,
            uncounted_scans: 0,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'AttendanceSlotCorrected': {
        const { slotId, arrivedAt, departedAt } = event.data;
        await trx.updateTable('attendance_slots_v1').set({ arrived_at: arrivedAt, departed_at: departedAt, corrected: 1 }).where('id', '=', slotId).execute();
        return;
      }
    }
  }
}
