import { DomainError } from '../shared';

/**
 * Calendar days in a time zone, without a date library: the `Intl` API (full ICU ships with Node and
 * every browser) knows every IANA zone and its daylight-saving rules. Days are plain 'YYYY-MM-DD'
 * strings, so a day never shifts with the zone of the machine that computes it.
 */

/** one formatter per zone: building one costs far more than using it, and scans come by the thousand */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function checkedFormatter(timeZone: string): Intl.DateTimeFormat {
  if (!isValidTimeZone(timeZone)) throw new DomainError('attendance.time_zone_invalid', `Unknown time zone '${timeZone}'`, 'time_zone');
  return formatterFor(timeZone);
}

/** Milliseconds of an ISO-8601 instant. The contracts check formats: a bad one here is a programming error. */
export function instantMs(instant: string): number {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new Error(`not an ISO-8601 instant: ${instant}`);
  return ms;
}

export const isoOf = (ms: number) => new Date(ms).toISOString();

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** the zone's local time at an instant, read from ICU: exact, and the costliest call of a scan */
function formattedParts(ms: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of checkedFormatter(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

const HOUR_MS = 3_600_000;
/** hours remembered per zone before that zone's memory starts again */
const HOURS_CACHED = 50_000;
/** per zone, per UTC hour: the zone's offset throughout that hour, or null where it changes within it */
const hourOffsets = new Map<string, Map<number, number | null>>();

/**
 * The offset that holds for the whole UTC hour of `ms`, from ICU once per zone and hour. A zone's
 * offset changes at its transitions only (daylight saving, a new standard time), which tzdata never
 * puts twice within one hour; so an hour whose first and last second have the same offset has it
 * throughout, and an hour holding a transition is left to ICU second by second (null).
 */
function hourOffsetMs(ms: number, timeZone: string): number | null {
  let byHour = hourOffsets.get(timeZone);
  if (!byHour) hourOffsets.set(timeZone, (byHour = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  let offset = byHour.get(hour);
  if (offset === undefined) {
    const first = formattedOffsetMs(hour * HOUR_MS, timeZone);
    const last = formattedOffsetMs((hour + 1) * HOUR_MS - 1000, timeZone);
    offset = first === last ? first : null;
    if (byHour.size >= HOURS_CACHED) byHour.clear();
    byHour.set(hour, offset);
  }
  return offset;
}

/** The local time of an instant in a zone: UTC shifted by the hour's offset, or ICU where it changes. */
function localParts(ms: number, timeZone: string): LocalParts {
  const offset = hourOffsetMs(ms, timeZone);
  if (offset === null) return formattedParts(ms, timeZone);
  // offsets are whole seconds: the shifted instant's UTC fields are the local ones, seconds truncated as ICU does
  const local = new Date(ms + offset);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds() };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const dateText = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The local date and time ('YYYY-MM-DDTHH:MM:SS', seconds truncated) of an instant in a zone. */
export function localDateTimeOf(instant: string | number, timeZone: string): string {
  const { year, month, day, hour, minute, second } = localParts(typeof instant === 'number' ? instant : instantMs(instant), timeZone);
  return `${dateText(year, month, day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** The local calendar day ('YYYY-MM-DD') of an instant in a zone. */
export function localDateOf(instant: string | number, timeZone: string): string {
  const { year, month, day } = localParts(typeof instant === 'number' ? instant : instantMs(instant), timeZone);
  return dateText(year, month, day);
}

/**
 * Milliseconds of a UTC calendar time. Not Date.UTC: it reads years 0-99 as 1900-1999, so the day
 * 0099-06-15 would come back as 1999-06-15 (and fail its own round trip).
 */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich), from ICU. */
function formattedOffsetMs(ms: number, timeZone: string): number {
  const p = formattedParts(ms, timeZone);
  const wholeSeconds = Math.floor(ms / 1000) * 1000;
  return utcMs(p.year, p.month, p.day, p.hour, p.minute, p.second) - wholeSeconds;
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
function offsetMs(ms: number, timeZone: string): number {
  return hourOffsetMs(ms, timeZone) ?? formattedOffsetMs(ms, timeZone);
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The calendar the API works in: 0001-01-01 to 9999-12-31, every day a four-digit year can write.
 * The contracts refuse a date outside it (libs/contracts/src/common/dates.ts); a window drawn around
 * an accepted date (the week of 9999-12-31) is cut at its ends, never written as a year 10000.
 */
export const FIRST_DATE = '0001-01-01';
export const LAST_DATE = '9999-12-31';

/** A real calendar date in the form YYYY-MM-DD (no 2026-02-30), any year 0000-9999 (years 0-99 included). */
export function isValidDate(date: string): boolean {
  const match = DATE_PATTERN.exec(date);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(utcMs(year, month, day));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

/** a valid date inside FIRST_DATE..LAST_DATE */
export const isCalendarRangeDate = (date: string): boolean => isValidDate(date) && date >= FIRST_DATE && date <= LAST_DATE;

function dateMs(date: string): number {
  if (!isValidDate(date)) throw new Error(`not a date (YYYY-MM-DD): ${date}`);
  const [year, month, day] = date.split('-').map(Number);
  return utcMs(year, month, day);
}

/** the YYYY-MM-DD of a UTC midnight; a day before year 0 or after year 9999 has no such text */
function dateOfMs(ms: number): string {
  const utc = new Date(ms);
  const year = utc.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new DomainError('date.out_of_range', `Dates run from ${FIRST_DATE} to ${LAST_DATE}`);
  return dateText(year, utc.getUTCMonth() + 1, utc.getUTCDate());
}

export function addDays(date: string, days: number): string {
  return dateOfMs(dateMs(date) + days * DAY_MS);
}

/** the day of the week, 0 for Monday to 6 for Sunday (ISO 8601) */
export function weekdayOf(date: string): number {
  return (new Date(dateMs(date)).getUTCDay() + 6) % 7;
}

/** the last day (28-31) of a month of a year, any year 0000-9999 */
export function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month + 1, 0)).getUTCDate();
}

/** whole days from `from` to `to` (negative when `to` is earlier) */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateMs(to) - dateMs(from)) / DAY_MS);
}

/** every date from `start` to `end`, both included; empty when `end` is before `start` */
export function datesInRange(start: string, end: string): string[] {
  const count = daysBetween(start, end) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, index) => addDays(start, index));
}

/**
 * The first instant of a local day. Usually local midnight; where daylight saving skips midnight
 * (America/Sao_Paulo did) it is the first local time that exists, and a day a zone skipped entirely
 * (Pacific/Apia, 2011-12-30) has no length: it starts where the next one does.
 */
export function localDayStart(date: string, timeZone: string): string {
  const midnightAsUtc = dateMs(date);
  // the offset at local midnight is one of the offsets in force around it
  const offsets = new Set([-DAY_MS, 0, DAY_MS].map((shift) => offsetMs(midnightAsUtc + shift, timeZone)));
  const candidates = [...offsets].map((offset) => midnightAsUtc - offset).filter((ms) => localDateOf(ms, timeZone) === date);
  if (candidates.length === 0) return localDayStart(addDays(date, 1), timeZone);
  return isoOf(Math.min(...candidates));
}

/** A local day as a half-open range of instants [start, end): what a query of one day's rows needs. */
export function localDayBounds(date: string, timeZone: string): { start: string; end: string } {
  return { start: localDayStart(date, timeZone), end: localDayStart(addDays(date, 1), timeZone) };
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant of a local date and time ('YYYY-MM-DDTHH:mm[:ss]', no zone) in a zone, or null when
 * it is no real time there (a malformed text, or a time daylight saving skipped: 02:30 on a spring
 * night in Berlin). A time that happens twice (an autumn night) is its first occurrence.
 */
export function instantOfLocal(local: string, timeZone: string): string | null {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  if (!isValidDate(local.slice(0, 10)) || hour > 23 || minute > 59 || (second || 0) > 59) return null;
  const asUtc = utcMs(year, month, day, hour, minute, second || 0);
  const wanted = `${local.slice(0, 16)}:${pad(second || 0)}`;
  const offsets = new Set([-DAY_MS, 0, DAY_MS].map((shift) => offsetMs(asUtc + shift, timeZone)));
  const candidates = [...offsets].map((offset) => asUtc - offset).filter((ms) => localDateTimeOf(ms, timeZone) === wanted);
  return candidates.length ? isoOf(Math.min(...candidates)) : null;
}
