import { DomainError, type Decider, type DomainEvent } from '../shared';
import { datesInRange, daysBetween, isValidDate } from './time-zone';

/**
 * A calendar 'tracking status' event group of one account (console-accounts.md 'Calendar' and the
 * event dialog; console-directory.md section 5): an attendance status over a range of days, with one
 * event per day from a start time to an end time. 'Edit only selected day' changes one event apart
 * from its group; otherwise a change applies to the whole group and lays its days out again. As in
 * calendar editors' recurring series (RFC 5545 section 3.8.4.4, RECURRENCE-ID: an overridden
 * instance keeps its own values when the series changes), a day changed alone keeps its changes
 * unless the change asks to reset the days changed alone; a day removed alone stays removed.
 * One stream per group (`calendar-event-group-{id}`).
 */
export const CALENDAR_LIMITS = { titleMax: 255, descriptionMax: 2000, rangeDaysMax: 366 } as const;

/** the values a day changed alone keeps apart from its group */
export interface CalendarDayValues {
  startTime: string;
  endTime: string;
  title: string;
  description: string;
  statusId: string;
}

export interface CalendarDay {
  eventId: string;
  /** YYYY-MM-DD */
  date: string;
  /** set when the day was changed alone and keeps its own values through a change of the group (absent in events written before) */
  alone?: CalendarDayValues;
}

interface GroupValues {
  title: string;
  description: string;
  statusId: string;
  startDate: string;
  endDate: string;
  /** HH:mm:ss, each day */
  startTime: string;
  endTime: string;
}

export type CalendarEventGroupCreated = DomainEvent<'CalendarEventGroupCreated', GroupValues & { groupId: string; accountId: string; events: CalendarDay[]; createdAt: string }>;
/** the group's new values and its whole list of days after the change */
export type CalendarEventGroupChanged = DomainEvent<'CalendarEventGroupChanged', GroupValues & { groupId: string; accountId: string; events: CalendarDay[]; changedAt: string }>;
/** one day edited apart from its group ('Edit only selected day') */
export type CalendarEventChanged = DomainEvent<
  'CalendarEventChanged',
  { groupId: string; accountId: string; eventId: string; date: string; startTime: string; endTime: string; title: string; description: string; statusId: string; changedAt: string }
>;
export type CalendarEventRemoved = DomainEvent<'CalendarEventRemoved', { groupId: string; accountId: string; eventId: string; date: string; removedAt: string }>;
export type CalendarEventGroupRemoved = DomainEvent<'CalendarEventGroupRemoved', { groupId: string; accountId: string; removedAt: string }>;
export type CalendarEventGroupEvent = CalendarEventGroupCreated | CalendarEventGroupChanged | CalendarEventChanged | CalendarEventRemoved | CalendarEventGroupRemoved;
export const CALENDAR_EVENT_GROUP_EVENT_TYPES: CalendarEventGroupEvent['type'][] = [
  'CalendarEventGroupCreated',
  'CalendarEventGroupChanged',
  'CalendarEventChanged',
  'CalendarEventRemoved',
  'CalendarEventGroupRemoved',
];

/** What the picked status's own stream says; the handler folds it and hands it in. */
export interface StatusChoice {
  statusId: string;
  exists: boolean;
  active: boolean;
}

/** The dialog's fields; times as HH:mm or HH:mm:ss, empty when left out. */
export interface CalendarEventInput {
  title: string;
  description: string;
  status: StatusChoice;
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
}

/**
 * `single`: the dialog's 'Edit only selected day' was on: a one-day group. `eventIds`: one fresh id
 * per day of the range, at least (the handler counts them with `datesInRange`).
 */
export type CreateCalendarEventGroup = { type: 'CreateCalendarEventGroup'; data: CalendarEventInput & { groupId: string; accountId: string; single: boolean; eventIds: string[]; at: string } };
/**
 * the whole group; `eventIds`: fresh ids for the days the new range adds (one per day of the range
 * always suffices). `resetChangedDays`: the days changed alone take the group's values too (by
 * default they keep theirs).
 */
