import type { TCalendarEvent } from '@rollcall/contracts';
import { DAY_END, DAY_START } from './event-form';

/**
 * Calendar arithmetic on YYYY-MM-DD strings, which are local days of the account: no instants and
 * no time zone are involved, so the grid never shifts a day (weeks start on Monday).
 */
const toUtc = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => fromUtc(toUtc(date) + days * 86_400_000);

/** 0 Monday ... 6 Sunday */
export const weekdayIndex = (date: string): number => (new Date(toUtc(date)).getUTCDay() + 6) % 7;

export const startOfWeek = (date: string): string => addDays(date, -weekdayIndex(date));

export const weekOf = (date: string): string[] => Array.from({ length: 7 }, (_, index) => addDays(startOfWeek(date), index));

export const monthOf = (date: string): string => date.slice(0, 7);

/** the weeks (Monday to Sunday) that show a month: 4 to 6 rows of 7 days */
export function monthGrid(date: string): string[][] {
  const first = `${monthOf(date)}-01`;
  const last = addDays(`${addMonths(first, 1)}`, -1);
  const weeks: string[][] = [];
  for (let monday = startOfWeek(first); monday <= last; monday = addDays(monday, 7)) weeks.push(weekOf(monday));
  return weeks;
}

/** the first of the month `months` away */
export function addMonths(date: string, months: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 + months;
  return fromUtc(Date.UTC(year + Math.floor(month / 12), ((month % 12) + 12) % 12, 1));
}

/** ISO 8601 week number (weeks start on Monday; week 1 holds the year's first Thursday) */
export function isoWeek(date: string): number {
  const thursday = addDays(date, 3 - weekdayIndex(date));
  const firstOfYear = `${thursday.slice(0, 4)}-01-01`;
  return Math.floor((toUtc(thursday) - toUtc(firstOfYear)) / (7 * 86_400_000)) + 1;
}

export const dateOf = (event: TCalendarEvent): string => event.start_date.slice(0, 10);
export const startTimeOf = (event: TCalendarEvent): string => event.start_date.slice(11, 19);
export const endTimeOf = (event: TCalendarEvent): string => event.end_date.slice(11, 19);

/** 'All day': 00:00:00 to 23:59:59 */
export const isAllDay = (event: TCalendarEvent): boolean => startTimeOf(event) === DAY_START && endTimeOf(event) === DAY_END;

export function eventsByDate(events: readonly TCalendarEvent[]): Map<string, TCalendarEvent[]> {
  const byDate = new Map<string, TCalendarEvent[]>();
  for (const event of events) {
    const list = byDate.get(dateOf(event)) ?? [];
    list.push(event);
    byDate.set(dateOf(event), list);
  }
  return byDate;
}

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + Number(time.slice(6, 8) || 0) / 60;

/**
 * Where a timed event sits in a day column, as fractions of the day, and side by side with the
 * events it overlaps (each cluster of overlapping events shares the column's width).
 */
export function layoutDay(events: readonly TCalendarEvent[]): Array<{ event: TCalendarEvent; top: number; height: number; left: number; width: number }> {
  const sorted = [...events].sort((a, b) => startTimeOf(a).localeCompare(startTimeOf(b)) || endTimeOf(b).localeCompare(endTimeOf(a)));
  const placed: Array<{ event: TCalendarEvent; top: number; height: number; left: number; width: number }> = [];
  let cluster: Array<{ event: TCalendarEvent; column: number; end: number }> = [];
  let clusterEnd = -1;
  const flush = () => {
    const columns = Math.max(1, ...cluster.map((item) => item.column + 1));
    for (const item of cluster) {
      const start = minutes(startTimeOf(item.event));
      placed.push({ event: item.event, top: start / 1440, height: Math.max(item.end - start, 20) / 1440, left: item.column / columns, width: 1 / columns });
    }
    cluster = [];
  };
  for (const event of sorted) {
    const start = minutes(startTimeOf(event));
    const end = minutes(endTimeOf(event));
    if (start >= clusterEnd) {
      flush();
      clusterEnd = end;
    } else clusterEnd = Math.max(clusterEnd, end);
    const taken = new Set(cluster.filter((item) => item.end > start).map((item) => item.column));
    let column = 0;
    while (taken.has(column)) column += 1;
    cluster.push({ event, column, end });
  }
  flush();
  return placed;
}

/** DD.MM.YYYY, as the console shows dates (spec section 9) */
export const shownDate = (date: string): string => date.split('-').reverse().join('.');

/** today as the browser's local date, YYYY-MM-DD */
export function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}
