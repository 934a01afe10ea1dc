import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, TEXT_MAX, uuidOf } from '../common/text';
import { fieldRule } from '../errors/field-rule-codes';
import { ZReaderId } from '../readers/reader-admin-schemas';
import { daysFromTo, pageShape, ZDate, ZInstant, ZMonth } from './attendance-common';

/**
 * Attendance as administrators read and correct it: the account's Attendance tab
 * (`GET account/{id}/attendance/{selected}?date_at=`), the statistics (`GET
 * accounts/statistics/attendance[/download]?date_at=`), the Arrivals / Departures log (`GET
 * logs/arrivals-departures`) and the correction of a slot (`PATCH logs/arrivals-departures/edit/{id}`).
 * Days are drawn in the time zone the request names (header) or the account's own.
 */
export const ATTENDANCE_VIEWS = ['daily', 'weekly', 'monthly'] as const;
export type TAttendanceView = (typeof ATTENDANCE_VIEWS)[number];
export const ZAttendanceView = z.enum(ATTENDANCE_VIEWS, { error: `selected must be one of ${ATTENDANCE_VIEWS.join(', ')}` });

/** a slot is named after the scan that opened it */
export const ZSlotId = uuidOf('slot id', 'slot id must be a UUID', 'slot id is required');

/**
 * `date_at`: a day for the daily view, any day of the week for the weekly one (weeks start on
 * Monday), a month (YYYY-MM) or any day in it for the monthly one.
 */
export const ZAttendanceQuery = z.object({ date_at: z.union([ZDate('date_at'), ZMonth('date_at')], { error: 'date_at must be a date (YYYY-MM-DD) or a month (YYYY-MM)' }) });

/** tRPC: the path's account and view with the query; a day is needed unless the view is monthly */
export const ZAttendanceByViewInput = ZAttendanceQuery.extend({ account_id: ZAccountId, selected: ZAttendanceView }).superRefine((input, ctx) => {
  if (input.selected !== 'monthly' && input.date_at.length !== 10) ctx.addIssue({ code: 'custom', path: ['date_at'], message: `The ${input.selected} view needs a day (YYYY-MM-DD)`, params: fieldRule('date', { label: 'date_at' }) });
});
export type TAttendanceByViewInput = z.input<typeof ZAttendanceByViewInput>;

/** the statistics' month: YYYY-MM, or any day in it */
export const ZStatisticsQuery = z.object({
  date_at: z.union([ZMonth('date_at'), ZDate('date_at')], { error: 'date_at must be a month (YYYY-MM) or a date in it' }).transform((value) => value.slice(0, 7)),
});
export const STATISTICS_DOWNLOAD_FORMATS = ['csv', 'xlsx'] as const;
export const ZStatisticsDownloadQuery = ZStatisticsQuery.extend({
  format: z.enum(STATISTICS_DOWNLOAD_FORMATS, { error: `format must be one of ${STATISTICS_DOWNLOAD_FORMATS.join(', ')}` }).default('csv'),
});

export const ARRIVALS_DEPARTURES_SORT_FIELDS = ['arrived_at', 'departed_at', 'account'] as const;
export const ARRIVALS_DEPARTURES_RANGE_DAYS_MAX = 366;

/** `GET logs/arrivals-departures`: filters by date range, organization, account and reader */
export const ZArrivalsDeparturesQuery = z
  .object({
    ...pageShape(10),
    date_from: ZDate('date_from').optional(),
    date_to: ZDate('date_to').optional(),
    organization_id: uuidOf('organization_id').optional(),
    account_id: ZAccountId.optional(),
    reader_id: ZReaderId.optional(),
    /** only slots with a flag (skew, two doors, open past the limit) or a correction */
    flagged: ZBooleanish.optional(),
    sortBy: z.enum(ARRIVALS_DEPARTURES_SORT_FIELDS, { error: `sortBy must be one of ${ARRIVALS_DEPARTURES_SORT_FIELDS.join(', ')}` }).default('arrived_at'),
    desc: ZBooleanish.default(true),
  })
  .superRefine((query, ctx) => {
    if (!query.date_from || !query.date_to) return;
    const days = daysFromTo(query.date_from, query.date_to);
    if (days < 0) ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'date_to cannot be before date_from', params: fieldRule('not_before', { label: 'To', other: 'From' }) });
    else if (days + 1 > ARRIVALS_DEPARTURES_RANGE_DAYS_MAX) ctx.addIssue({ code: 'custom', path: ['date_to'], message: `A range spans at most ${ARRIVALS_DEPARTURES_RANGE_DAYS_MAX} days`, params: fieldRule('span', { label: 'To', other: 'From', max: ARRIVALS_DEPARTURES_RANGE_DAYS_MAX }) });
  });
export type TArrivalsDeparturesQuery = z.output<typeof ZArrivalsDeparturesQuery>;
export type TArrivalsDeparturesInput = z.input<typeof ZArrivalsDeparturesQuery>;

export const CORRECTION_REASON_MAX = 500;

