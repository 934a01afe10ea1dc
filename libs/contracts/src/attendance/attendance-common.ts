import { z } from 'zod';
import { dateOf, dateTimeOf, isRealDate, monthOf } from '../common/dates';

/** Shapes shared by the attendance schemas: the dates are the contracts' one date type (../common/dates.ts). */
export { isRealDate };

/** whole days from one YYYY-MM-DD to another */
export const daysFromTo = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const ZDate = (field: string) => dateOf(field);
export const ZMonth = (field: string) => monthOf(field);

export const ZInstant = (field: string) => dateTimeOf(field);

export const pageShape = (defaultLimit = 10) => ({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(defaultLimit),
});
