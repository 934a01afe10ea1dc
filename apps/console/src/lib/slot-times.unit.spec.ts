import { describe, expect, it } from 'vitest';
import { fromZonedInput, toZonedInput } from './slot-times';

/** the correction dialog edits a slot's times in the account's zone, whatever the browser's zone is */
describe("a slot's times in the account's zone", () => {
  it('shows an instant as the wall clock of the zone', () => {
    expect(toZonedInput('2026-11-20T00:14:05.123Z', 'Asia/Tokyo')).toBe('2026-11-20T09:14:05');
    expect(toZonedInput('2026-11-20T08:14:05Z', 'America/New_York')).toBe('2026-11-20T03:14:05');
    expect(toZonedInput('2026-07-01T08:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T10:00:00');
    expect(toZonedInput(null, 'UTC')).toBe('');
  });

  it('reads a wall clock of the zone back as its instant, in winter and summer time', () => {
    expect(fromZonedInput('2026-11-20T09:14:05', 'Asia/Tokyo', null)).toBe('2026-11-20T00:14:05.000Z');
    expect(fromZonedInput('2026-11-20T09:14', 'Europe/Berlin', null)).toBe('2026-11-20T08:14:00.000Z');
    expect(fromZonedInput('2026-07-01T10:00:00', 'Europe/Berlin', null)).toBe('2026-07-01T08:00:00.000Z');
    expect(fromZonedInput('2026-11-20T23:30:00', 'America/New_York', null)).toBe('2026-11-21T04:30:00.000Z');
  });

  it('keeps an untouched time as it was, milliseconds included', () => {
    expect(fromZonedInput('2026-11-20T09:14:05', 'Asia/Tokyo', '2026-11-20T00:14:05.123Z')).toBe('2026-11-20T00:14:05.123Z');
  });

  it('places a time the zone skips after the gap, and an hour it repeats once', () => {
    // Berlin skips 02:00-03:00 on 29.03.2026 and repeats 02:00-03:00 on 25.10.2026
    expect(fromZonedInput('2026-03-29T02:30:00', 'Europe/Berlin', null)).toBe('2026-03-29T01:30:00.000Z');
    expect(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']).toContain(fromZonedInput('2026-10-25T02:30:00', 'Europe/Berlin', null));
  });

  it('gives nothing for an empty or malformed value', () => {
    expect(fromZonedInput('', 'UTC', null)).toBeNull();
    expect(fromZonedInput('20.11.2026 09:14', 'UTC', null)).toBeNull();
  });
});
