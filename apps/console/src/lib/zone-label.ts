import { zonedDateTime } from './attendance-format';

const labels = new Map<string, Intl.DateTimeFormat>();

/**
 * A zone's short name at an instant, in the console's language ('GMT+9', 'MEZ', 'UTC'), as calendar
 * and attendance tools label times beside them; the full IANA name goes in the title. Falls back to
 * the IANA name where Intl has no short one.
 */
export function zoneAbbreviation(timeZone: string, instant: string | number | Date, language: string): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
  const key = `${language}|${timeZone}`;
  let formatter = labels.get(key);
  try {
    if (!formatter) {
      formatter = new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'short' });
      labels.set(key, formatter);
    }
    return formatter.formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** an instant's time of day (HH:mm:ss) and date (DD.MM.YYYY) in a zone, with the zone's short name */
export function zonedTime(instant: string, timeZone: string, language: string): { time: string; date: string; zone: string } {
  const { date, time } = zonedDateTime(instant, timeZone);
  return { date, time, zone: zoneAbbreviation(timeZone, instant, language) };
}
