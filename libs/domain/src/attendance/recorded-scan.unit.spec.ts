import { describe, expect, it } from 'vitest';
import { type DomainError } from '../shared';
import { assertValidAttendanceRules, DEFAULT_ATTENDANCE_RULES } from './attendance-rules';
import { measureScanTime, recordScan, type ReaderScan } from './recorded-scan';

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
