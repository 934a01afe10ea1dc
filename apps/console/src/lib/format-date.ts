/**
 * Dates arrive as 'YYYY-MM-DD HH:mm:ss' (server local time, shown as is) or as ISO strings with a
 * zone ('...Z', '+01:00'), which are shown in the browser's zone.
 */
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

interface Parts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

function parts(value: string | null | undefined): Parts | null {
  if (!value) return null;
  const match = PATTERN.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', , zone] = match;
  if (zone) {
    const date = new Date(value.trim().replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) return null;
    return {
      year: String(date.getFullYear()),
      month: pad(date.getMonth() + 1),
      day: pad(date.getDate()),
      hour: pad(date.getHours()),
      minute: pad(date.getMinutes()),
    };
  }
  return { year, month, day, hour, minute };
}

/** DD.MM.YYYY */
export function formatDate(value: string | null | undefined): string {
  const p = parts(value);
  return p ? `${p.day}.${p.month}.${p.year}` : '';
}

/** DD.MM.YYYY @ HH:mm */
export function formatDateTime(value: string | null | undefined): string {
  const p = parts(value);
  return p ? `${p.day}.${p.month}.${p.year} @ ${p.hour}:${p.minute}` : '';
}
