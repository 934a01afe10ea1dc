import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../account/account-profile-rules';
import { type DomainError } from '../shared';
import { addDays, datesInRange, daysBetween, daysInMonth, isCalendarRangeDate, isValidDate, isValidTimeZone, localDateOf, localDateTimeOf, localDayBounds, localDayStart, weekdayOf } from './time-zone';

describe('local days', () => {
  it('draws the day in the zone given, not in UTC', () => {
    expect(localDateOf('2026-11-22T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-11-23');
    expect(localDateOf('2026-11-22T23:30:00.000Z', 'America/New_York')).toBe('2026-11-22');
    expect(localDateOf('2026-11-22T23:30:00.000Z', 'UTC')).toBe('2026-11-22');
    expect(localDateOf('2026-11-23T00:30:00+01:00', 'Europe/Berlin')).toBe('2026-11-23');
  });

  it('refuses an unknown zone under the time_zone field', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('Europe/Atlantis')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(() => localDateOf('2026-11-22T23:30:00.000Z', 'Europe/Atlantis')).toThrowError(expect.objectContaining({ code: 'attendance.time_zone_invalid', field: 'time_zone' }) as DomainError);
  });

  it('starts a day at local midnight, in winter and in summer', () => {
    expect(localDayStart('2026-11-23', 'Europe/Berlin')).toBe('2026-11-22T23:00:00.000Z');
    expect(localDayStart('2026-07-01', 'Europe/Berlin')).toBe('2026-06-30T22:00:00.000Z');
    expect(localDayStart('2026-07-01', 'America/New_York')).toBe('2026-07-01T04:00:00.000Z');
  });

  it('knows a day of 23 hours and a day of 25 (daylight saving in Berlin)', () => {
    const spring = localDayBounds('2026-03-29', 'Europe/Berlin');
    expect(spring).toEqual({ start: '2026-03-28T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z' });
    const autumn = localDayBounds('2026-10-25', 'Europe/Berlin');
    expect(Date.parse(autumn.end) - Date.parse(autumn.start)).toBe(25 * 3_600_000);
  });

  it('starts a day whose midnight was skipped at its first real instant (Sao Paulo, 2018-11-04 began at 01:00)', () => {
    expect(localDayStart('2018-11-04', 'America/Sao_Paulo')).toBe('2018-11-04T03:00:00.000Z');
    expect(localDateOf('2018-11-04T02:59:59.000Z', 'America/Sao_Paulo')).toBe('2018-11-03');
  });

  it('gives a day a zone skipped entirely no length (Apia skipped 2011-12-30)', () => {
    const skipped = localDayBounds('2011-12-30', 'Pacific/Apia');
    expect(skipped.start).toBe(skipped.end);
    expect(skipped.start).toBe(localDayStart('2011-12-31', 'Pacific/Apia'));
  });
});

describe('calendar dates', () => {
  it('knows real dates', () => {
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
  });

  it('counts days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-23', '2026-11-27')).toBe(4);
    expect(daysBetween('2026-11-27', '2026-11-23')).toBe(-4);
    expect(datesInRange('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(datesInRange('2026-11-27', '2026-11-23')).toEqual([]);
  });
});

