import { z } from 'zod';
import { ZAccountId, ZPage } from '../accounts/account-schemas';
import { answerTimestamp } from '../common/answers';
import { answerText, uuidOf } from '../common/text';
import { fieldRule } from '../errors/field-rule-codes';
import { pageShape, ZDate, ZMonth } from './attendance-common';
import { ATTENDANCE_VIEWS, STATISTICS_DOWNLOAD_FORMATS, ZAttendanceAbsence, ZAttendanceAverages, ZStatusDays, ZAttendanceEntry, ZAttendanceStatistic, ZAttendanceView } from './attendance-schemas';

/**
 * The reports over the attendance slots: an account's Attendance tab (`GET
 * account/{id}/attendance/{selected}`) and the monthly statistics (`GET
 * accounts/statistics/attendance[/download]`). `date_at` may be left out: today, or this month, in
 * the account's zone (the tab) or in UTC (the statistics). A console whose mode was just changed has
 * no date yet and still shows something.
 */

const ZDayOrMonth = z.union([ZDate('date_at'), ZMonth('date_at')], { error: 'date_at must be a date (YYYY-MM-DD) or a month (YYYY-MM)' });

/** the Attendance tab: the path's account and view, a day (daily, weekly) or a month or a day in it (monthly) */
export const ZAccountAttendanceInput = z
  .object({ account_id: ZAccountId, selected: ZAttendanceView, date_at: ZDayOrMonth.optional() })
  .superRefine((input, ctx) => {
    if (input.date_at && input.selected !== 'monthly' && input.date_at.length !== 10) ctx.addIssue({ code: 'custom', path: ['date_at'], message: `The ${input.selected} view needs a day (YYYY-MM-DD)`, params: fieldRule('date', { label: 'date_at' }) });
  });
export type TAccountAttendanceInput = z.input<typeof ZAccountAttendanceInput>;

/** a row of the tab: a slot, or a day of the window (up to today) without one, whose cells read 'No data' */
export const ZAccountAttendanceEntry = ZAttendanceEntry.extend({
  /** the local day the slot arrived on, or the day without data */
  day: answerTimestamp(),
  /** the slot was added by hand (no scan opened it): why; null for a scanned slot or a day without one */
  manual: z.object({ reason: answerText(500) }).nullable().optional(),
  /** the slot was corrected by an administrator */
  corrected: z.boolean().optional(),
  /** the day's attendance statuses in the account's calendar (vacation, sick leave, ...) */
  absences: z.array(ZAttendanceAbsence).optional(),
});
export type TAccountAttendanceEntry = z.infer<typeof ZAccountAttendanceEntry>;

/**
 * The Attendance tab's answer: `TAttendanceResponse` (attendance, total_time_logged, and `extra`
 * whose first element is the averages) with the window it covers and the zone its times of day are in.
 */
export const ZAccountAttendance = z.object({
  attendance: z.array(ZAccountAttendanceEntry),
  total_time_logged: z.number().int(),
  extra: z.tuple([ZAttendanceAverages]),
  selected: z.enum(ATTENDANCE_VIEWS),
  /** first and last day of the window, both included (a week runs Monday to Sunday) */
  from: answerTimestamp(),
  to: answerTimestamp(),
  time_zone: answerText(64),
});
export type TAccountAttendance = z.infer<typeof ZAccountAttendance>;

const ZStatisticsMonth = z.union([ZMonth('date_at'), ZDate('date_at')], { error: 'date_at must be a month (YYYY-MM) or a date in it' }).transform((value) => value.slice(0, 7));

const statisticsFilters = {
  date_at: ZStatisticsMonth.optional(),
  /** an organization and every organization below it */
  organization_id: uuidOf('organization_id').optional(),
};

/** `GET accounts/statistics/attendance`: one row per account with attendance in the month, by name, paged */
export const ZStatisticsListInput = z.object({ ...statisticsFilters, ...pageShape(10) });
export type TStatisticsListInput = z.input<typeof ZStatisticsListInput>;

/** `GET accounts/statistics/attendance/download`: every row of the month as CSV (default) or XLSX */
export const ZStatisticsDownloadInput = z.object({
  ...statisticsFilters,
  format: z.enum(STATISTICS_DOWNLOAD_FORMATS, { error: `format must be one of ${STATISTICS_DOWNLOAD_FORMATS.join(', ')}` }).default('csv'),
});
export type TStatisticsDownloadInput = z.input<typeof ZStatisticsDownloadInput>;

/** a day of the month over the accounts in reach: how many were present and how long they logged */
export const ZStatisticsDay = z.object({ day: answerTimestamp(), present: z.number().int(), total_time_logged: z.number().int() });
export type TStatisticsDay = z.infer<typeof ZStatisticsDay>;

/** the statistics screen: the page of accounts, the whole month's totals and its days for the chart */
export const ZAttendanceStatistics = ZPage(ZAttendanceStatistic).extend({
  month: answerTimestamp(),
  /** the attendance statuses any account in reach has in the month, by title: one column each */
  statuses: z.array(ZStatusDays.pick({ status_id: true, status: true })).optional(),
  summary: ZAttendanceAverages.extend({ accounts: z.number().int(), days_present: z.number().int(), total_time_logged: z.number().int() }),
  days: z.array(ZStatisticsDay),
});
export type TAttendanceStatistics = z.infer<typeof ZAttendanceStatistics>;
