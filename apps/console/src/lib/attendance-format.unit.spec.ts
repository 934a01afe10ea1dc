import { describe, expect, it } from 'vitest';
import { dayText, durationText, zonedDateTime } from './attendance-format';

describe('attendance on screen', () => {
  it("shows an instant in the account's zone, daylight saving included, without a fixed shift", () => {
    expect(zonedDateTime('2026-01-31T23:30:00.000Z', 'Europe/Berlin')).toEqual({ date: '01.02.2026', time: '00:30:00' });
    expect(zonedDateTime('2026-07-01T06:00:00.000Z', 'Europe/Berlin')).toEqual({ date: '01.07.2026', time: '08:00:00' });
    expect(zonedDateTime('2026-01-31T23:30:00.000Z', 'UTC')).toEqual({ date: '31.01.2026', time: '23:30:00' });
  });

  it('writes days as DD.MM.YYYY and durations as HH:MM:SS', () => {
    expect(dayText('2026-02-03')).toBe('03.02.2026');
    expect(durationText(30_600)).toBe('08:30:00');
    expect(durationText(100 * 3600 + 61)).toBe('100:01:01');
  });
});
