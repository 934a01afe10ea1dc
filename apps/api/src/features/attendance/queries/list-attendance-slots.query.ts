import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListAttendanceSlotsQuery {
  constructor(readonly filter: { accountId?: string; dateFrom?: string; dateTo?: string; readerId?: string; limit?: number }) {}
}

/**
 * A slot of the arrivals / departures read model as it stands (the Arrivals / Departures log builds on
 * it: docs/api/compat.md).
 */
export interface AttendanceSlotRow {
  id: string;
  account_id: string;
  day: string;
  arrived_at: string;
  departed_at: string | null;
  arrival_reader_id: string;
  arrival_door: string;
  departure_reader_id: string | null;
  departure_door: string | null;
  flags: string[];
  corrected: boolean;
  uncounted_scans: number;
}

/** Slots by account, local day range and reader, latest arrival first. */
@QueryHandler(ListAttendanceSlotsQuery)
export class ListAttendanceSlotsHandler implements IQueryHandler<ListAttendanceSlotsQuery, AttendanceSlotRow[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ filter }: ListAttendanceSlotsQuery): Promise<AttendanceSlotRow[]> {
    let query = this.db.selectFrom('attendance_slots_v1').selectAll();
    if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
    if (filter.dateFrom) query = query.where('day', '>=', filter.dateFrom);
    if (filter.dateTo) query = query.where('day', '<=', filter.dateTo);
    if (filter.readerId) {
      const readerId = filter.readerId;
      query = query.where((eb) => eb.or([eb('arrival_reader_id', '=', readerId), eb('departure_reader_id', '=', readerId)]));
    }
    const rows = await query.orderBy('arrived_at', 'desc').orderBy('id', 'desc').limit(filter.limit ?? 100).execute();
    return rows.map((row) => ({ ...row, flags: JSON.parse(row.flags) as string[], corrected: Boolean(row.corrected), uncounted_scans: Number(row.uncounted_scans) }));
  }
}
