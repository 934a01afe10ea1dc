import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccountAttendance, TAccountAttendanceEntry, TAttendanceView } from '@rollcall/contracts';
import { datesInRange, DomainError, localDateOf } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { Clock } from '../../../platform/runtime/clock';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { attendanceTimeZone } from '../attendance-time-zone';
import { attendanceWindow, summariseSlots, timeLogged } from './attendance-summary';

export class AccountAttendanceQuery {
  /** `dateAt`: a day (daily, weekly) or a month or a day in it (monthly); today in the account's zone when left out */
  constructor(
    readonly accountId: string,
    readonly selected: TAttendanceView,
    readonly dateAt: string | undefined,
  ) {}
}

/**
 * The account's Attendance tab (`GET account/{id}/attendance/{selected}`): its slots of a day, a
 * week (Monday to Sunday) or a month, oldest first, each day of the window up to today without a
 * slot as a row of 'No data', the time logged and the averages. Days are the slots' own (the local
 * date of the arrival in the account's zone); times of day are read in the account's zone now. The
 * account's zone is the one that draws its days: its own, else its organization's, else UTC.
 */
@QueryHandler(AccountAttendanceQuery)
export class AccountAttendanceHandler implements IQueryHandler<AccountAttendanceQuery, TAccountAttendance> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, selected, dateAt }: AccountAttendanceQuery): Promise<TAccountAttendance> {
    const timeZone = await attendanceTimeZone(this.db, accountId);
    if (!timeZone) throw new DomainError('account.not_found', 'Account not found');
    const today = localDateOf(this.clock.now().getTime(), timeZone);
    const { from, to } = attendanceWindow(selected, dateAt ?? today);
    const slots = await this.db
      .selectFrom('attendance_slots_v1')
      .select(['day', 'arrived_at', 'departed_at'])
      .where('account_id', '=', accountId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .orderBy('arrived_at')
      .orderBy('id')
      .execute();
    const present = new Set(slots.map((slot) => slot.day));
    const missing = datesInRange(from, to < today ? to : today).filter((day) => !present.has(day));
    const rows: TAccountAttendanceEntry[] = [
      ...slots.map((slot) => ({
        day: slot.day,
        arrived: { created_at: slot.arrived_at },
        departed: slot.departed_at === null ? null : { created_at: slot.departed_at },
        time_logged: timeLogged(slot),
      })),
      ...missing.map((day) => ({ day, arrived: null, departed: null, time_logged: 0 })),
    ];
    // by day, then by arrival (a day without data has one row)
    rows.sort((left, right) => left.day.localeCompare(right.day) || (left.arrived?.created_at ?? '').localeCompare(right.arrived?.created_at ?? ''));
    const { total_time_logged, average_arrival, average_departure, average_working_hours } = summariseSlots(slots, timeZone);
    return { attendance: rows, total_time_logged, extra: [{ average_arrival, average_departure, average_working_hours }], selected, from, to, time_zone: timeZone };
  }
}
