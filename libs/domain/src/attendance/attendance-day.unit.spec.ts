import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold } from '../shared';
import {
  attendanceDayDecider,
  attendanceDaysOfScan,
  attendanceDayStream,
  decideDoorScansInOrder,
  type AttendanceDayEvent,
  type RecordDoorScan,
} from './attendance-day';
import { DEFAULT_ATTENDANCE_RULES, type AttendanceRules } from './attendance-rules';
import type { ReaderScan, RecordedScan, ScanFlag } from './recorded-scan';

const alice = 'alice';
// Berlin is UTC+1 in November: 07:00Z is 08:00 local
const timeZone = 'Europe/Berlin';
const day = givenFor(attendanceDayDecider);

/** a scan whose device clock is exact and which was sent at once */
const scan = (at: string, changes: Partial<ReaderScan> = {}): ReaderScan => ({
  scanId: `scan-${at}`,
  readerId: 'reader-front',
  sequence: 1,
  door: 'Front',
  cardUid: '04A1B2C3',
  deviceTime: at,
  sentAt: at,
  receivedAt: at,
  ...changes,
});
const recorded = (s: ReaderScan, flags: ScanFlag[] = [], changes: Partial<RecordedScan> = {}): RecordedScan => ({ ...s, skewMs: 0, at: s.deviceTime, flags, ...changes });
const record = (s: ReaderScan, rules: AttendanceRules = DEFAULT_ATTENDANCE_RULES): RecordDoorScan => ({ type: 'RecordDoorScan', data: { accountId: alice, timeZone, scan: s, rules } });

const arrival = (s: ReaderScan, onDay: string, flags: ScanFlag[] = []): AttendanceDayEvent => ({ type: 'ArrivalRecorded', data: { accountId: alice, day: onDay, slotId: s.scanId, scan: recorded(s, flags) } });
const departure = (s: ReaderScan, opened: ReaderScan, onDay: string, flags: ScanFlag[] = []): AttendanceDayEvent => ({
  type: 'DepartureRecorded',
  data: { accountId: alice, day: onDay, slotId: opened.scanId, scan: recorded(s, flags) },
});
const uncounted = (s: ReaderScan, onDay: string, reason: 'duplicate' | 'out_of_order', flags: ScanFlag[] = []): AttendanceDayEvent => ({
  type: 'UncountedScanRecorded',
  data: { accountId: alice, day: onDay, scan: recorded(s, flags), reason },
});
const openDayFlagged = (opened: ReaderScan, onDay: string, flaggedAt: string): AttendanceDayEvent => ({
  type: 'OpenDayFlagged',
  data: { accountId: alice, day: onDay, slotId: opened.scanId, arrivedAt: opened.deviceTime, openDayLimitHours: 16, flaggedAt },
});

const morning = scan('2026-11-23T07:00:00.000Z');
const evening = scan('2026-11-23T16:00:00.000Z');

describe('a known card at a door', () => {
  it('arrives first, in the local day of the time zone given (00:30 in Berlin is still 23:30 UTC the day before)', () => {
    const justAfterMidnight = scan('2026-11-22T23:30:00.000Z');
    day([]).when(record(justAfterMidnight)).then([arrival(justAfterMidnight, '2026-11-23')]);
  });

  it('toggles: arrival, departure, arrival; a new arrival opens a new slot named after its scan', () => {
    const back = scan('2026-11-23T12:00:00.000Z');
    day([arrival(morning, '2026-11-23')]).when(record(scan('2026-11-23T11:00:00.000Z'))).then([departure(scan('2026-11-23T11:00:00.000Z'), morning, '2026-11-23')]);
    day([arrival(morning, '2026-11-23'), departure(scan('2026-11-23T11:00:00.000Z'), morning, '2026-11-23')]).when(record(back)).then([arrival(back, '2026-11-23')]);
  });

  it('closes last night\'s slot with a departure in the slot\'s own day (a night shift)', () => {
    const lateEvening = scan('2026-11-22T21:00:00.000Z'); // 22:00 local on the 22nd
    const nextMorning = scan('2026-11-23T05:00:00.000Z'); // 06:00 local on the 23rd
    day([arrival(lateEvening, '2026-11-22')]).when(record(nextMorning)).then([departure(nextMorning, lateEvening, '2026-11-22')]);
  });
});

