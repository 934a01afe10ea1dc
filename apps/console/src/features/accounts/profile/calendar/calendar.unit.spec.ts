import type { TCalendarEvent } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import { addMonths, isAllDay, isoWeek, layoutDay, monthGrid, weekOf } from './calendar-grid';
import { changeField, createInput, eventFormOf, formErrors, formFieldOf, newEventForm, updateInput } from './event-form';
import { statusColour } from './event-chip';

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

describe('the calendar grid', () => {
  it('lays a month out in Monday-first weeks', () => {
    const grid = monthGrid('2026-07-15');
    expect(grid[0][0]).toBe('2026-06-29');
    expect(grid.at(-1)?.at(-1)).toBe('2026-08-02');
    expect(grid).toHaveLength(5);
    // February 2027 starts on a Monday and fills exactly four weeks
    expect(monthGrid('2027-02-01')).toHaveLength(4);
    expect(weekOf('2026-07-05')).toEqual(['2026-06-29', '2026-06-30', '2026-07-01', '2026-07-02', '2026-07-03', '2026-07-04', '2026-07-05']);
  });

  it('steps months across years and numbers ISO weeks', () => {
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-01');
    expect(isoWeek('2026-01-01')).toBe(1);
    expect(isoWeek('2027-01-01')).toBe(53);
    expect(isoWeek('2026-07-06')).toBe(28);
  });

  it('tells all-day events and puts overlapping timed events side by side', () => {
    expect(isAllDay(event())).toBe(true);
    expect(isAllDay(event({ start_date: '2026-07-07 09:00:00' }))).toBe(false);
    const [a, b, c] = layoutDay([
      event({ id: 'a', start_date: '2026-07-07 09:00:00', end_date: '2026-07-07 11:00:00' }),
      event({ id: 'b', start_date: '2026-07-07 10:00:00', end_date: '2026-07-07 12:00:00' }),
      event({ id: 'c', start_date: '2026-07-07 13:00:00', end_date: '2026-07-07 14:00:00' }),
    ]);
    expect([a.event.id, a.left, a.width, a.top]).toEqual(['a', 0, 0.5, 9 / 24]);
    expect([b.event.id, b.left, b.width]).toEqual(['b', 0.5, 0.5]);
    expect([c.event.id, c.left, c.width]).toEqual(['c', 0, 1]);
  });
});

describe('the event dialog rules', () => {
  it('creates a full day from a clicked day and one hour from a clicked slot, the end capped at 23:59:59', () => {
    expect(newEventForm('2026-07-07')).toMatchObject({ startDate: '2026-07-07', startTime: '00:00:00', endDate: '2026-07-07', endTime: '23:59:59' });
    expect(newEventForm('2026-07-07', 9)).toMatchObject({ startTime: '09:00:00', endTime: '10:00:00' });
    expect(newEventForm('2026-07-07', 23)).toMatchObject({ startTime: '23:00:00', endTime: '23:59:59' });
  });

  it('moves the end date along when the start date passes it, and keeps a single day on one date', () => {
    const form = { ...newEventForm('2026-07-07'), endDate: '2026-07-09' };
    expect(changeField(form, 'startDate', '2026-07-08').endDate).toBe('2026-07-09');
    expect(changeField(form, 'startDate', '2026-07-12').endDate).toBe('2026-07-12');
    expect(changeField({ ...form, eventEndDate: '2026-07-09' }, 'eventStartDate', '2026-07-10').eventEndDate).toBe('2026-07-10');
    const single = changeField(form, 'single', true);
    expect(single.endDate).toBe('2026-07-07');
    expect(changeField(single, 'startDate', '2026-07-08').endDate).toBe('2026-07-08');
  });

  it('requires the times, refuses an end before the start and a single day over two dates', () => {
    const form = newEventForm('2026-07-07');
    expect(formErrors({ ...form, startTime: '', endTime: '' }, false, messages)).toEqual({ startTime: ['This field is required'], endTime: ['This field is required'] });
    expect(formErrors({ ...form, endDate: '2026-07-06' }, false, messages)).toEqual({ endDate: ['end before start'] });
    expect(formErrors({ ...form, single: true, endDate: '2026-07-08' }, false, messages)).toEqual({ endDate: ['single same day'] });
    // editing the whole group checks the event range instead
    expect(formErrors({ ...form, eventEndTime: '', eventEndDate: '2026-07-01' }, true, messages)).toEqual({ eventEndTime: ['This field is required'], eventEndDate: ['end before start'] });
    expect(formErrors(form, false, messages)).toEqual({});
  });

  it('sends the spec payloads: create with event_group_title, update of the day or of the range', () => {
    expect(createInput({ ...newEventForm('2026-07-07', 9), title: 'Doctor', status_id: 's1', startTime: '09:30' }, 'a1')).toEqual({
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
