import { z } from 'zod';
import { fieldRule } from '../errors/field-rule-codes';

/**
 * The one date, month and date-time of every contract: each a real calendar value (no 2030-02-30,
 * no month 13), length-checked before its pattern. Stored dates are compared as text (an account's
 * expiry at sign-in, a range's days), so an impossible one would be kept for ever and compare wrongly.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** what a date or a date-time may hold at all, checked before the parse so a message names the form */
const DATE_CHARACTERS = /^[0-9-]+$/;
const DATE_TIME_CHARACTERS = /^[0-9T:.Z+-]+$/;
const MONTH = /^\d{4}-(?:0[1-9]|1[0-2])$/;
/** the longest ISO-8601 date-time zod accepts: 2026-11-23T08:00:00.123456789+01:00 is 35 */
const DATE_TIME_MAX = 40;

/** a real calendar date as YYYY-MM-DD (no 2026-02-30) */
export function isRealDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 19xx
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

/**
 * The calendar the API works in: years 0001 to 9999 (the four digits of the form; year 0000 is not a
 * year of the Gregorian calendar). A window drawn around an accepted day is cut at 9999-12-31 by the
 * domain (libs/domain time-zone.ts), never written as a year 10000.
 */
export const FIRST_DATE = '0001-01-01';
export const LAST_DATE = '9999-12-31';
/** a YYYY-MM-DD or YYYY-MM inside the calendar (year 0001 or later: four digits never pass 9999) */
const inCalendar = (text: string) => !text.startsWith('0000');
/** a real calendar date as YYYY-MM-DD inside the calendar (0001-01-01 to 9999-12-31) */
export const isCalendarRangeDate = (text: string): boolean => isRealDate(text) && inCalendar(text);

const isoDateTime = z.iso.datetime({ offset: true });
/** an ISO-8601 date-time with Z or an offset, on a real calendar day (zod's own pattern checks the day) */
export const isRealDateTime = (text: string): boolean => text.length <= DATE_TIME_MAX && isoDateTime.safeParse(text).success;

/** A date as YYYY-MM-DD, a real one. Surrounding white space is dropped. */
export const dateOf = (field: string, message = `${field} must be a date as YYYY-MM-DD`) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .max(10, { error: message, abort: true })
    // the parse answers first so its issue names the rule (a pattern's issue cannot carry one); the
    // pattern after it never fails then, but shows the schema audit what the text may hold
    .refine(isRealDate, { error: message, abort: true, params: fieldRule('date') })
    .regex(DATE_CHARACTERS, { error: message, abort: true })
    .refine(inCalendar, { error: `${field} must be a date from ${FIRST_DATE} to ${LAST_DATE}`, params: fieldRule('too_small', { label: field, min: FIRST_DATE }) });

/** A month as YYYY-MM. */
export const monthOf = (field: string, message = `${field} must be a month as YYYY-MM`) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .max(7, { error: message, abort: true })
    // as dateOf: the check that names its rule first, the pattern for the schema audit
    .refine((text) => MONTH.test(text), { error: message, abort: true, params: fieldRule('month', { label: field }) })
    .regex(MONTH, { error: message, abort: true })
    .refine(inCalendar, { error: `${field} must be a month from 0001-01 to 9999-12`, params: fieldRule('too_small', { label: field, min: '0001-01' }) });

/** An instant: an ISO-8601 date-time with a zone (Z or an offset), on a real calendar day. */
export const dateTimeOf = (field: string, message = `${field} must be an ISO-8601 date-time with a zone, e.g. 2026-11-23T08:00:00+01:00`) =>
  z
    .string({ error: message })
    .max(DATE_TIME_MAX, { error: message, abort: true })
    .check(z.iso.datetime({ offset: true, error: message }));

/** A day (YYYY-MM-DD) or an instant (ISO-8601 date-time with a zone), both real: an expiry, for example. */
export const dateOrDateTimeOf = (field: string, message = `${field} must be a date (YYYY-MM-DD) or a date-time with a zone`) =>
  z
    .string({ error: message })
    .trim()
    .max(DATE_TIME_MAX, { error: message, abort: true })
    // as dateOf: the check that names its rule first, the pattern for the schema audit
    .refine((text) => isRealDate(text) || isRealDateTime(text), { error: message, abort: true, params: fieldRule('date_time', { label: field }) })
    .regex(DATE_TIME_CHARACTERS, { error: message, abort: true })
    .refine(inCalendar, { error: `${field} must be from ${FIRST_DATE} to ${LAST_DATE}`, params: fieldRule('too_small', { label: field, min: FIRST_DATE }) });
