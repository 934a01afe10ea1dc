import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, lineText, multilineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';
import { FIRST_DATE, isCalendarRangeDate, LAST_DATE } from '../common/dates';
import { fieldRule, type FieldRuleCode } from '../errors/field-rule-codes';
import { daysFromTo, isRealDate, ZDate, ZMonth } from './attendance-common';

/**
 * The calendar's 'tracking status' events (console-accounts.md 'Calendar' and the event dialog,
 * console-directory.md section 5): `POST|PUT|DELETE account/{id}/tracking-status`, `GET
 * account/{id}/calendar?date=YYYY-MM`. A date may carry its time ('YYYY-MM-DD HH:mm:ss', as the
 * update payload sends it) or the time comes in its own field (`start_time`, `end_time`, as the
 * create payload sends it). The rules of the dialog answer under their fields, with the spec's
 * message for a missing time.
 */
export const CALENDAR_DESCRIPTION_MAX = 2000;
export const CALENDAR_RANGE_DAYS_MAX = 366;
export const CALENDAR_FIELD_REQUIRED = 'This field is required';

export const ZCalendarEventId = uuidOf('event_id');
export const ZCalendarEventGroupId = uuidOf('event_group_id');

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const normaliseTime = (time: string) => {
  const match = TIME.exec(time);
  return match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}` : null;
};

/** the dialog's dates, times and range as sent; their rules are checked together in `rangeIssues` */
const rangeShape = {
  // their forms are checked together below; here only that they are short text
  start_date: lineText('start_date', 32, 'start_date is required'),
  end_date: lineText('end_date', 32, 'end_date is required'),
  start_time: lineText('start_time', 16).nullish(),
  end_time: lineText('end_time', 16).nullish(),
  single: ZBooleanish.default(false),
};

interface RangeInput {
  start_date?: unknown;
  end_date?: unknown;
  start_time?: unknown;
  end_time?: unknown;
  single?: unknown;
}

export interface TEventRange {
  start_date: string;
  end_date: string;
  /** HH:mm:ss */
  start_time: string;
  end_time: string;
  single: boolean;
}

/**
 * The range's rules, each broken one under its field. Values that are not even text were already
 * refused by their own schema and are skipped here, so a field never gets two messages.
 */
type RangeIssue = [field: string, message: string, rule: ReturnType<typeof fieldRule>];
/** the fields' English labels, as the console's form names them */
const LABELS: Record<string, string> = { start_date: 'Start date', end_date: 'End date', start_time: 'Start time', end_time: 'End time' };
const issueOf = (field: string, message: string, code: FieldRuleCode, params: Record<string, string | number> = {}): RangeIssue => [field, message, fieldRule(code, { label: LABELS[field], ...params })];

function checkRange(input: RangeInput): { range: TEventRange | null; issues: RangeIssue[] } {
  const issues: RangeIssue[] = [];
  // not an object at all (tRPC's null): the object schema says so; reading it here would throw
  if (typeof input !== 'object' || input === null) return { range: null, issues };
  const single = input.single === true;
  const [start, end] = (['start', 'end'] as const).map((side) => {
    const dateText = input[`${side}_date`];
    const timeText = input[`${side}_time`];
    if (typeof dateText !== 'string' || (timeText != null && typeof timeText !== 'string')) return { date: null, time: null };
    const match = DATE_TIME.exec(dateText);
    const real = match && isRealDate(match[1]) ? match[1] : null;
    const date = real && isCalendarRangeDate(real) ? real : null;
    if (!real) issues.push(issueOf(`${side}_date`, `${side}_date must be a date as YYYY-MM-DD (optionally with HH:mm:ss)`, 'date'));
    else if (!date) issues.push(issueOf(`${side}_date`, `${side}_date must be a date from ${FIRST_DATE} to ${LAST_DATE}`, 'too_small', { min: FIRST_DATE }));
    const rawTime = timeText || match?.[2] || '';
    const time = rawTime ? normaliseTime(rawTime) : null;
    if (!rawTime) issues.push(issueOf(`${side}_time`, CALENDAR_FIELD_REQUIRED, 'required'));
    else if (!time) issues.push(issueOf(`${side}_time`, 'Enter a time as HH:mm or HH:mm:ss', 'time'));
    return { date, time };
  });
  if (start.time && end.time && end.time <= start.time) issues.push(issueOf('end_time', 'The end time must be after the start time', 'after', { other: 'Start time' }));
  if (start.date && end.date) {
    const days = daysFromTo(start.date, end.date);
    if (single && days !== 0) issues.push(issueOf('end_date', "With 'Edit only selected day' the end date must be the start date", 'same_as', { other: 'Start date' }));
    else if (days < 0) issues.push(issueOf('end_date', 'The end date cannot be before the start date', 'not_before', { other: 'Start date' }));
    else if (days + 1 > CALENDAR_RANGE_DAYS_MAX) issues.push(issueOf('end_date', `An event group may span at most ${CALENDAR_RANGE_DAYS_MAX} days`, 'span', { other: 'Start date', max: CALENDAR_RANGE_DAYS_MAX }));
  }
  const complete = start.date && end.date && start.time && end.time && !issues.length;
  return { range: complete ? { start_date: start.date as string, end_date: end.date as string, start_time: start.time as string, end_time: end.time as string, single } : null, issues };
}

/** runs even when other fields failed, so one answer lists the title, the status and the range together */
const rangeRules = [
  (input: RangeInput, ctx: z.RefinementCtx) => {
    for (const [field, message, params] of checkRange(input).issues) ctx.addIssue({ code: 'custom', path: [field], message, params });
  },
  { when: () => true },
] as const;
const rangeOf = (input: RangeInput) => checkRange(input).range as TEventRange;

const ZTitle = requiredLine('Title', TEXT_MAX);
const ZDescription = multilineText('Description', CALENDAR_DESCRIPTION_MAX)
  .nullish()
  .transform((value) => value ?? '');
const ZStatusChoice = uuidOf('status_id', 'Pick an attendance status', 'Pick an attendance status');

/** `POST account/{id}/tracking-status/`: a new event group ('Event created successfully'); the title is `event_group_title` */
export const ZCreateTrackingStatusInput = z
  .object({ event_group_title: ZTitle, status_id: ZStatusChoice, description: ZDescription, account_id: ZAccountId.optional(), ...rangeShape })
  .superRefine(...rangeRules)
  .transform((input) => ({ title: input.event_group_title, status_id: input.status_id, description: input.description, account_id: input.account_id, ...rangeOf(input) }));
export type TCreateTrackingStatusInput = z.input<typeof ZCreateTrackingStatusInput>;
export type TCreateTrackingStatusCommandInput = z.output<typeof ZCreateTrackingStatusInput>;

/** `PUT account/{id}/tracking-status/`: one day (`single`) or the whole group */
export const ZUpdateTrackingStatusInput = z
  .object({
    event_id: ZCalendarEventId,
    event_group_id: ZCalendarEventGroupId,
    title: ZTitle,
    status_id: ZStatusChoice,
    description: ZDescription,
    account_id: ZAccountId.optional(),
    /** a change of the whole group: the days changed alone take the group's values too (by default they keep theirs) */
    reset_changed_days: ZBooleanish.default(false),
    ...rangeShape,
  })
  .superRefine(...rangeRules)
  .transform((input) => ({
    event_id: input.event_id,
    event_group_id: input.event_group_id,
    title: input.title,
    status_id: input.status_id,
    description: input.description,
    account_id: input.account_id,
    reset_changed_days: input.reset_changed_days,
    ...rangeOf(input),
  }));
export type TUpdateTrackingStatusInput = z.input<typeof ZUpdateTrackingStatusInput>;
export type TUpdateTrackingStatusCommandInput = z.output<typeof ZUpdateTrackingStatusInput>;

/** `DELETE account/{id}/tracking-status`: `single` is 'true' (that day) or 'false' (the whole group) */
export const ZRemoveTrackingStatusInput = z.object({
  event_id: ZCalendarEventId,
  event_group_id: ZCalendarEventGroupId,
  single: ZBooleanish,
  account_id: ZAccountId.optional(),
});
export type TRemoveTrackingStatusInput = z.input<typeof ZRemoveTrackingStatusInput>;
export type TRemoveTrackingStatusCommandInput = z.output<typeof ZRemoveTrackingStatusInput>;

/**
 * the console's event dialog: the days of a group changed alone (which a change of the whole group
 * keeps unless reset), and the group's own values (a day changed alone shows its own)
 */
export const ZCalendarGroupInput = z.object({ account_id: ZAccountId, event_group_id: ZCalendarEventGroupId });
export const ZCalendarDaysChangedAlone = z.object({
  changed_alone: z.array(z.object({ event_id: answerId(), date: answerTimestamp() })),
  group: z.object({ title: answerText(TEXT_MAX), description: answerText(), status_id: answerId() }),
});
export type TCalendarDaysChangedAlone = z.infer<typeof ZCalendarDaysChangedAlone>;

/** `GET account/{id}/calendar?date=YYYY-MM` */
export const ZCalendarQuery = z.object({ date: ZMonth('date') });

/** the console's calendar (tRPC): the days a month or week view shows, at most 62 */
export const ZCalendarRangeInput = z
  .object({ account_id: ZAccountId, from: ZDate('from'), to: ZDate('to') })
  .superRefine((input, ctx) => {
    if (!isRealDate(input.from) || !isRealDate(input.to)) return;
    const days = daysFromTo(input.from, input.to);
    const message = 'to must be on or after from, at most 62 days on';
    if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message, params: fieldRule('not_before', { label: 'To', other: 'From' }) });
    else if (days > 61) ctx.addIssue({ code: 'custom', path: ['to'], message, params: fieldRule('span', { label: 'To', other: 'From', max: 62 }) });
  });
export type TCalendarRangeInput = z.input<typeof ZCalendarRangeInput>;

/**
 * A calendar event (console-accounts.md section 3). Dates are local to the account's time zone as
 * 'YYYY-MM-DD HH:mm:ss'; `start_event`/`end_event` are the group's range.
 */
export const ZCalendarEvent = z.object({
  id: answerId(),
  account_id: answerId(),
  event_group_id: answerId(),
  attendance_status_id: answerId(),
  /** the status's title as the statuses read model has it (null once the status is gone) */
  status_title: answerText(TEXT_MAX).nullable(),
  title: answerText(TEXT_MAX),
  description: answerText(),
  start_date: answerTimestamp(),
  end_date: answerTimestamp(),
  start_event: answerTimestamp(),
  end_event: answerTimestamp(),
});
export type TCalendarEvent = z.infer<typeof ZCalendarEvent>;

/** `POST`/`PUT account/{id}/tracking-status`: the notice and the event group written */
export const ZTrackingStatusSaved = z.object({ message: answerText(), event_group_id: answerId() });
