import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { type DomainError } from '../shared';
import {
  calendarEventGroupDecider,
  daysChangedAlone,
  normaliseTimeOfDay,
  type CalendarEventGroupEvent,
  type CalendarEventInput,
  type CreateCalendarEventGroup,
  type StatusChoice,
} from './calendar-event-group';

const at = '2026-11-20T10:00:00.000Z';
const vacation: StatusChoice = { statusId: 'vacation', exists: true, active: true };
const retired: StatusChoice = { statusId: 'retired', exists: true, active: false };
const group = givenFor(calendarEventGroupDecider);

const input = (changes: Partial<CalendarEventInput> = {}): CalendarEventInput => ({
  title: 'Vacation',
  description: '',
  status: vacation,
  startDate: '2026-11-23',
  endDate: '2026-11-27',
  startTime: '09:00',
  endTime: '17:00',
  ...changes,
});
const create = (changes: Partial<CalendarEventInput> = {}, single = false): CreateCalendarEventGroup => ({
  type: 'CreateCalendarEventGroup',
  data: { ...input(changes), groupId: 'G', accountId: 'alice', single, eventIds: ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7'], at },
});
const week = [
  { eventId: 'e1', date: '2026-11-23' },
  { eventId: 'e2', date: '2026-11-24' },
  { eventId: 'e3', date: '2026-11-25' },
  { eventId: 'e4', date: '2026-11-26' },
  { eventId: 'e5', date: '2026-11-27' },
];
const values = { title: 'Vacation', description: '', statusId: 'vacation', startDate: '2026-11-23', endDate: '2026-11-27', startTime: '09:00:00', endTime: '17:00:00' };
const created: CalendarEventGroupEvent = { type: 'CalendarEventGroupCreated', data: { groupId: 'G', accountId: 'alice', ...values, events: week, createdAt: at } };
const changeGroup = (changes: Partial<CalendarEventInput> = {}, eventIds = ['n1', 'n2', 'n3']) => ({ type: 'ChangeCalendarEventGroup' as const, data: { ...input(changes), eventIds, at } });
const changeDay = (eventId: string, changes: Partial<CalendarEventInput> = {}) => ({
  type: 'ChangeCalendarEvent' as const,
  data: { ...input({ startDate: '2026-11-25', endDate: '2026-11-25', ...changes }), eventId, at },
});
const removeDay = (eventId: string) => ({ type: 'RemoveCalendarEvent' as const, data: { eventId, at } });
const wednesdayAlone: CalendarEventGroupEvent = {
  type: 'CalendarEventChanged',
  data: { groupId: 'G', accountId: 'alice', eventId: 'e3', date: '2026-11-25', startTime: '13:00:00', endTime: '17:00:00', title: 'Half day', description: '', statusId: 'vacation', changedAt: at },
};
const wednesdayRemoved: CalendarEventGroupEvent = { type: 'CalendarEventRemoved', data: { groupId: 'G', accountId: 'alice', eventId: 'e3', date: '2026-11-25', removedAt: at } };

function fieldsOf(run: () => unknown): Record<string, string[]> | undefined {
  try {
    run();
  } catch (error) {
    return (error as DomainError).fields;
  }
  return undefined;
}

describe('creating an event group', () => {
  it('lays one event per day of the range, times as HH:mm:ss', () => group([]).when(create()).then([created]));

  it("creates one all-day event with 'Edit only selected day'", () =>
    group([])
      .when(create({ endDate: '2026-11-23', startTime: '00:00:00', endTime: '23:59:59' }, true))
      .then([{ type: 'CalendarEventGroupCreated', data: { groupId: 'G', accountId: 'alice', ...values, endDate: '2026-11-23', startTime: '00:00:00', endTime: '23:59:59', events: [week[0]], createdAt: at } }]));

  it("requires both times with the spec's message 'This field is required'", () => {
    group([]).when(create({ startTime: '' })).thenThrows('calendar.time_required', 'start_time');
    expect(fieldsOf(() => calendarEventGroupDecider.decide(create({ startTime: ' ', endTime: '' }), { status: 'none' }))).toEqual({
      start_time: ['This field is required'],
      end_time: ['This field is required'],
    });
  });

  it('refuses a time that is no time of day, and an end time not after the start time', () => {
    group([]).when(create({ startTime: '24:00' })).thenThrows('calendar.time_invalid', 'start_time');
    group([]).when(create({ endTime: '09:00:00' })).thenThrows('calendar.time_range_invalid', 'end_time');
  });

  it("in single mode the end date may only equal the start date; in range mode it cannot be before it", () => {
    group([]).when(create({ endDate: '2026-11-24' }, true)).thenThrows('calendar.single_day_range', 'end_date');
    group([]).when(create({ endDate: '2026-11-22' })).thenThrows('calendar.date_range_invalid', 'end_date');
  });

  it('refuses impossible dates and ranges over 366 days', () => {
    group([]).when(create({ startDate: '2026-02-30' })).thenThrows('calendar.date_invalid', 'start_date');
    group([]).when(create({ endDate: '2027-11-24' })).thenThrows('calendar.range_too_long', 'end_date');
  });

  it('wants an existing, active status and a title', () => {
    group([]).when(create({ status: { statusId: 'gone', exists: false, active: false } })).thenThrows('attendance_status.not_found', 'status_id');
    group([]).when(create({ status: retired })).thenThrows('attendance_status.inactive', 'status_id');
    group([]).when(create({ title: '  ' })).thenThrows('calendar.title_invalid', 'title');
  });

  it('answers the status and the title together, the two fields the dialog shows server errors on', () =>
    expect(Object.keys(fieldsOf(() => calendarEventGroupDecider.decide(create({ title: '', status: retired }), { status: 'none' })) ?? {})).toEqual(['title', 'status_id']));

  it('refuses a second creation', () => group([created]).when(create()).thenThrows('calendar.group_exists'));
});

describe('changing the whole group', () => {
  it('applies to every day; days that stay keep their ids, new days take fresh ones', () =>
    group([created])
      .when(changeGroup({ title: 'Long vacation', endDate: '2026-11-29' }))
      .then([
        {
          type: 'CalendarEventGroupChanged',
          data: {
            groupId: 'G',
            accountId: 'alice',
            ...values,
            title: 'Long vacation',
            endDate: '2026-11-29',
            events: [...week, { eventId: 'n1', date: '2026-11-28' }, { eventId: 'n2', date: '2026-11-29' }],
            changedAt: at,
          },
        },
      ]));

  it('keeps a day changed alone through a change of the whole group, as a series keeps its exceptions', () => {
    const halfDay = { startTime: '13:00:00', endTime: '17:00:00', title: 'Half day', description: '', statusId: 'vacation' };
    const renamed = week.map((day) => (day.eventId === 'e3' ? { ...day, alone: halfDay } : day));
    group([created, wednesdayAlone])
      .when(changeGroup({ title: 'Trip' }))
      .then([{ type: 'CalendarEventGroupChanged', data: { groupId: 'G', accountId: 'alice', ...values, title: 'Trip', events: renamed, changedAt: at } }]);
    // nothing of the group changed and the day keeps its own values: nothing to record
    group([created, wednesdayAlone]).when(changeGroup()).then([]);
  });

  it('the day changed alone stays apart after the change, and is still counted as changed alone', () => {
    const afterRename = [created, wednesdayAlone, { type: 'CalendarEventGroupChanged', data: { groupId: 'G', accountId: 'alice', ...values, title: 'Trip', events: week.map((day) => (day.eventId === 'e3' ? { ...day, alone: { startTime: '13:00:00', endTime: '17:00:00', title: 'Half day', description: '', statusId: 'vacation' } } : day)), changedAt: at } }] as CalendarEventGroupEvent[];
    const state = afterRename.reduce(calendarEventGroupDecider.evolve, calendarEventGroupDecider.initialState());
    expect(state.status === 'active' && state.events.map((day) => [day.eventId, day.title, day.detached])).toEqual([
      ['e1', 'Trip', false],
      ['e2', 'Trip', false],
      ['e3', 'Half day', true],
      ['e4', 'Trip', false],
      ['e5', 'Trip', false],
    ]);
    expect(daysChangedAlone(state)).toEqual([{ eventId: 'e3', date: '2026-11-25' }]);
  });

  it('resets a day changed alone when asked, and drops one the new range no longer covers', () => {
    group([created, wednesdayAlone])
      .when({ ...changeGroup(), data: { ...changeGroup().data, resetChangedDays: true } })
      .then([{ type: 'CalendarEventGroupChanged', data: { groupId: 'G', accountId: 'alice', ...values, events: week, changedAt: at } }]);
    group([created, wednesdayAlone])
      .when(changeGroup({ endDate: '2026-11-24' }))
      .then([{ type: 'CalendarEventGroupChanged', data: { groupId: 'G', accountId: 'alice', ...values, endDate: '2026-11-24', events: week.slice(0, 2), changedAt: at } }]);
  });

  it('leaves a day removed alone removed', () => {
    group([created, wednesdayRemoved])
      .when(changeGroup({ title: 'Trip' }))
      .then([{ type: 'CalendarEventGroupChanged', data: { groupId: 'G', accountId: 'alice', ...values, title: 'Trip', events: week.filter((day) => day.eventId !== 'e3'), changedAt: at } }]);
  });

  it('records nothing when nothing changes', () => group([created]).when(changeGroup({ startTime: '09:00:00' })).then([]));

  it('keeps a status made inactive since, but takes no other inactive one', () => {
    group([created]).when(changeGroup({ status: { ...vacation, active: false }, title: 'Trip' })).then([expect.objectContaining({ type: 'CalendarEventGroupChanged' }) as CalendarEventGroupEvent]);
    group([created]).when(changeGroup({ status: retired })).thenThrows('attendance_status.inactive', 'status_id');
  });

  it("checks the range like creation: the end date cannot be before the event's start date", () => group([created]).when(changeGroup({ endDate: '2026-11-20' })).thenThrows('calendar.date_range_invalid', 'end_date'));

  it('refuses a range made only of removed days', () =>
    group([created, wednesdayRemoved]).when(changeGroup({ startDate: '2026-11-25', endDate: '2026-11-25' })).thenThrows('calendar.date_range_invalid', 'end_date'));
});

describe("'Edit only selected day'", () => {
  it('changes one day apart from its group', () =>
    group([created]).when(changeDay('e3', { title: 'Half day', startTime: '13:00' })).then([wednesdayAlone]));

  it('may move the day to a free date, not onto another day of the group', () => {
    group([created]).when(changeDay('e3', { startDate: '2026-11-30', endDate: '2026-11-30' })).then([expect.objectContaining({ data: expect.objectContaining({ date: '2026-11-30' }) }) as CalendarEventGroupEvent]);
    group([created]).when(changeDay('e3', { startDate: '2026-11-24', endDate: '2026-11-24' })).thenThrows('calendar.date_taken', 'start_date');
  });

  it('keeps the end date on the start date, requires times, and records nothing unchanged', () => {
    group([created]).when(changeDay('e3', { endDate: '2026-11-26' })).thenThrows('calendar.single_day_range', 'end_date');
    group([created]).when(changeDay('e3', { endTime: '' })).thenThrows('calendar.time_required', 'end_time');
    group([created]).when(changeDay('e3')).then([]);
  });

  it('refuses an unknown day', () => group([created]).when(changeDay('nope')).thenThrows('calendar.event_not_found'));
});

describe('removing', () => {
  it('removes one day; its last day takes the group along', () => {
    group([created]).when(removeDay('e3')).then([wednesdayRemoved]);
    const single: CalendarEventGroupEvent = { type: 'CalendarEventGroupCreated', data: { groupId: 'G', accountId: 'alice', ...values, endDate: '2026-11-23', events: [week[0]], createdAt: at } };
    group([single])
      .when(removeDay('e1'))
      .then([
        { type: 'CalendarEventRemoved', data: { groupId: 'G', accountId: 'alice', eventId: 'e1', date: '2026-11-23', removedAt: at } },
        { type: 'CalendarEventGroupRemoved', data: { groupId: 'G', accountId: 'alice', removedAt: at } },
      ]);
    group([created, wednesdayRemoved]).when(removeDay('e3')).thenThrows('calendar.event_not_found');
  });

  it('removes the whole group, after which it is gone', () => {
    const gone: CalendarEventGroupEvent = { type: 'CalendarEventGroupRemoved', data: { groupId: 'G', accountId: 'alice', removedAt: at } };
    group([created]).when({ type: 'RemoveCalendarEventGroup', data: { at } }).then([gone]);
    group([created, gone]).when({ type: 'RemoveCalendarEventGroup', data: { at } }).thenThrows('calendar.group_not_found');
    group([created, gone]).when(changeDay('e1')).thenThrows('calendar.group_not_found');
  });
});

it('reads times as HH:mm or HH:mm:ss', () => {
  expect(normaliseTimeOfDay('9:00')).toBeNull();
  expect(normaliseTimeOfDay(' 09:05 ')).toBe('09:05:00');
  expect(normaliseTimeOfDay('23:59:59')).toBe('23:59:59');
  expect(normaliseTimeOfDay('23:60')).toBeNull();
});
