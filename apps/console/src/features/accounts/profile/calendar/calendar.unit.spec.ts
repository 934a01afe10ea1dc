import type { TCalendarEvent } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import { addDays, eventDescription, isAllDay, localNow, rangeOfSelection, shownDate, sourceOf, statusColour, toFullCalendarEvent } from './calendar-events';
import { changeField, createInput, eventFormOf, formErrors, formFieldOf, newEventForm, slotRange, updateInput } from './event-form';

const messages = { required: 'This field is required', endBeforeStart: 'end before start', singleSameDay: 'single same day' };

const event = (overrides: Partial<TCalendarEvent> = {}): TCalendarEvent => ({
  id: 'e1',
  account_id: 'a1',
  event_group_id: 'g1',
  attendance_status_id: 's1',
  status_title: 'Vacation',
  title: 'Holiday',
  description: '',
  start_date: '2026-07-07 00:00:00',
  end_date: '2026-07-07 23:59:59',
  start_event: '2026-07-06 00:00:00',
  end_event: '2026-07-08 23:59:59',
  ...overrides,
});

describe('our events on FullCalendar and its selections back', () => {
  it('draws an all-day day as an all-day event (the end exclusive), a timed one with its times, in its group and status colour', () => {
    expect(isAllDay(event())).toBe(true);
    expect(isAllDay(event({ start_date: '2026-07-07 09:00:00' }))).toBe(false);
    expect(toFullCalendarEvent(event())).toMatchObject({ id: 'e1', groupId: 'g1', title: 'Holiday', allDay: true, start: '2026-07-07', end: '2026-07-08', textColor: '#ffffff', backgroundColor: statusColour('s1') });
    expect(toFullCalendarEvent(event({ end_date: '2026-12-31 23:59:59', start_date: '2026-12-31 00:00:00' }))).toMatchObject({ start: '2026-12-31', end: '2027-01-01' });
    const timed = toFullCalendarEvent(event({ start_date: '2026-07-07 09:30:00', end_date: '2026-07-07 17:00:00' }));
    expect(timed).toMatchObject({ allDay: false, start: '2026-07-07T09:30:00', end: '2026-07-07T17:00:00' });
    // a click on it gives our event back, as the edit dialog needs it
    expect(sourceOf(timed.extendedProps ?? {})).toEqual(event({ start_date: '2026-07-07 09:30:00', end_date: '2026-07-07 17:00:00' }));
    expect(eventDescription(event())).toBe('Holiday – Vacation');
    expect(eventDescription(event({ status_title: null }))).toBe('Holiday');
  });

  it('makes whole days of a selection over days (its end exclusive), across months and years', () => {
    expect(rangeOfSelection({ startStr: '2026-07-07', endStr: '2026-07-08', allDay: true })).toEqual({ startDate: '2026-07-07', endDate: '2026-07-07', startTime: '00:00:00', endTime: '23:59:59' });
    expect(rangeOfSelection({ startStr: '2026-12-30', endStr: '2027-01-02', allDay: true })).toEqual({ startDate: '2026-12-30', endDate: '2027-01-01', startTime: '00:00:00', endTime: '23:59:59' });
  });

  it('keeps the times of a selection over time slots on each of its days', () => {
    // a clicked hour slot: that hour to the next
    expect(rangeOfSelection({ startStr: '2026-07-07T14:00:00Z', endStr: '2026-07-07T15:00:00Z', allDay: false })).toEqual({ startDate: '2026-07-07', endDate: '2026-07-07', startTime: '14:00:00', endTime: '15:00:00' });
    // the last slot ends at midnight: 23:59:59 of its day
    expect(rangeOfSelection({ startStr: '2026-07-07T22:00:00Z', endStr: '2026-07-08T00:00:00Z', allDay: false })).toEqual({ startDate: '2026-07-07', endDate: '2026-07-07', startTime: '22:00:00', endTime: '23:59:59' });
    // Monday 09:00 to Friday 17:00: 09:00 to 17:00 each day
    expect(rangeOfSelection({ startStr: '2026-07-06T09:00:00Z', endStr: '2026-07-10T17:00:00Z', allDay: false })).toEqual({ startDate: '2026-07-06', endDate: '2026-07-10', startTime: '09:00:00', endTime: '17:00:00' });
    // 14:00 to 10:00 two days on is no time of a day: whole days
    expect(rangeOfSelection({ startStr: '2026-07-06T14:00:00Z', endStr: '2026-07-08T10:00:00Z', allDay: false })).toEqual({ startDate: '2026-07-06', endDate: '2026-07-08', startTime: '00:00:00', endTime: '23:59:59' });
  });

  it("reads 'today' on the browser's wall clock and shows dates as DD.MM.YYYY", () => {
    expect(localNow(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02T03:04:05');
    expect(shownDate('2026-07-07')).toBe('07.07.2026');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});

describe('the event dialog rules', () => {
  it('creates a full day from a clicked day and one hour from a clicked slot, the end capped at 23:59:59', () => {
    expect(newEventForm({ startDate: '2026-07-06', endDate: '2026-07-10', startTime: '09:00:00', endTime: '17:00:00' })).toMatchObject({ startDate: '2026-07-06', endDate: '2026-07-10', eventEndDate: '2026-07-10', startTime: '09:00:00', endTime: '17:00:00', single: false });
    expect(newEventForm(slotRange('2026-07-07'))).toMatchObject({ startDate: '2026-07-07', startTime: '00:00:00', endDate: '2026-07-07', endTime: '23:59:59' });
    expect(newEventForm(slotRange('2026-07-07', 9))).toMatchObject({ startTime: '09:00:00', endTime: '10:00:00' });
    expect(newEventForm(slotRange('2026-07-07', 23))).toMatchObject({ startTime: '23:00:00', endTime: '23:59:59' });
  });

  it('moves the end date along when the start date passes it, and keeps a single day on one date', () => {
    const form = { ...newEventForm(slotRange('2026-07-07')), endDate: '2026-07-09' };
    expect(changeField(form, 'startDate', '2026-07-08').endDate).toBe('2026-07-09');
    expect(changeField(form, 'startDate', '2026-07-12').endDate).toBe('2026-07-12');
    expect(changeField({ ...form, eventEndDate: '2026-07-09' }, 'eventStartDate', '2026-07-10').eventEndDate).toBe('2026-07-10');
    const single = changeField(form, 'single', true);
    expect(single.endDate).toBe('2026-07-07');
    expect(changeField(single, 'startDate', '2026-07-08').endDate).toBe('2026-07-08');
  });

  it('requires the times, refuses an end before the start and a single day over two dates', () => {
    const form = newEventForm(slotRange('2026-07-07'));
    expect(formErrors({ ...form, startTime: '', endTime: '' }, false, messages)).toEqual({ startTime: ['This field is required'], endTime: ['This field is required'] });
    expect(formErrors({ ...form, endDate: '2026-07-06' }, false, messages)).toEqual({ endDate: ['end before start'] });
    expect(formErrors({ ...form, single: true, endDate: '2026-07-08' }, false, messages)).toEqual({ endDate: ['single same day'] });
    // editing the whole group checks the event range instead
    expect(formErrors({ ...form, eventEndTime: '', eventEndDate: '2026-07-01' }, true, messages)).toEqual({ eventEndTime: ['This field is required'], eventEndDate: ['end before start'] });
    expect(formErrors(form, false, messages)).toEqual({});
  });

  it('sends the spec payloads: create with event_group_title, update of the day or of the range', () => {
    expect(createInput({ ...newEventForm(slotRange('2026-07-07', 9)), title: 'Doctor', status_id: 's1', startTime: '09:30' }, 'a1')).toEqual({
      event_group_title: 'Doctor',
      status_id: 's1',
      start_date: '2026-07-07',
      end_date: '2026-07-07',
      start_time: '09:30:00',
      end_time: '10:00:00',
      description: '',
      single: false,
      account_id: 'a1',
    });
    const edited = eventFormOf(event());
    expect(edited).toMatchObject({ status_id: 's1', startDate: '2026-07-07', eventStartDate: '2026-07-06', eventEndDate: '2026-07-08', eventEndTime: '23:59:59' });
    expect(updateInput(edited, event())).toMatchObject({ event_id: 'e1', event_group_id: 'g1', start_date: '2026-07-06', end_date: '2026-07-08', single: false });
    expect(updateInput({ ...edited, single: true }, event())).toMatchObject({ start_date: '2026-07-07', end_date: '2026-07-07', start_time: '00:00:00', single: true });
    expect(formFieldOf('event_group_title', edited, false)).toBe('title');
    expect(formFieldOf('end_date', edited, true)).toBe('eventEndDate');
    expect(formFieldOf('end_date', { ...edited, single: true }, true)).toBe('endDate');
  });
});

describe('status colours', () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  it('keep white chip text readable (contrast of at least 4.5:1) for any status', () => {
    const statuses = Array.from({ length: 200 }, (_, i) => `0190a3c6-0000-7000-8000-${String(i).padStart(12, '0')}`);
    for (const status of statuses) expect(1.05 / (luminance(statusColour(status)) + 0.05), status).toBeGreaterThanOrEqual(4.5);
  });
});
