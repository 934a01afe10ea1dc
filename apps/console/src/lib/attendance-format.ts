/**
 * How attendance reads on screen: instants in the account's own zone (not the browser's, and not
 * the old console's fixed two-hour shift), dates DD.MM.YYYY, durations HH:MM:SS.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** an instant as its local date (DD.MM.YYYY) and time (HH:mm:ss) in a zone */
export function zonedDateTime(instant: string, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return { date: `${parts.day}.${parts.month}.${parts.year}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

/** YYYY-MM-DD as DD.MM.YYYY */
export const dayText = (day: string) => day.split('-').reverse().join('.');

/** seconds as HH:MM:SS; hours run past 24 for totals */
export function durationText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}