/**
 * `PATCH logs/arrivals-departures/edit/{id}`: the slot model. Recorded as a correction with the
 * administrator and the reason; the scans it corrects stay in the history. A null departure is only
 * for a slot that is still open. How the times relate (departure after arrival, within a day, on the
 * slot's day, not in the future) is the domain's rule, answered as `attendance.correction_invalid`
 * under the field as compat.md says; here only their form.
 */
export const ZCorrectSlotInput = z.object({
  arrived_at: ZInstant('arrived_at'),
  departed_at: ZInstant('departed_at').nullable(),
  reason: boundedText('The reason', CORRECTION_REASON_MAX, { trim: true, multiline: true, typeError: 'Say why the slot is corrected' }).min(1, { error: 'Say why the slot is corrected' }),
});
export type TCorrectSlotInput = z.input<typeof ZCorrectSlotInput>;
export const ZCorrectSlotByIdInput = ZCorrectSlotInput.safeExtend({ id: ZSlotId });

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/;
const ZZonedInstant = z.iso.datetime({ offset: true });
/** a time of a slot added by hand: a local date-time in the account's zone (the zone that draws its days), or an instant with its offset */
const ZSlotTime = (field: string) => {
  const message = `${field} must be a local date-time in the account's time zone (YYYY-MM-DDTHH:mm) or an ISO-8601 date-time with a zone`;
  return z
    .string({ error: message })
    .max(40, { error: message, abort: true })
    // the check that names its rule first (a pattern's issue cannot carry one), the pattern for the schema audit
    .refine((text) => LOCAL_DATE_TIME.test(text) || ZZonedInstant.safeParse(text).success, { error: message, abort: true, params: fieldRule('date_time', { label: field }) })
    .regex(/^[0-9T:.Z+-]+$/, { error: message, abort: true });
};

/**
 * `POST logs/arrivals-departures` (ours): a slot no scan recorded, added by hand with a reason and
 * recorded as `ManualSlotRecorded` in the day of its arrival (docs/adr/0013). Times without a zone
 * are read in the account's zone; a null departure leaves the arrival open. How the times relate
 * (departure after the arrival, within a day, not in the future, no overlap with another slot) is
 * the domain's rule, answered as `attendance.manual_slot_invalid` under the field.
 */
export const ZRecordManualSlotInput = z.object({
  account_id: ZAccountId,
  arrived_at: ZSlotTime('arrived_at'),
  departed_at: ZSlotTime('departed_at').nullable().default(null),
  reason: boundedText('The reason', CORRECTION_REASON_MAX, { trim: true, multiline: true, typeError: 'Say why the slot is added by hand' }).min(1, { error: 'Say why the slot is added by hand' }),
});
export type TRecordManualSlotInput = z.input<typeof ZRecordManualSlotInput>;

/** the slot added by hand: its id, the day it landed in and its times as instants */
export const ZManualSlotRecorded = z.object({
  id: answerId(),
  account_id: answerId(),
  day: answerTimestamp(),
  arrived_at: answerTimestamp(),
  departed_at: answerTimestamp().nullable(),
});
export type TManualSlotRecorded = z.infer<typeof ZManualSlotRecorded>;

/** how a slot added by hand came to be: who added it, when and why */
export const ZManualSlotOrigin = z.object({
  reason: answerText(CORRECTION_REASON_MAX),
  recorded_by: answerText(64),
  recorded_by_name: answerText(TEXT_MAX).nullable(),
  recorded_at: answerTimestamp(),
});
export type TManualSlotOrigin = z.infer<typeof ZManualSlotOrigin>;

/** one row of the Attendance tab: a slot; `time_logged` in seconds (shown HH:MM:SS) */
export const ZAttendanceEntry = z.object({
  arrived: z.object({ created_at: answerTimestamp() }).nullable(),
  departed: z.object({ created_at: answerTimestamp() }).nullable(),
  time_logged: z.number().int(),
});
export type TAttendanceEntry = z.infer<typeof ZAttendanceEntry>;

/** averages as local times of day (HH:mm:ss) and seconds; absent when there is no data */
export const ZAttendanceAverages = z.object({
  average_arrival: answerTimestamp().nullable(),
  average_departure: answerTimestamp().nullable(),
  average_working_hours: z.number().int().nullable(),
});
export type TAttendanceAverages = z.infer<typeof ZAttendanceAverages>;

/** the Attendance tab's answer: the data and an extra list whose first element holds the averages */
export const ZAttendanceResponse = z.object({ attendance: z.array(ZAttendanceEntry), total_time_logged: z.number().int(), extra: z.tuple([ZAttendanceAverages]) });
export type TAttendanceResponse = z.infer<typeof ZAttendanceResponse>;

/** an absence: a day of the account's calendar with an attendance status (vacation, sick leave, ...) */
export const ZAttendanceAbsence = z.object({
  day: answerTimestamp(),
  status_id: answerId(),
  /** the status's title; null when the status was deleted since */
  status: answerText(TEXT_MAX).nullable(),
  /** the calendar event's own title */
  title: answerText(TEXT_MAX),
});
export type TAttendanceAbsence = z.infer<typeof ZAttendanceAbsence>;

