import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocalInstant, formatInstant, formatTimeOfDay, sharedZoneLabel, withZone, zoneLabel, zoneLabelsOf, zoneWithName, zonedInstant } from './zone-label';

const WINTER = '2026-01-15T08:14:05.000Z';
const SUMMER = '2026-07-15T08:14:05.000Z';

describe('one label form for every time the console shows', () => {
  afterEach(() => vi.restoreAllMocks());

  it('labels a zone by its offset at the instant, the same in every language: UTC, UTC+1, UTC-5, UTC+5:30', () => {
    expect(zoneLabel('Europe/Berlin', WINTER)).toBe('UTC+1');
    expect(zoneLabel('Europe/Berlin', SUMMER)).toBe('UTC+2');
    expect(zoneLabel('America/New_York', WINTER)).toBe('UTC-5');
    expect(zoneLabel('Asia/Kolkata', WINTER)).toBe('UTC+5:30');
    expect(zoneLabel('America/St_Johns', WINTER)).toBe('UTC-3:30');
    expect(zoneLabel('Asia/Tokyo', WINTER)).toBe('UTC+9');
    expect(zoneLabel('UTC', WINTER)).toBe('UTC');
    expect(zoneLabel('Europe/London', WINTER)).toBe('UTC');
    // a zone Intl does not know keeps its name
    expect(zoneLabel('Mars/Olympus_Mons', WINTER)).toBe('Mars/Olympus_Mons');
  });

  it("formats an instant as the spec's DD.MM.YYYY @ HH:mm in the given zone, the label after it", () => {
    expect(formatInstant(WINTER, { timeZone: 'Europe/Berlin' })).toBe('15.01.2026 @ 09:14 UTC+1');
    expect(formatInstant(SUMMER, { timeZone: 'Europe/Berlin' })).toBe('15.07.2026 @ 10:14 UTC+2');
    expect(formatInstant(WINTER, { timeZone: 'Asia/Tokyo', seconds: true })).toBe('15.01.2026 @ 17:14:05 UTC+9');
    expect(formatInstant('2026-01-15T23:30:00+00:00', { timeZone: 'Asia/Tokyo' })).toBe('16.01.2026 @ 08:30 UTC+9');
    // a column header names the zone: the cell keeps the spec's text alone
    expect(formatInstant(WINTER, { timeZone: 'Europe/Berlin', zone: false })).toBe('15.01.2026 @ 09:14');
    expect(formatInstant(null)).toBe('');
    expect(formatInstant('not a date')).toBe('');
    // a wall clock without a zone is no instant: shown as it is, unlabelled
    expect(formatInstant('2026-01-15 09:14:00', { timeZone: 'Asia/Tokyo' })).toBe('15.01.2026 @ 09:14');
  });

  it("defaults to the browser's zone, still labelled", () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'America/New_York' } as Intl.ResolvedDateTimeFormatOptions);
    expect(formatInstant(WINTER)).toBe('15.01.2026 @ 03:14 UTC-5');
    expect(formatTimeOfDay(WINTER)).toBe('03:14:05 UTC-5');
    expect(zonedInstant(WINTER)).toEqual({ date: '15.01.2026', time: '03:14:05', zone: 'UTC-5', timeZone: 'America/New_York' });
    // a date field's wall clock is the browser's: read as such, nothing for an empty or broken one
    expect(browserLocalInstant('2026-01-15T03:14:05')).toBe(new Date(2026, 0, 15, 3, 14, 5).getTime());
    expect(browserLocalInstant('')).toBeUndefined();
    expect(browserLocalInstant('15.01.2026')).toBeUndefined();
  });

  it('names a column\'s zone once only where every time shares it, else each time says its own', () => {
    expect(sharedZoneLabel([WINTER, '2026-02-01T00:00:00Z', null], 'Europe/Berlin')).toBe('UTC+1');
    expect(sharedZoneLabel([WINTER, SUMMER], 'Europe/Berlin')).toBeNull();
    expect(sharedZoneLabel([WINTER, SUMMER], 'Asia/Tokyo')).toBe('UTC+9');
    expect(zoneLabelsOf([SUMMER, WINTER, SUMMER], 'Europe/Berlin')).toEqual(['UTC+2', 'UTC+1']);
    expect(withZone('Time', 'UTC+1')).toBe('Time (UTC+1)');
    expect(withZone('Time', null)).toBe('Time');
  });

  it('names a zone in a sentence by its labels and its IANA name, UTC once', () => {
    expect(zoneWithName('Europe/Berlin', ['UTC+1'])).toBe('UTC+1 (Europe/Berlin)');
    expect(zoneWithName('Europe/Berlin', ['UTC+2', 'UTC+1'])).toBe('UTC+2 / UTC+1 (Europe/Berlin)');
    expect(zoneWithName('UTC', ['UTC'])).toBe('UTC');
    expect(zoneWithName('Europe/London', ['UTC'])).toBe('UTC (Europe/London)');
  });
});
