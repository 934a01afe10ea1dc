import { zonedDateTime } from './attendance-format';
import { formatDateTime } from './format-date';

/**
 * The console's one clock rule for showing an instant: in a zone (an account's, where its days are
 * drawn, else the browser's) and always with ONE label form, the zone's offset from UTC at that
 * instant: 'UTC', 'UTC+1', 'UTC-5', 'UTC+5:30'. The full IANA name ('Europe/Berlin') goes in a title
 * tooltip beside it.
 *
 * Why the offset and not the zone's short name: Intl's short names differ by language and zone (en
 * 'GMT+1' but de 'MEZ' for Berlin, en 'EST' but de 'GMT-5' for New York) and are ambiguous where
 * they exist ('CST' is three zones); the offset reads the same in English and German, says how far
 * a time is from the server's UTC, and is what a reader needs to compare two times. It is computed
 * here from the wall clock, not taken from `timeZoneName: 'shortOffset'`, which says 'GMT' and
 * varies with the ICU data ('GMT' or 'GMT+0' for UTC).
 *
 * A zone's offset changes with daylight saving time, so a label belongs to an instant; a column of
 * many times names its zone once in the header only where they all share it (`sharedZoneLabel`).
 */

/** the browser's zone (IANA), UTC where the browser names none */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

function validInstant(instant: string | number | Date | null | undefined): Date | null {
  if (instant === null || instant === undefined || instant === '') return null;
  const date = typeof instant === 'string' ? new Date(instant.trim().replace(' ', 'T')) : new Date(instant);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** how far a zone's wall clock is ahead of UTC at an instant, in whole minutes (null: a zone Intl does not know) */
export function zoneOffsetMinutes(timeZone: string, instant: string | number | Date): number | null {
  const at = validInstant(instant);
  if (!at) return null;
  try {
    const { date, time } = zonedDateTime(at.toISOString(), timeZone);
    const [day, month, year] = date.split('.').map(Number);
    const [hours, minutes, seconds] = time.split(':').map(Number);
    const wall = Date.UTC(year, month - 1, day, hours, minutes, seconds);
    return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  } catch {
    return null;
  }
}

/** the zone's label at an instant (default: now): 'UTC', 'UTC+1', 'UTC-3:30'; the IANA name where Intl does not know the zone */
export function zoneLabel(timeZone: string, instant: string | number | Date = Date.now()): string {
  const offset = zoneOffsetMinutes(timeZone, instant);
  if (offset === null) return timeZone;
  if (offset === 0) return 'UTC';
  const sign = offset > 0 ? '+' : '-';
  const hours = Math.floor(Math.abs(offset) / 60);
  const minutes = Math.abs(offset) % 60;
  return `UTC${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** the labels the instants have in a zone, each once, in order ('UTC+2', 'UTC+1' for a list across a daylight-saving change) */
export function zoneLabelsOf(instants: ReadonlyArray<string | null | undefined>, timeZone: string = browserTimeZone()): string[] {
  return [...new Set(instants.filter((instant): instant is string => !!validInstant(instant)).map((instant) => zoneLabel(timeZone, instant)))];
}

/**
 * The one label all the instants share in a zone, which a column header then names once; null when
 * they differ (each time says its own). No instants at all: the zone's label now.
 */
export function sharedZoneLabel(instants: ReadonlyArray<string | null | undefined>, timeZone: string = browserTimeZone()): string | null {
  const labels = zoneLabelsOf(instants, timeZone);
  return labels.length === 1 ? labels[0] : labels.length === 0 ? zoneLabel(timeZone) : null;
}

/**
 * A zone as a sentence names it: its labels and, where it is not just UTC, its IANA name: 'UTC+1
 * (Europe/Berlin)', 'UTC+2 / UTC+1 (Europe/Berlin)', 'UTC'. No labels (nothing shown yet): its label now.
 */
export function zoneWithName(timeZone: string, shown: readonly string[]): string {
  const labels = shown.length ? shown : [zoneLabel(timeZone)];
  const text = labels.join(' / ');
  return labels.length === 1 && (labels[0] === timeZone || (labels[0] === 'UTC' && (timeZone === 'Etc/UTC' || timeZone === 'UTC'))) ? text : `${text} (${timeZone})`;
}

export interface ZonedInstant {
  /** DD.MM.YYYY */
  date: string;
  /** HH:mm:ss */
  time: string;
  /** 'UTC+1' */
  zone: string;
  /** the IANA name, for the title */
  timeZone: string;
}

/** an instant's date (DD.MM.YYYY) and time of day (HH:mm:ss) in a zone (default: the browser's), with its label; null if it is no instant */
export function zonedInstant(instant: string | number | Date | null | undefined, timeZone: string = browserTimeZone()): ZonedInstant | null {
  const at = validInstant(instant);
  if (!at) return null;
  try {
    const { date, time } = zonedDateTime(at.toISOString(), timeZone);
    return { date, time, zone: zoneLabel(timeZone, at), timeZone };
  } catch {
    return null;
  }
}

/** an instant's time of day (HH:mm:ss) and date (DD.MM.YYYY) in a zone, with the zone's label */
export function zonedTime(instant: string, timeZone: string): { time: string; date: string; zone: string } {
  const { date, time } = zonedDateTime(instant, timeZone);
  return { date, time, zone: zoneLabel(timeZone, instant) };
}

/**
 * An instant as the spec's date and time text 'DD.MM.YYYY @ HH:mm' in a zone (default: the
 * browser's), followed by its label unless `zone` is false (a column header names it): '24.11.2026 @
 * 09:14 UTC+1'. With `seconds`, 'HH:mm:ss'. A wall clock without a zone ('2026-11-24 09:14:00') is no
 * instant: it is shown as it is, without a label; anything else unreadable is ''.
 */
export function formatInstant(value: string | null | undefined, options: { timeZone?: string; zone?: boolean; seconds?: boolean } = {}): string {
  if (!value) return '';
  if (!INSTANT.test(value.trim())) return formatDateTime(value);
  const zoned = zonedInstant(value, options.timeZone);
  if (!zoned) return '';
  const text = `${zoned.date} @ ${options.seconds ? zoned.time : zoned.time.slice(0, 5)}`;
  return options.zone === false ? text : `${text} ${zoned.zone}`;
}

/** an instant's time of day 'HH:mm:ss' in a zone (default: the browser's), labelled: '09:14:05 UTC+1'; '' if it is no instant */
export function formatTimeOfDay(value: string | number | Date | null | undefined, timeZone?: string): string {
  const zoned = zonedInstant(value, timeZone);
  return zoned ? `${zoned.time} ${zoned.zone}` : '';
}

/** a wall clock of the browser's zone as a date field holds it ('YYYY-MM-DDTHH:mm(:ss)') as an instant in ms; undefined while empty or unreadable (a label then says the zone now) */
export function browserLocalInstant(local: string | null | undefined): number | undefined {
  if (!local || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return undefined;
  const at = Date.parse(local);
  return Number.isNaN(at) ? undefined : at;
}

/** a header or field label with the zone it names once: 'Time (UTC+1)' */
export function withZone(label: string, zone: string | null): string {
  return zone ? `${label} (${zone})` : label;
}