describe('the duplicate window', () => {
  const soon = scan('2026-11-23T07:00:59.000Z');
  const minuteLater = scan('2026-11-23T07:01:00.000Z');

  it('keeps a repeat within 60 s as a raw scan that counts nothing', () => day([arrival(morning, '2026-11-23')]).when(record(soon)).then([uncounted(soon, '2026-11-23', 'duplicate')]));

  it('counts a scan exactly 60 s later', () => day([arrival(morning, '2026-11-23')]).when(record(minuteLater)).then([departure(minuteLater, morning, '2026-11-23')]));

  it('measures from the previous scan of any kind, so a card held against the reader stays one scan', () => {
    const held = [arrival(morning, '2026-11-23'), uncounted(scan('2026-11-23T07:00:40.000Z'), '2026-11-23', 'duplicate'), uncounted(scan('2026-11-23T07:01:20.000Z'), '2026-11-23', 'duplicate')];
    const stillHeld = scan('2026-11-23T07:02:00.000Z');
    day(held).when(record(stillHeld)).then([uncounted(stillHeld, '2026-11-23', 'duplicate')]);
  });

  it('is configurable', () => {
    const thirtySeconds = scan('2026-11-23T07:00:30.000Z');
    day([arrival(morning, '2026-11-23')])
      .when(record(thirtySeconds, { ...DEFAULT_ATTENDANCE_RULES, duplicateWindowSeconds: 10 }))
      .then([departure(thirtySeconds, morning, '2026-11-23')]);
  });

  it('sees across midnight', () => {
    const beforeMidnight = scan('2026-11-22T22:59:50.000Z');
    const afterMidnight = scan('2026-11-22T23:00:10.000Z');
    day([arrival(beforeMidnight, '2026-11-22')]).when(record(afterMidnight)).then([uncounted(afterMidnight, '2026-11-23', 'duplicate')]);
  });
});

describe('clocks', () => {
  it('keeps device time, send time, server time and skew; a device 10 minutes slow is flagged and its time corrected', () => {
    const slow = scan('2026-11-23T07:00:00.000Z', { deviceTime: '2026-11-23T06:50:00.000Z', sentAt: '2026-11-23T06:50:00.000Z' });
    day([])
      .when(record(slow))
      .then([{ type: 'ArrivalRecorded', data: { accountId: alice, day: '2026-11-23', slotId: slow.scanId, scan: recorded(slow, ['clock_skew'], { skewMs: 600_000, at: '2026-11-23T07:00:00.000Z' }) } }]);
  });

  it('trusts a device clock within the limit (30 s of network and queueing is not skew)', () => {
    const close = scan('2026-11-23T07:00:00.000Z', { receivedAt: '2026-11-23T07:00:30.000Z' });
    day([]).when(record(close)).then([{ type: 'ArrivalRecorded', data: { accountId: alice, day: '2026-11-23', slotId: close.scanId, scan: recorded(close, [], { skewMs: 30_000 }) } }]);
  });

  it('counts a scan delivered hours late from the queue at the time it was made: skew is measured on the request', () => {
    const queued = scan('2026-11-23T07:00:00.000Z', { sentAt: '2026-11-23T10:00:00.000Z', receivedAt: '2026-11-23T10:00:00.000Z' });
    day([]).when(record(queued)).then([arrival(queued, '2026-11-23')]);
  });

  it('uses the corrected time for the day: a device clock a day behind does not file the scan yesterday', () => {
    const dayBehind = scan('2026-11-23T07:00:00.000Z', { deviceTime: '2026-11-22T07:00:00.000Z', sentAt: '2026-11-22T07:00:00.000Z' });
    expect(attendanceDaysOfScan(dayBehind, timeZone, DEFAULT_ATTENDANCE_RULES)).toEqual(['2026-11-22', '2026-11-23']);
    const [event] = attendanceDayDecider.decide(record(dayBehind), attendanceDayDecider.initialState());
    expect(event).toMatchObject({ type: 'ArrivalRecorded', data: { day: '2026-11-23', scan: { at: '2026-11-23T07:00:00.000Z', flags: ['clock_skew'], skewMs: 86_400_000 } } });
  });
});

describe('two doors', () => {
  it('flags the same card at another door within 5 minutes, and still toggles', () => {
    const back = scan('2026-11-23T07:02:00.000Z', { door: 'Back', readerId: 'reader-back' });
    day([arrival(morning, '2026-11-23')]).when(record(back)).then([departure(back, morning, '2026-11-23', ['two_doors'])]);
  });

  it('flags a repeat at another door within the duplicate window, and counts nothing', () => {
    const back = scan('2026-11-23T07:00:30.000Z', { door: 'Back', readerId: 'reader-back' });
    day([arrival(morning, '2026-11-23')]).when(record(back)).then([uncounted(back, '2026-11-23', 'duplicate', ['two_doors'])]);
  });

  it('does not flag two readers of one door (names compared without case and spaces), nor another door later', () => {
    const twin = scan('2026-11-23T07:02:00.000Z', { door: ' front ', readerId: 'reader-front-2' });
    day([arrival(morning, '2026-11-23')]).when(record(twin)).then([departure(twin, morning, '2026-11-23')]);
    const later = scan('2026-11-23T07:10:00.000Z', { door: 'Back' });
    day([arrival(morning, '2026-11-23')]).when(record(later)).then([departure(later, morning, '2026-11-23')]);
  });
});

