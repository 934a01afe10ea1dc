import { zonedDateTime } from './attendance-format';

const pad = (n: number) => String(n).padStart(2, '0');

/** an instant as the browser's local 'YYYY-MM-DDTHH:mm:ss', what a datetime-local field shows */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** a datetime-local value back to an instant; an untouched field keeps its original (milliseconds included) */
export function fromLocalInput(value: string, original: string | null): string | null {
  if (!value) return null;
  if (original && toLocalInput(original) === value) return original;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * An instant as the local 'YYYY-MM-DDTHH:mm:ss' of a zone (the account's, where the server draws its
 * days), what the correction dialog edits whatever the browser's zone is.
 */
export function toZonedInput(iso: string | null, timeZone: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const { date, time } = zonedDateTime(iso, timeZone);
  return `${date.split('.').reverse().join('-')}T${time}`;
}

/** how far a zone's wall clock is ahead of UTC at an instant, in milliseconds */
function zoneOffset(at: number, timeZone: string): number {
  const { date, time } = zonedDateTime(new Date(at).toISOString(), timeZone);
  const [day, month, year] = date.split('.').map(Number);
  const [hours, minutes, seconds] = time.split(':').map(Number);
  return Date.UTC(year, month - 1, day, hours, minutes, seconds) - Math.floor(at / 1000) * 1000;
}

/**
 * A local 'YYYY-MM-DDTHH:mm(:ss)' of a zone back to an instant; an untouched value keeps its original
 * (milliseconds included). A time the zone skips (a spring-forward gap) lands after the gap.
 */
export function fromZonedInput(value: string, timeZone: string, original: string | null): string | null {
  if (!value) return null;
  if (original && toZonedInput(original, timeZone) === value) return original;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds = '0'] = match.slice(1).map((part) => part ?? '0');
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes), Number(seconds));
  if (Number.isNaN(wall)) return null;
  // the offset at a first guess, then at the instant it gives (they differ only next to a change of offset)
  const first = wall - zoneOffset(wall, timeZone);
  return new Date(wall - zoneOffset(first, timeZone)).toISOString();
}

/** HH:mm:ss of the local time of day */
export function timeOf(iso: string | null): string {
  return iso ? toLocalInput(iso).slice(11) : '';
}

/** a duration in seconds as HH:MM:SS (hours may pass 24) */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}
