import { describe, expect, it } from 'vitest';
import { attendanceWindow, durationText, localSecondsOfDay, monthWindow, summariseSlots, timeLogged } from './attendance-summary';

describe('attendance windows', () => {
  it('starts a week on Monday, whatever day names it', () => {
    for (const day of ['2026-02-02', '2026-02-04', '2026-02-08']) expect(attendanceWindow('weekly', day)).toEqual({ from: '2026-02-02', to: '2026-02-08' });
    // a week across a year's end
    expect(attendanceWindow('weekly', '2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });

  it('spans whole months, leap years included, from a month or a day in it', () => {
    expect(attendanceWindow('monthly', '2028-02-15')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(attendanceWindow('monthly', '2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthWindow('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(attendanceWindow('daily', '2026-03-29')).toEqual({ from: '2026-03-29', to: '2026-03-29' });
  });

  it('draws windows in years 1 to 99 as theirs and ends the last week with the calendar (9999-12-31)', () => {
    expect(attendanceWindow('weekly', '0001-01-01')).toEqual({ from: '0001-01-01', to: '0001-01-07' });
    expect(attendanceWindow('weekly', '0099-06-15')).toEqual({ from: '0099-06-15', to: '0099-06-21' });
    expect(attendanceWindow('monthly', '0004-02')).toEqual({ from: '0004-02-01', to: '0004-02-29' });
    expect(attendanceWindow('monthly', '0100-02-10')).toEqual({ from: '0100-02-01', to: '0100-02-28' });
    expect(attendanceWindow('weekly', '9999-12-31')).toEqual({ from: '9999-12-27', to: '9999-12-31' });
    expect(attendanceWindow('weekly', '9999-12-26')).toEqual({ from: '9999-12-20', to: '9999-12-26' });
    expect(attendanceWindow('monthly', '9999-12')).toEqual({ from: '9999-12-01', to: '9999-12-31' });
  });
});

describe('attendance figures', () => {
  it('writes durations as HH:MM:SS, hours past 24 for totals', () => {
    expect(durationText(0)).toBe('00:00:00');
    expect(durationText(3_661)).toBe('01:01:01');
    expect(durationText(100 * 3600 + 59)).toBe('100:00:59');
  });

  it('reads times of day in the zone, across daylight saving', () => {
    expect(localSecondsOfDay('2026-03-28T07:00:00Z', 'Europe/Berlin')).toBe(8 * 3600);
    expect(localSecondsOfDay('2026-03-30T07:00:00Z', 'Europe/Berlin')).toBe(9 * 3600);
    expect(localSecondsOfDay('2026-03-30T07:00:00Z', 'UTC')).toBe(7 * 3600);
  });

  it('takes a day from its first arrival to its last departure and averages over the days that have each figure', () => {
    const slots = [
      { day: '2026-02-02', arrived_at: '2026-02-02T12:00:00Z', departed_at: '2026-02-02T16:00:00Z' },
      { day: '2026-02-02', arrived_at: '2026-02-02T07:00:00Z', departed_at: '2026-02-02T11:00:00Z' },
      { day: '2026-02-03', arrived_at: '2026-02-03T09:00:00Z', departed_at: null },
    ];
    expect(timeLogged(slots[2])).toBe(0);
    expect(summariseSlots(slots, 'Europe/Berlin')).toEqual({ days_present: 2, total_time_logged: 8 * 3600, average_arrival: '09:00:00', average_departure: '17:00:00', average_working_hours: 8 * 3600 });
    expect(summariseSlots([], 'UTC')).toEqual({ days_present: 0, total_time_logged: 0, average_arrival: null, average_departure: null, average_working_hours: null });
  });
});
