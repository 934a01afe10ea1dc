import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAccountAttendance, TAccountAttendanceEntry, TAttendanceAbsence, TAttendanceView } from '@rollcall/contracts';
import { attendanceDayStream, datesInRange, DomainError, localDateOf, type ManualSlotRecorded } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { absencesBetween } from './absences';
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
 * account's zone is the one that draws its days: its own, else its organization's, else UTC. Each
 * row names the day's absences (attendance statuses in the calendar) and whether its slot was added
 * by hand (with the reason) or corrected.
 */
@QueryHandler(AccountAttendanceQuery)
export class AccountAttendanceHandler implements IQueryHandler<AccountAttendanceQuery, TAccountAttendance> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ accountId, selected, dateAt }: AccountAttendanceQuery): Promise<TAccountAttendance> {
    const timeZone = await attendanceTimeZone(this.db, accountId);
    if (!timeZone) throw new DomainError('account.not_found', 'Account not found');
    const today = localDateOf(this.clock.now().getTime(), timeZone);
    const { from, to } = attendanceWindow(selected, dateAt ?? today);
    const slots = await this.db
      .selectFrom('attendance_slots_v1')
      .select(['id', 'account_id', 'day', 'arrived_at', 'departed_at', 'flags', 'corrected'])
      .where('account_id', '=', accountId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .orderBy('arrived_at')
      .orderBy('id')
      .execute();
    const absences = new Map<string, TAttendanceAbsence[]>();
    for (const { account_id: _account, ...absence } of await absencesBetween(this.db, from, to, { accountId })) absences.set(absence.day, [...(absences.get(absence.day) ?? []), absence]);
    const reasons = await this.manualReasons(slots.filter((slot) => slot.flags.includes('"manual"')));
    const present = new Set(slots.map((slot) => slot.day));
    // a day without a slot reads 'No data' up to today; a day ahead shows only when the calendar has an absence on it
    const missing = datesInRange(from, to).filter((day) => !present.has(day) && (day <= today || absences.has(day)));
    const rows: TAccountAttendanceEntry[] = [
      ...slots.map((slot) => ({
        day: slot.day,
        arrived: { created_at: slot.arrived_at },
        departed: slot.departed_at === null ? null : { created_at: slot.departed_at },
        time_logged: timeLogged(slot),
        // named only when they apply: a plain row keeps the spec's shape
        ...(reasons.has(slot.id) ? { manual: { reason: reasons.get(slot.id) ?? '' } } : {}),
        ...(Number(slot.corrected) === 1 ? { corrected: true } : {}),
        ...(absences.has(slot.day) ? { absences: absences.get(slot.day) } : {}),
      })),
      ...missing.map((day) => ({ day, arrived: null, departed: null, time_logged: 0, ...(absences.has(day) ? { absences: absences.get(day) } : {}) })),
    ];
    // by day, then by arrival (a day without data has one row)
    rows.sort((left, right) => left.day.localeCompare(right.day) || (left.arrived?.created_at ?? '').localeCompare(right.arrived?.created_at ?? ''));
    const { total_time_logged, average_arrival, average_departure, average_working_hours } = summariseSlots(slots, timeZone);
    return { attendance: rows, total_time_logged, extra: [{ average_arrival, average_departure, average_working_hours }], selected, from, to, time_zone: timeZone };
  }

  /** the reasons of the slots added by hand, from their days' streams (a window holds a few) */
  private async manualReasons(slots: Array<{ id: string; account_id: string; day: string }>): Promise<Map<string, string>> {
    const reasons = new Map<string, string>();
    const streams = [...new Set(slots.map((slot) => attendanceDayStream(slot.account_id, slot.day)))];
    for (const stored of (await Promise.all(streams.map((stream) => this.store.readStream(stream)))).flat()) {
      if (stored.type === 'ManualSlotRecorded') {
        const data = stored.data as ManualSlotRecorded['data'];
        reasons.set(data.slotId, data.reason);
      }
    }
    return reasons;
  }
}
