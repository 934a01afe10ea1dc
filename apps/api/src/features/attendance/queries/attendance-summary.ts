import type { TAttendanceAverages, TAttendanceView } from '@rollcall/contracts';
import { addDays, daysBetween, daysInMonth, instantMs, LAST_DATE, weekdayOf } from '@rollcall/domain';

/**
 * The arithmetic of the Attendance tab and the statistics, kept pure so that both read the same
 * figures: windows of days, time logged per slot, and averages as local times of day.
 *
 * A day's arrival is its first arrival and its departure its last departure (a lunch break in
 * between is two slots, not two arrivals); working hours are the time of its closed slots. Each
 * average is over the days that have the figure: a day still open has an arrival, not a departure.
 */

export interface SlotTimes {
  day: string;
  arrived_at: string;
  departed_at: string | null;
}

const DAY_SECONDS = 86_400;

/**
 * the first and last day (both included) of a view's window; weeks start on Monday (ISO 8601). The
 * week of the calendar's last days (9999-12-27 to 9999-12-31) ends with the calendar: there is no 10000-01-02.
 * (0001-01-01 is a Monday: no week starts before the calendar.)
 */
export function attendanceWindow(selected: TAttendanceView, dateAt: string): { from: string; to: string } {
  if (selected === 'monthly') return monthWindow(dateAt.slice(0, 7));
  if (selected === 'daily') return { from: dateAt, to: dateAt };
  const monday = addDays(dateAt, -weekdayOf(dateAt));
  return { from: monday, to: daysBetween(monday, LAST_DATE) < 6 ? LAST_DATE : addDays(monday, 6) };
}

/** a month (YYYY-MM) as its first and last day (years 0-99 are theirs, not 19xx) */
export function monthWindow(month: string): { from: string; to: string } {
  const [year, monthNumber] = month.split('-').map(Number);
  const last = daysInMonth(year, monthNumber);
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** seconds between arrival and departure; an open slot has logged nothing yet */
export const timeLogged = (slot: Pick<SlotTimes, 'arrived_at' | 'departed_at'>) => (slot.departed_at === null ? 0 : Math.max(0, Math.round((instantMs(slot.departed_at) - instantMs(slot.arrived_at)) / 1000)));

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** seconds since local midnight of an instant in a zone */
export function localSecondsOfDay(instant: string, timeZone: string): number {
  let formatter = clockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    clockFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instantMs(instant)).map((part) => [part.type, part.value]));
  return Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
}

/** seconds as HH:MM:SS; hours run past 24 for totals */
export function durationText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

const mean = (values: number[]) => (values.length === 0 ? null : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length));

export interface AttendanceTotals extends TAttendanceAverages {
  /** days with at least one slot */
  days_present: number;
  total_time_logged: number;
}

/** a day of one account: its first arrival and last departure as local seconds of the day, and the time logged */
export interface DayFigures {
  day: string;
  arrival: number;
  departure: number | null;
  logged: number;
}

/** one account's slots as days, times of day read in `timeZone` */
export function dayFigures(slots: readonly SlotTimes[], timeZone: string): DayFigures[] {
  const days = new Map<string, { firstArrival: string; lastDeparture: string | null; logged: number }>();
  for (const slot of slots) {
    const day = days.get(slot.day);
    const logged = timeLogged(slot);
    if (!day) {
      days.set(slot.day, { firstArrival: slot.arrived_at, lastDeparture: slot.departed_at, logged });
      continue;
    }
    if (instantMs(slot.arrived_at) < instantMs(day.firstArrival)) day.firstArrival = slot.arrived_at;
    if (slot.departed_at !== null && (day.lastDeparture === null || instantMs(slot.departed_at) > instantMs(day.lastDeparture))) day.lastDeparture = slot.departed_at;
    day.logged += logged;
  }
  return [...days].map(([day, figures]) => ({
    day,
    arrival: localSecondsOfDay(figures.firstArrival, timeZone),
    departure: figures.lastDeparture === null ? null : localSecondsOfDay(figures.lastDeparture, timeZone),
    logged: figures.logged,
  }));
}

/** totals and averages of days (of one account, or of many for a month's summary) */
export function totalsOf(days: readonly DayFigures[]): AttendanceTotals {
  const arrival = mean(days.map((day) => day.arrival));
  const departure = mean(days.flatMap((day) => (day.departure === null ? [] : [day.departure])));
  const total = days.reduce((sum, day) => sum + day.logged, 0);
  const worked = days.filter((day) => day.logged > 0);
  return {
    days_present: days.length,
    total_time_logged: total,
    average_arrival: arrival === null ? null : durationText(arrival % DAY_SECONDS),
    average_departure: departure === null ? null : durationText(departure % DAY_SECONDS),
    average_working_hours: worked.length === 0 ? null : Math.round(total / worked.length),
  };
}

/** totals and averages of one account's slots, times of day read in `timeZone` */
export const summariseSlots = (slots: readonly SlotTimes[], timeZone: string): AttendanceTotals => totalsOf(dayFigures(slots, timeZone));
