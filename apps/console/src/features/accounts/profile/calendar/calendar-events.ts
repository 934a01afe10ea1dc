import type { EventInput } from '@fullcalendar/core';
import type { TCalendarEvent } from '@rollcall/contracts';
import { DAY_END, DAY_START, type NewEventRange } from './event-form';

/**
 * What is still ours under FullCalendar: our calendar events (one a day of an event group, dates the
 * account's local days as 'YYYY-MM-DD HH:mm:ss') mapped onto FullCalendar's events, and its date
 * selections mapped back onto the range of a new event group. FullCalendar runs in its 'UTC' zone,
 * where a wall-clock string stays the wall clock (no browser zone, no daylight-saving shift).
 */

const toUtc = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
export const addDays = (date: string, days: number): string => new Date(toUtc(date) + days * 86_400_000).toISOString().slice(0, 10);

export const dateOf = (dateTime: string): string => dateTime.slice(0, 10);
export const timeOf = (dateTime: string): string => dateTime.slice(11, 19) || DAY_START;

/** 'All day': 00:00:00 to 23:59:59 */
export const isAllDay = (event: TCalendarEvent): boolean => timeOf(event.start_date) === DAY_START && timeOf(event.end_date) === DAY_END;

/**
 * A steady colour per attendance status, so the same status looks the same everywhere; each at least
 * 5:1 against the event's white text (WCAG AA), whichever status draws it.
 */
const PALETTE = ['#1565c0', '#2e7d32', '#6a1b9a', '#c62828', '#bf360c', '#006064', '#4e342e', '#ad1457'];
export function statusColour(statusId: string): string {
  let hash = 0;
  for (const character of statusId) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** how an event reads to a screen reader and in its tooltip: its title and its status */
export const eventDescription = (event: TCalendarEvent): string => (event.status_title ? `${event.title} – ${event.status_title}` : event.title);

/**
 * One of our events as FullCalendar draws it: an all-day day as an all-day event (FullCalendar's end
 * is exclusive: the next day), a timed one from its start to its end; the group is FullCalendar's
 * group, the status gives the colour, and the event itself rides along for the edit dialog.
 */
export function toFullCalendarEvent(event: TCalendarEvent): EventInput {
  const colour = statusColour(event.attendance_status_id);
  const common = { id: event.id, groupId: event.event_group_id, title: event.title, backgroundColor: colour, borderColor: colour, textColor: '#ffffff', extendedProps: { source: event } };
  if (isAllDay(event)) return { ...common, allDay: true, start: dateOf(event.start_date), end: addDays(dateOf(event.end_date), 1) };
  return { ...common, allDay: false, start: `${dateOf(event.start_date)}T${timeOf(event.start_date)}`, end: `${dateOf(event.end_date)}T${timeOf(event.end_date)}` };
}

/** our event back from a FullCalendar event (a click on it opens its edit dialog) */
export const sourceOf = (extendedProps: Record<string, unknown>): TCalendarEvent => extendedProps.source as TCalendarEvent;

/**
 * A selection (a click or a drag over days or time slots) as the range of a new event group. Days
 * (FullCalendar's end exclusive) become whole days, 00:00:00 to 23:59:59. Time slots keep their
 * times on each day of the range; an end at midnight is 23:59:59 of the day before; a drag over
 * several days whose end time is not after its start time (from 14:00 to 10:00 two days on) cannot
 * be a time on each day, and becomes whole days.
 */
export function rangeOfSelection(selection: { startStr: string; endStr: string; allDay: boolean }): NewEventRange {
  const startDate = dateOf(selection.startStr);
  if (selection.allDay) return { startDate, endDate: addDays(dateOf(selection.endStr), -1), startTime: DAY_START, endTime: DAY_END };
  const startTime = timeOf(selection.startStr);
  const endsAtMidnight = timeOf(selection.endStr) === DAY_START;
  const endDate = endsAtMidnight ? addDays(dateOf(selection.endStr), -1) : dateOf(selection.endStr);
  const endTime = endsAtMidnight ? DAY_END : timeOf(selection.endStr);
  if (endDate !== startDate && endTime <= startTime) return { startDate, endDate, startTime: DAY_START, endTime: DAY_END };
  return { startDate, endDate, startTime, endTime };
}

/** DD.MM.YYYY, as the console shows dates (spec section 9) */
export const shownDate = (date: string): string => date.split('-').reverse().join('.');

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * The browser's wall clock as FullCalendar's 'UTC' zone reads it, so 'today' is the browser's local
 * day (as the old grid had it) and not the UTC one.
 */
export function localNow(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}