describe('the calendar from year 1 to year 9999 (Date.UTC reads years 0-99 as 19xx)', () => {
  it('knows the days of years 1 to 99 as theirs, not 1901 to 1999', () => {
    for (const day of ['0001-01-01', '0001-02-28', '0099-06-15', '0099-12-31', '0100-01-01', '9999-12-31']) expect(isValidDate(day)).toBe(true);
    // 1900 was no leap year and 1904 was: year 4 was one too, year 100 was not (Gregorian rule, proleptic)
    expect(isValidDate('0004-02-29')).toBe(true);
    expect(isValidDate('0100-02-29')).toBe(false);
    expect(isValidDate('0001-02-29')).toBe(false);
    // the profile's own date check (a birth date) reads years 0-99 the same way
    expect(isCalendarDate('0099-06-15')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true);
    expect(isCalendarDate('0100-02-29')).toBe(false);
    expect(daysInMonth(4, 2)).toBe(29);
    expect(daysInMonth(1, 2)).toBe(28);
    expect(daysInMonth(9999, 12)).toBe(31);
  });

  it('counts days across the ends of years 1, 99, 100 and 9999', () => {
    expect(addDays('0001-01-01', 1)).toBe('0001-01-02');
    expect(addDays('0001-01-01', 31)).toBe('0001-02-01');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(addDays('0100-01-01', -1)).toBe('0099-12-31');
    expect(addDays('9999-12-30', 1)).toBe('9999-12-31');
    expect(daysBetween('0099-06-15', '0100-06-15')).toBe(365);
    expect(daysBetween('0001-01-01', '9999-12-31')).toBe(3_652_058);
    expect(datesInRange('0099-12-30', '0100-01-02')).toEqual(['0099-12-30', '0099-12-31', '0100-01-01', '0100-01-02']);
  });

  it('knows the weekday of any day: 0001-01-01 was a Monday, 9999-12-31 a Friday', () => {
    expect(weekdayOf('0001-01-01')).toBe(0);
    expect(weekdayOf('0099-06-15')).toBe(weekdayOf('0499-06-15')); // the Gregorian cycle is 400 years
    expect(weekdayOf('2026-11-23')).toBe(0);
    expect(weekdayOf('9999-12-31')).toBe(4);
  });

  it('refuses to write a day past 9999-12-31 or before 0000-01-01 as a date (a 400, not a garbled "+01000")', () => {
    expect(() => addDays('9999-12-31', 1)).toThrowError(expect.objectContaining({ code: 'date.out_of_range' }) as DomainError);
    expect(() => addDays('0000-01-01', -1)).toThrowError(expect.objectContaining({ code: 'date.out_of_range' }) as DomainError);
    expect(isCalendarRangeDate('0001-01-01')).toBe(true);
    expect(isCalendarRangeDate('9999-12-31')).toBe(true);
    expect(isCalendarRangeDate('0000-12-31')).toBe(false);
  });

  it('draws local days of years 1 and 99 in a zone', () => {
    expect(localDayStart('0099-06-15', 'UTC')).toBe('0099-06-15T00:00:00.000Z');
    expect(localDayBounds('0001-01-01', 'UTC')).toEqual({ start: '0001-01-01T00:00:00.000Z', end: '0001-01-02T00:00:00.000Z' });
    expect(localDateOf(localDayStart('0099-06-15', 'Europe/Berlin'), 'Europe/Berlin')).toBe('0099-06-15');
    expect(localDayStart('9999-12-30', 'UTC')).toBe('9999-12-30T00:00:00.000Z');
  });
});

describe('local times read from the hour offsets', () => {
  /** what ICU says, every time: the reference the cached offsets must equal */
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const fromIcu = (ms: number, timeZone: string) => {
    if (!formatters.has(timeZone)) formatters.set(timeZone, new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }));
    const parts = Object.fromEntries((formatters.get(timeZone) as Intl.DateTimeFormat).formatToParts(ms).map((part) => [part.type, part.value]));
    return `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  };

  // daylight saving at 2:00 and 3:00, half-hour and 45-minute offsets, a half-hour daylight saving
  // (Lord Howe), Morocco's Ramadan switches, and Amsterdam's 1937 offset of +00:19:32 then +00:20
  const zones = ['Europe/Berlin', 'America/New_York', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Africa/Casablanca', 'UTC'];

  it('equals ICU at every step through a year in zones with every kind of transition', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const end = Date.parse('2027-01-01T00:00:00Z');
    // an irregular step (47 min 13.25 s): over the year it lands on every minute of the hour, and on
    // every hour of the days that change their offset
    const mismatches: string[] = [];
    for (const zone of zones) {
      for (let ms = start; ms < end; ms += 2_833_250) {
        const [ours, icu] = [localDateTimeOf(ms, zone), fromIcu(ms, zone)];
        if (ours !== icu) mismatches.push(`${zone} ${new Date(ms).toISOString()}: ${ours} != ${icu}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('equals ICU second by second across transitions, including one of odd seconds (Amsterdam, 1937-07-01)', () => {
    const around = [
      ['Europe/Berlin', '2026-03-29T01:00:00Z'],
      ['Europe/Berlin', '2026-10-25T01:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
      ['Europe/Amsterdam', '1937-06-30T23:40:28Z'],
    ] as const;
    const mismatches: string[] = [];
    for (const [zone, instant] of around) {
      const at = Date.parse(instant);
      for (let ms = at - 3_600_000; ms <= at + 3_600_000; ms += 1000) {
        const [ours, icu] = [localDateTimeOf(ms, zone), fromIcu(ms, zone)];
        if (ours !== icu) mismatches.push(`${zone} ${new Date(ms).toISOString()}: ${ours} != ${icu}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
