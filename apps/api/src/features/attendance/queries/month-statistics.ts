import type { TAttendanceStatistic, TStatisticsDay, TStatusDays } from '@rollcall/contracts';
import { absencesBetween } from './absences';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { attendanceTimeZones } from '../attendance-time-zone';
import { dayFigures, monthWindow, totalsOf, type AttendanceTotals, type DayFigures } from './attendance-summary';
import { membersOfSubtree } from './list-arrivals-departures.query';

export interface MonthStatistics {
  month: string;
  /** one per account with a slot or an absence in the month, by last name, first name */
  rows: TAttendanceStatistic[];
  /** the attendance statuses of the month's absences, by title: a column each */
  statuses: Array<Pick<TStatusDays, 'status_id' | 'status'>>;
  summary: AttendanceTotals & { accounts: number };
  days: TStatisticsDay[];
}

/**
 * A month's attendance per account, within the administrator's scope and optionally an
 * organization's subtree. The month's slots are read once and summed here rather than in SQL: the
 * averages are local times of day, and each account's day is read in the zone that draws its days (attendance-time-zone.ts), which SQL cannot
 * do the same way on SQLite and PostgreSQL. A month is a few slots per person and working day.
 */
export async function monthStatistics(db: Kysely<ReadDatabase>, month: string, organizationId: string | undefined, scope: Scope): Promise<MonthStatistics> {
  const { from, to } = monthWindow(month);
  let query = db
    .selectFrom('attendance_slots_v1 as slot')
    .innerJoin('accounts_v2 as account', 'account.id', 'slot.account_id')
    .select(['slot.account_id', 'slot.day', 'slot.arrived_at', 'slot.departed_at'])
    .where('slot.day', '>=', from)
    .where('slot.day', '<=', to);
  const withinScope = accountsWithin(scope, 'slot.account_id');
  if (withinScope) query = query.where(withinScope);
  if (organizationId) query = query.where(membersOfSubtree(organizationId, 'slot.account_id'));
  const slots = await query.orderBy('slot.arrived_at').execute();
  // absences count per account and status: an account with absences and no slot still has a row
  const absences = await absencesBetween(db, from, to, { scope, organizationId });
  const statusDays = new Map<string, Map<string, TStatusDays>>();
  const statuses = new Map<string, Pick<TStatusDays, 'status_id' | 'status'>>();
  const seenDays = new Set<string>();
  for (const absence of absences) {
    // two events of one status on one day are one day of it
    const key = `${absence.account_id}|${absence.status_id}|${absence.day}`;
    if (seenDays.has(key)) continue;
    seenDays.add(key);
    statuses.set(absence.status_id, { status_id: absence.status_id, status: absence.status });
    const perStatus = statusDays.get(absence.account_id) ?? new Map<string, TStatusDays>();
    const counted = perStatus.get(absence.status_id) ?? { status_id: absence.status_id, status: absence.status, days: 0 };
    counted.days += 1;
    perStatus.set(absence.status_id, counted);
    statusDays.set(absence.account_id, perStatus);
  }

  const byAccount = new Map<string, typeof slots>();
  for (const slot of slots) {
    const list = byAccount.get(slot.account_id);
    if (list) list.push(slot);
    else byAccount.set(slot.account_id, [slot]);
  }
  const accountIds = [...new Set([...byAccount.keys(), ...statusDays.keys()])];
  const accounts = accountIds.length === 0 ? [] : await db.selectFrom('accounts_v2').select(['id', 'first_name', 'last_name', 'username']).where('id', 'in', accountIds).execute();
  const byTitle = (left: Pick<TStatusDays, 'status_id' | 'status'>, right: Pick<TStatusDays, 'status_id' | 'status'>) =>
    (left.status ?? '\uffff').localeCompare(right.status ?? '\uffff') || left.status_id.localeCompare(right.status_id);
  const zones = await attendanceTimeZones(db, accounts.map((account) => account.id));

  const allDays: DayFigures[] = [];
  const perDay = new Map<string, TStatisticsDay>();
  const rows = accounts.map((account): TAttendanceStatistic => {
    const days = dayFigures(byAccount.get(account.id) ?? [], zones.get(account.id) ?? 'UTC');
    allDays.push(...days);
    for (const day of days) {
      const figures = perDay.get(day.day) ?? { day: day.day, present: 0, total_time_logged: 0 };
      figures.present += 1;
      figures.total_time_logged += day.logged;
      perDay.set(day.day, figures);
    }
    const { days_present, total_time_logged, average_arrival, average_departure, average_working_hours } = totalsOf(days);
    const absent = [...(statusDays.get(account.id)?.values() ?? [])].sort(byTitle);
    return { account_id: account.id, first_name: account.first_name, last_name: account.last_name, username_readable: account.username, days_present, total_time_logged, average_arrival, average_departure, average_working_hours, absences: absent, time_zone: zones.get(account.id) ?? 'UTC' };
  });
  rows.sort((left, right) => left.last_name.localeCompare(right.last_name) || left.first_name.localeCompare(right.first_name) || left.account_id.localeCompare(right.account_id));
  const days = [...perDay.values()].sort((left, right) => left.day.localeCompare(right.day));
  return { month, rows, summary: { ...totalsOf(allDays), accounts: rows.length }, days, statuses: [...statuses.values()].sort(byTitle) };
}