describe('scans out of order', () => {
  it('keeps a scan older than the day\'s latest arrival or departure without toggling', () => {
    const noon = scan('2026-11-23T11:00:00.000Z');
    day([arrival(morning, '2026-11-23'), departure(evening, morning, '2026-11-23')]).when(record(noon)).then([uncounted(noon, '2026-11-23', 'out_of_order')]);
  });

  it('judges by corrected times too', () => {
    const corrected: AttendanceDayEvent = {
      type: 'AttendanceSlotCorrected',
      data: { accountId: alice, day: '2026-11-23', slotId: morning.scanId, arrivedAt: morning.deviceTime, departedAt: '2026-11-23T15:00:00.000Z', previous: { arrivedAt: morning.deviceTime, departedAt: null }, reason: 'forgot', correctedBy: 'admin', correctedAt: '2026-11-23T15:30:00.000Z' },
    };
    const afternoon = scan('2026-11-23T14:00:00.000Z');
    day([arrival(morning, '2026-11-23'), corrected]).when(record(afternoon)).then([uncounted(afternoon, '2026-11-23', 'out_of_order')]);
  });
});

describe('open days', () => {
  const early = scan('2026-11-23T05:00:00.000Z'); // 06:00 local

  it('a scan 16 h or more after an open arrival flags that day and arrives anew', () => {
    const sixteenHours = scan('2026-11-23T21:00:00.000Z');
    day([arrival(early, '2026-11-23')]).when(record(sixteenHours)).then([openDayFlagged(early, '2026-11-23', sixteenHours.receivedAt), arrival(sixteenHours, '2026-11-23')]);
  });

  it('a scan just under 16 h is still the departure', () => {
    const almost = scan('2026-11-23T20:59:00.000Z');
    day([arrival(early, '2026-11-23')]).when(record(almost)).then([departure(almost, early, '2026-11-23')]);
  });

  it('flags a day once', () => {
    const sixteenHours = scan('2026-11-23T21:00:00.000Z');
    day([arrival(early, '2026-11-23'), openDayFlagged(early, '2026-11-23', '2026-11-23T21:00:00.000Z')]).when(record(sixteenHours)).then([arrival(sixteenHours, '2026-11-23')]);
  });

  it('the sweeper flags open slots at the limit, once, and leaves closed ones alone', () => {
    const sweep = (now: string) => ({ type: 'FlagOpenDays' as const, data: { accountId: alice, now, openDayLimitHours: 16 } });
    day([arrival(early, '2026-11-23')]).when(sweep('2026-11-23T21:00:00.000Z')).then([openDayFlagged(early, '2026-11-23', '2026-11-23T21:00:00.000Z')]);
    day([arrival(early, '2026-11-23')]).when(sweep('2026-11-23T20:59:59.000Z')).then([]);
    day([arrival(early, '2026-11-23'), openDayFlagged(early, '2026-11-23', '2026-11-23T21:00:00.000Z')]).when(sweep('2026-11-24T05:00:00.000Z')).then([]);
    day([arrival(early, '2026-11-23'), departure(evening, early, '2026-11-23')]).when(sweep('2026-11-24T05:00:00.000Z')).then([]);
  });
});

describe('streams and batches', () => {
  it('names one stream per account and day', () => expect(attendanceDayStream('alice', '2026-11-23')).toBe('attendance-alice-2026-11-23'));

  it('folds the two days in any order to the same state (streams are read one after the other)', () => {
    const lateEvening = scan('2026-11-22T21:00:00.000Z');
    const events = [arrival(lateEvening, '2026-11-22'), arrival(morning, '2026-11-23')];
    expect(fold(attendanceDayDecider, [...events].reverse())).toEqual(fold(attendanceDayDecider, events));
  });

  it('decides the scans of one batch in order, each on what the previous left', () => {
    const out = scan('2026-11-23T11:00:00.000Z');
    const repeat = scan('2026-11-23T11:00:20.000Z');
    expect(decideDoorScansInOrder(attendanceDayDecider.initialState(), [record(morning), record(out), record(repeat)])).toEqual([
      [arrival(morning, '2026-11-23')],
      [departure(out, morning, '2026-11-23')],
      [uncounted(repeat, '2026-11-23', 'duplicate')],
    ]);
  });

  it('decides a batch that crosses midnight on one state: the second day\'s scan closes the first day\'s slot', () => {
    const beforeMidnight = scan('2026-11-23T22:50:00.000Z'); // 23:50 local on the 23rd
    const afterMidnight = scan('2026-11-23T23:20:00.000Z'); // 00:20 local on the 24th
    expect(decideDoorScansInOrder(attendanceDayDecider.initialState(), [record(beforeMidnight), record(afterMidnight)])).toEqual([
      [arrival(beforeMidnight, '2026-11-23')],
      [departure(afterMidnight, beforeMidnight, '2026-11-23')],
    ]);
  });
});