/** how many days of the month an account spent in one attendance status */
export const ZStatusDays = z.object({ status_id: answerId(), status: answerText(TEXT_MAX).nullable(), days: z.number().int() });
export type TStatusDays = z.infer<typeof ZStatusDays>;

/** one account's month in the statistics */
export const ZAttendanceStatistic = ZAttendanceAverages.extend({
  account_id: answerId(),
  first_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  last_name: answerText(DOMAIN_CHECKED_TEXT_MAX),
  username_readable: answerText(TEXT_MAX),
  days_present: z.number().int(),
  total_time_logged: z.number().int(),
  /** days of the month per attendance status in the account's calendar (absences), by status title */
  absences: z.array(ZStatusDays).optional(),
  /** the zone its times of day are read in: the account's own, else its organization's (as the server draws its days) */
  time_zone: answerText(64).optional(),
});
export type TAttendanceStatistic = z.infer<typeof ZAttendanceStatistic>;

/** where a slot's arrival or departure was scanned (the reader may have been deleted since) */
export const ZScanPlace = z.object({ reader_id: answerId(), reader_name: answerText(TEXT_MAX).nullable(), door: answerText(TEXT_MAX) });
export type TScanPlace = z.infer<typeof ZScanPlace>;

/** a correction as the slot's history shows it: what it said before, what it says since, who and why */
export const ZSlotCorrection = z.object({
  arrived_at: answerTimestamp(),
  departed_at: answerTimestamp().nullable(),
  previous: z.object({ arrived_at: answerTimestamp(), departed_at: answerTimestamp().nullable() }),
  reason: answerText(CORRECTION_REASON_MAX),
  corrected_by: answerText(64),
  corrected_by_name: answerText(TEXT_MAX).nullable(),
  corrected_at: answerTimestamp(),
});
export type TSlotCorrection = z.infer<typeof ZSlotCorrection>;

/** a row of the Arrivals / Departures log: the slot as it stands now (corrected times), with its places, flags and corrections */
export const ZArrivalDeparture = z.object({
  id: answerId(),
  account_id: answerId(),
  account_name: answerText(),
  username_readable: answerText(TEXT_MAX).nullable(),
  /** the local day of the arrival */
  day: answerTimestamp(),
  arrived_at: answerTimestamp(),
  departed_at: answerTimestamp().nullable(),
  /** null for a slot added by hand (no scan opened it) */
  arrival: ZScanPlace.nullable(),
  departure: ZScanPlace.nullable(),
  /** clock_skew, two_doors, open_day */
  flags: z.array(answerText(64)),
  /** scans kept that counted nothing (duplicates, late ones) */
  uncounted_scans: z.number().int(),
  corrected: z.boolean(),
  /** oldest first; the first one's `previous` is what the scans said */
  corrections: z.array(ZSlotCorrection),
  /** set when an administrator added the slot by hand (no scan opened it): who, when and why */
  manual: ZManualSlotOrigin.nullable().optional(),
  /** the zone its times of day are read in: the account's own, else its organization's (as the server draws its days) */
  time_zone: answerText(64).optional(),
});
export type TArrivalDeparture = z.infer<typeof ZArrivalDeparture>;

/** `PATCH logs/arrivals-departures/edit/{id}`: the slot's times now; `corrected` false when they were already those (nothing was recorded) */
export const ZSlotCorrected = z.object({
  id: answerId(),
  account_id: answerId(),
  day: answerTimestamp(),
  arrived_at: answerTimestamp(),
  departed_at: answerTimestamp().nullable(),
  corrected: z.boolean(),
});

/** `GET logs/arrivals-departures/presence` (ours): who is in right now, optionally within one organization or team */
export const ZPresenceQuery = z.object({
  organization_id: uuidOf('organization_id').optional(),
  team_id: uuidOf('team_id').optional(),
});
export type TPresenceQuery = z.output<typeof ZPresenceQuery>;

/** one person in: an open slot that still counts (younger than the open-day limit) */
export const ZPresentAccount = z.object({
  account_id: answerId(),
  account_name: answerText(),
  username_readable: answerText(TEXT_MAX).nullable(),
  slot_id: answerId(),
  arrived_at: answerTimestamp(),
  door: answerText(TEXT_MAX),
  reader_name: answerText(TEXT_MAX).nullable(),
  organizations: z.array(z.object({ id: answerId(), title: answerText(TEXT_MAX) })),
  teams: z.array(z.object({ id: answerId(), title: answerText(TEXT_MAX) })),
  /** the zone its times of day are read in: the account's own, else its organization's (as the server draws its days) */
  time_zone: answerText(64).optional(),
});
export type TPresentAccount = z.infer<typeof ZPresentAccount>;

export const ZPresence = z.object({
  /** when the board was read */
  at: answerTimestamp(),
  total: z.number().int(),
  present: z.array(ZPresentAccount),
});
export type TPresence = z.infer<typeof ZPresence>;
