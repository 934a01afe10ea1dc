import { z } from 'zod';

/** Shapes shared by the attendance schemas. */

/** a real calendar date (no 2026-02-30) */
export function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

/** whole days from one YYYY-MM-DD to another */
export const daysFromTo = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const ZDate = (field: string) => z.string({ error: `${field} is required` }).trim().refine(isRealDate, { error: `${field} must be a date as YYYY-MM-DD` });
export const ZMonth = (field: string) => z.string({ error: `${field} is required` }).trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: `${field} must be a month as YYYY-MM` });

export const ZInstant = (field: string) => z.iso.datetime({ offset: true, error: `${field} must be an ISO-8601 date-time with a zone, e.g. 2026-11-23T08:00:00+01:00` });

export const pageShape = (defaultLimit = 10) => ({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(defaultLimit),
});