export type ChangeCalendarEventGroup = { type: 'ChangeCalendarEventGroup'; data: CalendarEventInput & { eventIds: string[]; resetChangedDays?: boolean; at: string } };
/** one day alone: its end date must be its start date */
export type ChangeCalendarEvent = { type: 'ChangeCalendarEvent'; data: CalendarEventInput & { eventId: string; at: string } };
export type RemoveCalendarEvent = { type: 'RemoveCalendarEvent'; data: { eventId: string; at: string } };
export type RemoveCalendarEventGroup = { type: 'RemoveCalendarEventGroup'; data: { at: string } };
export type CalendarEventGroupCommand = CreateCalendarEventGroup | ChangeCalendarEventGroup | ChangeCalendarEvent | RemoveCalendarEvent | RemoveCalendarEventGroup;

export interface CalendarEventState {
  eventId: string;
  date: string;
  startTime: string;
  endTime: string;
  title: string;
  description: string;
  statusId: string;
  /** edited alone: its values are its own until the next change of the whole group */
  detached: boolean;
}

export type CalendarEventGroupState =
  | { status: 'none' }
  | (GroupValues & { status: 'active'; groupId: string; accountId: string; events: CalendarEventState[]; removedDates: string[] })
  | { status: 'removed'; groupId: string };

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
/** HH:mm:ss, or null when the text is no time of day */
export function normaliseTimeOfDay(time: string): string | null {
  const match = TIME_PATTERN.exec(time.trim());
  return match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}` : null;
}

interface Violation {
  field: string;
  code: string;
  message: string;
  /** the field rule it breaks (a FIELD_RULE_CODES member of libs/contracts) with its numbers, where one fits */
  rule?: { code: string; params: Record<string, string | number> };
}

/**
 * Every rule of the event dialog that the input breaks. `keptStatusId`: a status already on the
 * event may stay although it was made inactive since; only a newly picked one must be active.
 */
function eventViolations(input: CalendarEventInput, mode: 'single' | 'range', keptStatusId: string | null): Violation[] {
  const violations: Violation[] = [];
  const title = input.title.trim();
  if (!title) violations.push({ field: 'title', code: 'calendar.title_invalid', message: 'Title is required' });
  else if ([...title].length > CALENDAR_LIMITS.titleMax) violations.push({ field: 'title', code: 'calendar.title_invalid', message: `Title may be at most ${CALENDAR_LIMITS.titleMax} characters`, rule: { code: 'too_long', params: { label: 'Title', max: CALENDAR_LIMITS.titleMax } } });
  if ([...input.description].length > CALENDAR_LIMITS.descriptionMax) {
    violations.push({
      field: 'description',
      code: 'calendar.description_invalid',
      message: `Description may be at most ${CALENDAR_LIMITS.descriptionMax} characters`,
      rule: { code: 'too_long', params: { label: 'Description', max: CALENDAR_LIMITS.descriptionMax } },
    });
  }
  if (!input.status.exists) violations.push({ field: 'status_id', code: 'attendance_status.not_found', message: 'Pick an attendance status' });
  else if (!input.status.active && input.status.statusId !== keptStatusId) violations.push({ field: 'status_id', code: 'attendance_status.inactive', message: 'This status is not active' });

  const startTime = normaliseTimeOfDay(input.startTime);
  const endTime = normaliseTimeOfDay(input.endTime);
  for (const [field, text, time] of [['start_time', input.startTime, startTime], ['end_time', input.endTime, endTime]] as const) {
    // the spec's own message for a missing time
    if (!text.trim()) violations.push({ field, code: 'calendar.time_required', message: 'This field is required' });
    else if (!time) violations.push({ field, code: 'calendar.time_invalid', message: 'Enter a time as HH:mm or HH:mm:ss' });
  }
  if (startTime && endTime && endTime <= startTime) violations.push({ field: 'end_time', code: 'calendar.time_range_invalid', message: 'The end time must be after the start time' });

  const datesValid = [['start_date', input.startDate], ['end_date', input.endDate]].every(([field, date]) => {
    if (isValidDate(date)) return true;
    violations.push({ field, code: 'calendar.date_invalid', message: 'Enter a date as YYYY-MM-DD' });
    return false;
  });
  if (datesValid) {
    const days = daysBetween(input.startDate, input.endDate);
    if (mode === 'single' && days !== 0) violations.push({ field: 'end_date', code: 'calendar.single_day_range', message: "With 'Edit only selected day' the end date must be the start date" });
    else if (days < 0) violations.push({ field: 'end_date', code: 'calendar.date_range_invalid', message: 'The end date cannot be before the start date' });
    else if (days + 1 > CALENDAR_LIMITS.rangeDaysMax) violations.push({ field: 'end_date', code: 'calendar.range_too_long', message: `An event group may span at most ${CALENDAR_LIMITS.rangeDaysMax} days` });
  }
  return violations;
}

function validValues(input: CalendarEventInput, mode: 'single' | 'range', keptStatusId: string | null): GroupValues {
  const violations = eventViolations(input, mode, keptStatusId);
  if (violations.length) {
    const fields: Record<string, string[]> = {};
    for (const { field, message } of violations) (fields[field] ??= []).push(message);
    const rules = violations.flatMap(({ field, message, rule }) => (rule ? [{ field, message, ...rule }] : []));
    throw new DomainError(violations[0].code, violations[0].message, violations[0].field, fields, rules);
  }
  return {
    title: input.title.trim(),
    description: input.description,
    statusId: input.status.statusId,
    startDate: input.startDate,
    endDate: input.endDate,
    startTime: normaliseTimeOfDay(input.startTime) as string,
    endTime: normaliseTimeOfDay(input.endTime) as string,
  };
}

function takeIds(pool: readonly string[], needed: number): string[] {
  if (pool.length < needed) throw new Error(`${needed} event ids needed, ${pool.length} given`);
  return pool.slice(0, needed);
}

const groupNotFound = () => new DomainError('calendar.group_not_found', 'This event group does not exist');
const eventNotFound = () => new DomainError('calendar.event_not_found', 'This calendar event does not exist');

const attachedDay = (values: GroupValues, day: CalendarDay): CalendarEventState => ({
  eventId: day.eventId,
  date: day.date,
  startTime: values.startTime,
  endTime: values.endTime,
  title: values.title,
  description: values.description,
  statusId: values.statusId,
  detached: false,
});

const dayOf = (values: GroupValues, day: CalendarDay): CalendarEventState => (day.alone ? { eventId: day.eventId, date: day.date, ...day.alone, detached: true } : attachedDay(values, day));

/** the days of a live group changed alone, in date order (what a change of the whole group keeps unless reset) */
export function daysChangedAlone(state: CalendarEventGroupState): { eventId: string; date: string }[] {
  return state.status === 'active' ? state.events.filter((day) => day.detached).map(({ eventId, date }) => ({ eventId, date })) : [];
}

const valuesOf = (event: CalendarEventGroupCreated | CalendarEventGroupChanged): GroupValues => {
  const { title, description, statusId, startDate, endDate, startTime, endTime } = event.data;
  return { title, description, statusId, startDate, endDate, startTime, endTime };
};

const sameValues = (a: GroupValues, b: GroupValues) => (Object.keys(a) as (keyof GroupValues)[]).every((key) => a[key] === b[key]);

export const calendarEventGroupDecider: Decider<CalendarEventGroupCommand, CalendarEventGroupEvent, CalendarEventGroupState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'CalendarEventGroupCreated': {
        const values = valuesOf(event);
        return { status: 'active', groupId: event.data.groupId, accountId: event.data.accountId, ...values, events: event.data.events.map((day) => attachedDay(values, day)), removedDates: [] };
      }
      case 'CalendarEventGroupChanged': {
        if (state.status !== 'active') return state;
        const values = valuesOf(event);
        return { ...state, ...values, events: event.data.events.map((day) => dayOf(values, day)) };
      }
      case 'CalendarEventChanged': {
        if (state.status !== 'active') return state;
        const { eventId, date, startTime, endTime, title, description, statusId } = event.data;
        const changed: CalendarEventState = { eventId, date, startTime, endTime, title, description, statusId, detached: true };
        return { ...state, events: state.events.map((day) => (day.eventId === eventId ? changed : day)).sort((a, b) => a.date.localeCompare(b.date)) };
      }
      case 'CalendarEventRemoved':
        return state.status === 'active'
          ? { ...state, events: state.events.filter((day) => day.eventId !== event.data.eventId), removedDates: [...state.removedDates, event.data.date] }
          : state;
      case 'CalendarEventGroupRemoved':
        return { status: 'removed', groupId: event.data.groupId };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateCalendarEventGroup': {
        if (state.status !== 'none') throw new DomainError('calendar.group_exists', 'This event group already exists');
        const { groupId, accountId, single, eventIds, at } = command.data;
        const values = validValues(command.data, single ? 'single' : 'range', null);
        const dates = datesInRange(values.startDate, values.endDate);
        const ids = takeIds(eventIds, dates.length);
        const events = dates.map((date, index) => ({ eventId: ids[index], date }));
        return [{ type: 'CalendarEventGroupCreated', data: { groupId, accountId, ...values, events, createdAt: at } }];
      }
      case 'ChangeCalendarEventGroup': {
        if (state.status !== 'active') throw groupNotFound();
        const values = validValues(command.data, 'range', state.statusId);
        const dates = datesInRange(values.startDate, values.endDate).filter((date) => !state.removedDates.includes(date));
        if (!dates.length) throw new DomainError('calendar.date_range_invalid', 'Every day of this range was removed from the group', 'end_date');
        // days that stay keep their event's id, so links to them survive the change
        const kept = new Map(state.events.map((day) => [day.date, day]));
        const fresh = takeIds(command.data.eventIds, dates.filter((date) => !kept.has(date)).length);
        const reset = command.data.resetChangedDays === true;
        let next = 0;
        const events = dates.map((date): CalendarDay => {
          const day = kept.get(date);
          if (!day) return { eventId: fresh[next++], date };
          if (!day.detached || reset) return { eventId: day.eventId, date };
          const { startTime, endTime, title, description, statusId } = day;
          return { eventId: day.eventId, date, alone: { startTime, endTime, title, description, statusId } };
        });
        const unchanged =
          sameValues(values, state) &&
          !(reset && state.events.some((day) => day.detached)) &&
          events.length === state.events.length &&
          events.every((day, index) => day.eventId === state.events[index].eventId && day.date === state.events[index].date);
        if (unchanged) return [];
        return [{ type: 'CalendarEventGroupChanged', data: { groupId: state.groupId, accountId: state.accountId, ...values, events, changedAt: command.data.at } }];
      }
      case 'ChangeCalendarEvent': {
        if (state.status !== 'active') throw groupNotFound();
        const current = state.events.find((day) => day.eventId === command.data.eventId);
        if (!current) throw eventNotFound();
        const values = validValues(command.data, 'single', current.statusId);
        const date = values.startDate;
        if (state.events.some((day) => day.eventId !== current.eventId && day.date === date)) {
          throw new DomainError('calendar.date_taken', `This group already has an event on ${date}`, 'start_date');
        }
        const { title, description, statusId, startTime, endTime } = values;
        const next = { eventId: current.eventId, date, startTime, endTime, title, description, statusId };
        if ((Object.keys(next) as (keyof typeof next)[]).every((key) => next[key] === current[key])) return [];
        return [{ type: 'CalendarEventChanged', data: { groupId: state.groupId, accountId: state.accountId, ...next, changedAt: command.data.at } }];
      }
      case 'RemoveCalendarEvent': {
        if (state.status !== 'active') throw groupNotFound();
        const current = state.events.find((day) => day.eventId === command.data.eventId);
        if (!current) throw eventNotFound();
        const removed: CalendarEventGroupEvent = { type: 'CalendarEventRemoved', data: { groupId: state.groupId, accountId: state.accountId, eventId: current.eventId, date: current.date, removedAt: command.data.at } };
        // a group without days is no group: its last day takes it along
        if (state.events.length > 1) return [removed];
        return [removed, { type: 'CalendarEventGroupRemoved', data: { groupId: state.groupId, accountId: state.accountId, removedAt: command.data.at } }];
      }
      case 'RemoveCalendarEventGroup':
        if (state.status !== 'active') throw groupNotFound();
        return [{ type: 'CalendarEventGroupRemoved', data: { groupId: state.groupId, accountId: state.accountId, removedAt: command.data.at } }];
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

export const calendarEventGroupStream = (groupId: string) => `calendar-event-group-${groupId}`;
