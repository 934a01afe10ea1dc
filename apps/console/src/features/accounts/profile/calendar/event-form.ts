import type { TCalendarEvent, TCreateTrackingStatusInput, TUpdateTrackingStatusInput } from '@rollcall/contracts';

/**
 * The event dialog's form (console-accounts.md section 3) and its rules (section 4): kept apart
 * from the dialog so the rules read, and are tested, on their own.
 *
 * The selected day is startDate/startTime to endDate/endTime; the group's range is eventStart* to
 * eventEnd*. A new event has only a range (startDate..endDate, the days it will cover); an edited
 * one changes its selected day alone ('Edit only selected day', `single`) or its whole range.
 */
export interface EventForm {
  title: string;
  description: string;
  status_id: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  eventStartDate: string;
  eventStartTime: string;
  eventEndDate: string;
  eventEndTime: string;
  single: boolean;
}

export type EventFormField = keyof EventForm;

/** 'All day' (spec section 9) */
export const DAY_START = '00:00:00';
export const DAY_END = '23:59:59';

/** The range of a new event group: from a clicked day or hour slot, or a selection dragged over days or slots. */
export interface NewEventRange {
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
}

/** A clicked day: a full day. A clicked hour: that hour to the next, the end capped at 23:59:59. */
export function slotRange(date: string, hour?: number): NewEventRange {
  const startTime = hour === undefined ? DAY_START : `${String(hour).padStart(2, '0')}:00:00`;
  const endTime = hour === undefined || hour >= 23 ? DAY_END : `${String(hour + 1).padStart(2, '0')}:00:00`;
  return { startDate: date, endDate: date, startTime, endTime };
}

/** A new event group's form, on the range it will cover. */
export function newEventForm({ startDate, endDate, startTime, endTime }: NewEventRange): EventForm {
  return {
    title: '',
    description: '',
    status_id: '',
    startDate,
    startTime,
    endDate,
    endTime,
    eventStartDate: startDate,
    eventStartTime: startTime,
    eventEndDate: endDate,
    eventEndTime: endTime,
    single: false,
  };
}

const datePart = (dateTime: string) => dateTime.slice(0, 10);
const timePart = (dateTime: string) => dateTime.slice(11, 19) || DAY_START;

/** An event as the calendar lists it; the status becomes `status_id` (spec section 3). */
export function eventFormOf(event: TCalendarEvent): EventForm {
  return {
    title: event.title,
    description: event.description,
    status_id: event.attendance_status_id,
    startDate: datePart(event.start_date),
    startTime: timePart(event.start_date),
    endDate: datePart(event.end_date),
    endTime: timePart(event.end_date),
    eventStartDate: datePart(event.start_event),
    eventStartTime: timePart(event.start_event),
    eventEndDate: datePart(event.end_event),
    eventEndTime: timePart(event.end_event),
    single: false,
  };
}

/**
 * One field changed, and what the rules make of the others: a start date moved after its end date
 * takes the end date along; in single mode the end date is the start date.
 */
export function changeField<Field extends EventFormField>(form: EventForm, field: Field, value: EventForm[Field]): EventForm {
  const next = { ...form, [field]: value };
  if (field === 'startDate' && (next.single || (next.endDate && next.startDate > next.endDate))) next.endDate = next.startDate;
  if (field === 'eventStartDate' && next.eventEndDate && next.eventStartDate > next.eventEndDate) next.eventEndDate = next.eventStartDate;
  if (field === 'single' && next.single) next.endDate = next.startDate;
  return next;
}

export interface EventFormMessages {
  required: string;
  endBeforeStart: string;
  singleSameDay: string;
}

/**
 * The rules the dialog checks before it sends (the server checks them all again): times are
 * required ('This field is required'); in single mode the end date is the start date; a range never
 * ends before it starts. `editing`: the event range fields are shown and sent when not single.
 */
export function formErrors(form: EventForm, editing: boolean, messages: EventFormMessages): Partial<Record<EventFormField, string[]>> {
  const errors: Partial<Record<EventFormField, string[]>> = {};
  const add = (field: EventFormField, message: string) => (errors[field] ??= []).push(message);
  const range = editing && !form.single;
  const times: EventFormField[] = range ? ['eventStartTime', 'eventEndTime'] : ['startTime', 'endTime'];
  for (const field of times) if (!String(form[field]).trim()) add(field, messages.required);
  if (!range) {
    if (form.single && form.endDate !== form.startDate) add('endDate', messages.singleSameDay);
    else if (form.endDate < form.startDate) add('endDate', messages.endBeforeStart);
  } else if (form.eventEndDate < form.eventStartDate) add('eventEndDate', messages.endBeforeStart);
  return errors;
}

const withSeconds = (time: string) => (/^\d{2}:\d{2}$/.test(time) ? `${time}:00` : time);

/** `POST account/{id}/tracking-status/` */
export function createInput(form: EventForm, accountId: string): TCreateTrackingStatusInput & { account_id: string } {
  return {
    event_group_title: form.title,
    status_id: form.status_id,
    start_date: form.startDate,
    end_date: form.endDate,
    start_time: withSeconds(form.startTime),
    end_time: withSeconds(form.endTime),
    description: form.description,
    single: form.single,
    account_id: accountId,
  };
}

/**
 * `PUT account/{id}/tracking-status/`: the selected day alone, or the whole range of its group;
 * `resetChangedDays`: the group's days changed alone take its values too (by default they keep theirs).
 */
export function updateInput(form: EventForm, event: TCalendarEvent, resetChangedDays = false): TUpdateTrackingStatusInput & { account_id: string } {
  const [startDate, startTime, endDate, endTime] = form.single
    ? [form.startDate, form.startTime, form.endDate, form.endTime]
    : [form.eventStartDate, form.eventStartTime, form.eventEndDate, form.eventEndTime];
  return {
    event_id: event.id,
    event_group_id: event.event_group_id,
    title: form.title,
    status_id: form.status_id,
    description: form.description,
    start_date: startDate,
    end_date: endDate,
    start_time: withSeconds(startTime),
    end_time: withSeconds(endTime),
    single: form.single,
    ...(form.single ? {} : { reset_changed_days: resetChangedDays }),
    account_id: event.account_id,
  };
}

/** Where the server's messages go: its field names onto the form's, for the mode that was sent. */
export function formFieldOf(serverField: string, form: EventForm, editing: boolean): EventFormField | null {
  const range = editing && !form.single;
  const map: Record<string, EventFormField> = {
    event_group_title: 'title',
    title: 'title',
    description: 'description',
    status_id: 'status_id',
    single: 'single',
    start_date: range ? 'eventStartDate' : 'startDate',
    end_date: range ? 'eventEndDate' : 'endDate',
    start_time: range ? 'eventStartTime' : 'startTime',
    end_time: range ? 'eventEndTime' : 'endTime',
  };
  return map[serverField] ?? null;
}
