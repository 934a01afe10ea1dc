import { describe, expect, it } from 'vitest';
import { type DomainError } from '../shared';
import { addDays, datesInRange, daysBetween, isValidDate, isValidTimeZone, localDateOf, localDayBounds, localDayStart } from './time-zone';

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
