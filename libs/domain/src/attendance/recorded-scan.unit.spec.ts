import { describe, expect, it } from 'vitest';
import { type DomainError } from '../shared';
import { assertValidAttendanceRules, DEFAULT_ATTENDANCE_RULES } from './attendance-rules';
import { measureScanTime, recordScan, scanTimeProblem, type ReaderScan } from './recorded-scan';

const scan: ReaderScan = {
  scanId: 's1',
  readerId: 'reader-front',
  sequence: 1,
  door: 'Front',
  cardUid: '04A1B2C3',
  deviceTime: '2026-11-23T07:00:00.000Z',
  sentAt: '2026-11-23T07:00:05.000Z',
  receivedAt: '2026-11-23T07:00:05.000Z',
};

describe('measuring a scan\'s clock', () => {
  it('measures skew as server receipt minus device send time', () => {
    expect(measureScanTime({ ...scan, receivedAt: '2026-11-23T07:00:06.500Z' }, 120)).toEqual({ skewMs: 1500, clockSkewed: false, at: scan.deviceTime });
    // a device ahead of the server has a negative skew
    expect(measureScanTime({ ...scan, receivedAt: '2026-11-23T06:58:05.000Z' }, 120)).toEqual({ skewMs: -120_000, clockSkewed: false, at: scan.deviceTime });
  });

  it('flags and corrects beyond the limit, whichever way the clock is off', () => {
    expect(measureScanTime({ ...scan, receivedAt: '2026-11-23T07:02:05.001Z' }, 120)).toEqual({ skewMs: 120_001, clockSkewed: true, at: '2026-11-23T07:02:00.001Z' });
    expect(measureScanTime({ ...scan, receivedAt: '2026-11-23T06:00:05.000Z' }, 120)).toEqual({ skewMs: -3_600_000, clockSkewed: true, at: '2026-11-23T06:00:00.000Z' });
  });

  it('puts the skew flag first, before the flags of the rules', () => {
    expect(recordScan({ ...scan, receivedAt: '2026-11-23T08:00:00.000Z' }, 120, ['two_doors']).flags).toEqual(['clock_skew', 'two_doors']);
    expect(recordScan(scan, 120, ['two_doors']).flags).toEqual(['two_doors']);
  });
});

describe('attendance rules', () => {
  it('accepts the defaults: 60 s duplicate window, 120 s skew, 300 s two doors, 16 h open day', () => {
    expect(assertValidAttendanceRules(DEFAULT_ATTENDANCE_RULES)).toEqual({ duplicateWindowSeconds: 60, clockSkewLimitSeconds: 120, twoDoorsWindowSeconds: 300, openDayLimitHours: 16 });
  });

  it('refuses numbers out of bounds, naming each rule', () => {
    let error: DomainError | null = null;
    try {
      assertValidAttendanceRules({ ...DEFAULT_ATTENDANCE_RULES, openDayLimitHours: 24, duplicateWindowSeconds: 1.5 });
    } catch (thrown) {
      error = thrown as DomainError;
    }
    expect(error?.code).toBe('attendance.rules_invalid');
    expect(Object.keys(error?.fields ?? {})).toEqual(['duplicateWindowSeconds', 'openDayLimitHours']);
  });
});

describe('placing a scan by its monotonic age (docs/adr/0013)', () => {
  const HOUR = 3_600_000;
  const at = (ms: number) => new Date(ms).toISOString();
  const received = Date.parse('2026-11-23T10:00:00.000Z');

  it('counts a scan whose clock was corrected while it waited at receipt minus its age, flagged', () => {
    // queued 10 min before sending with the clock 3 h behind; the clock was right when it was sent
    const queued = { ...scan, deviceTime: at(received - 10 * 60_000 - 3 * HOUR), sentAt: at(received), receivedAt: at(received), ageMs: 10 * 60_000 };
    expect(measureScanTime(queued, 120)).toEqual({ skewMs: 0, clockSkewed: true, at: at(received - 10 * 60_000) });
    expect(scanTimeProblem(queued, 120)).toBeNull();
  });

  it('keeps the device time when the age agrees with it', () => {
    const queued = { ...scan, deviceTime: at(received - 60 * 60_000), sentAt: at(received), receivedAt: at(received), ageMs: 60 * 60_000 + 30_000 };
    expect(measureScanTime(queued, 120)).toEqual({ skewMs: 0, clockSkewed: false, at: at(received - 60 * 60_000) });
  });

  it('flags a device time far in the future like one far in the past, and counts it at receipt when there is no age', () => {
    const ahead = { ...scan, deviceTime: at(received + 3 * HOUR), sentAt: at(received), receivedAt: at(received) };
    expect(measureScanTime(ahead, 120)).toEqual({ skewMs: 0, clockSkewed: true, at: at(received) });
  });

  it('refuses a time before 2000 that no age places (year 1, 1970), and places it when there is one', () => {
    const year1 = { ...scan, deviceTime: '0001-01-01T00:00:00.000Z', sentAt: at(received), receivedAt: at(received) };
    expect(scanTimeProblem(year1, 120)).toMatch(/device_time 0001-01-01T00:00:00.000Z cannot be a scan's time/);
    expect(scanTimeProblem({ ...year1, deviceTime: '1970-01-01T00:00:05.000Z' }, 120)).not.toBeNull();
    expect(scanTimeProblem({ ...year1, ageMs: 5000 }, 120)).toBeNull();
    expect(measureScanTime({ ...year1, ageMs: 5000 }, 120)).toEqual({ skewMs: 0, clockSkewed: true, at: at(received - 5000) });
  });
});
