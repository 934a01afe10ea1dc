import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { type DomainError } from '../shared';
import { attendanceDayDecider, type AttendanceDayEvent, type RecordManualSlot } from './attendance-day';
import { DEFAULT_ATTENDANCE_RULES } from './attendance-rules';
import { manualSlotDay } from './record-manual-slot';
import type { ReaderScan } from './recorded-scan';
import { instantOfLocal } from './time-zone';

const alice = 'alice';
const timeZone = 'Europe/Berlin';
const days = givenFor(attendanceDayDecider);

const scan = (at: string): ReaderScan => ({ scanId: `scan-${at}`, readerId: 'reader-front', sequence: 1, door: 'Front', cardUid: '04A1B2C3', deviceTime: at, sentAt: at, receivedAt: at });
const arrival = (s: ReaderScan, day = '2026-11-23'): AttendanceDayEvent => ({ type: 'ArrivalRecorded', data: { accountId: alice, day, slotId: s.scanId, scan: { ...s, skewMs: 0, at: s.deviceTime, flags: [] } } });
const departure = (s: ReaderScan, opened: ReaderScan, day = '2026-11-23'): AttendanceDayEvent => ({
  type: 'DepartureRecorded',
  data: { accountId: alice, day, slotId: opened.scanId, scan: { ...s, skewMs: 0, at: s.deviceTime, flags: [] } },
});

// a scanned afternoon on 23 Nov, 13:00 to 17:00 in Berlin (UTC+1)
const afternoon = scan('2026-11-23T12:00:00.000Z');
const afternoonEnd = scan('2026-11-23T16:00:00.000Z');
const scannedAfternoon = [arrival(afternoon), departure(afternoonEnd, afternoon)];
const at = '2026-11-24T09:00:00.000Z';

const record = (changes: Partial<RecordManualSlot['data']> = {}): RecordManualSlot => ({
  type: 'RecordManualSlot',
  data: { accountId: alice, slotId: 'manual-1', arrivedAt: '2026-11-23T08:00', departedAt: '2026-11-23T12:30', reason: ' Reader at the side door was down ', recordedBy: 'admin', timeZone, at, ...changes },
});

describe('adding a slot by hand', () => {
  it('records the slot in the account\'s zone, with its reason and the administrator', () =>
    days(scannedAfternoon)
      .when(record())
      .then([
        {
          type: 'ManualSlotRecorded',
          data: {
            accountId: alice,
            day: '2026-11-23',
            slotId: 'manual-1',
            arrivedAt: '2026-11-23T07:00:00.000Z',
            departedAt: '2026-11-23T11:30:00.000Z',
            reason: 'Reader at the side door was down',
            recordedBy: 'admin',
            recordedAt: at,
          },
        },
      ]));

  it('draws the day in the account\'s zone: 00:30 in Tokyo is the day before in UTC', () => {
    expect(manualSlotDay('2026-11-23T00:30', 'Asia/Tokyo')).toBe('2026-11-23');
    days([])
      .when(record({ timeZone: 'Asia/Tokyo', arrivedAt: '2026-11-23T00:30', departedAt: '2026-11-23T06:00' }))
      .then([expect.objectContaining({ data: expect.objectContaining({ day: '2026-11-23', arrivedAt: '2026-11-22T15:30:00.000Z' }) }) as AttendanceDayEvent]);
  });

  it('takes instants with an offset as they are', () =>
    days([])
      .when(record({ arrivedAt: '2026-11-23T07:00:00Z', departedAt: '2026-11-23T09:00:00+01:00' }))
      .then([expect.objectContaining({ data: expect.objectContaining({ arrivedAt: '2026-11-23T07:00:00.000Z', departedAt: '2026-11-23T08:00:00.000Z' }) }) as AttendanceDayEvent]));

  it('records an arrival still open', () =>
    days([])
      .when(record({ departedAt: null }))
      .then([expect.objectContaining({ data: expect.objectContaining({ arrivedAt: '2026-11-23T07:00:00.000Z', departedAt: null }) }) as AttendanceDayEvent]));

  it('needs a reason', () => days([]).when(record({ reason: '  ' })).thenThrows('attendance.manual_slot_invalid', 'reason'));

  it('refuses the future', () => {
    days([]).when(record({ arrivedAt: '2026-11-24T11:00', departedAt: null })).thenThrows('attendance.manual_slot_invalid', 'arrived_at');
    days([]).when(record({ arrivedAt: '2026-11-24T09:00', departedAt: '2026-11-24T10:30' })).thenThrows('attendance.manual_slot_invalid', 'departed_at');
  });

  it('wants the departure after the arrival and within 24 hours', () => {
    days([]).when(record({ departedAt: '2026-11-23T07:59' })).thenThrows('attendance.manual_slot_invalid', 'departed_at');
    days([]).when(record({ departedAt: '2026-11-24T08:01' })).thenThrows('attendance.manual_slot_invalid', 'departed_at');
  });

  it('refuses a local time daylight saving skipped', () =>
    days([]).when(record({ arrivedAt: '2026-03-29T02:30', departedAt: '2026-03-29T06:00' })).thenThrows('attendance.manual_slot_invalid', 'arrived_at'));

  it('refuses an overlap with a scanned slot, naming it under the field', () => {
    days(scannedAfternoon).when(record({ departedAt: '2026-11-23T13:30' })).thenThrows('attendance.manual_slot_invalid', 'arrived_at');
    days(scannedAfternoon).when(record({ arrivedAt: '2026-11-23T16:00', departedAt: '2026-11-23T18:00' })).thenThrows('attendance.manual_slot_invalid', 'arrived_at');
    // an open arrival before the scanned slot would swallow it
    days(scannedAfternoon).when(record({ departedAt: null })).thenThrows('attendance.manual_slot_invalid', 'departed_at');
    // touching ends are no overlap
    days(scannedAfternoon).when(record({ departedAt: '2026-11-23T13:00' })).then([expect.objectContaining({ type: 'ManualSlotRecorded' }) as AttendanceDayEvent]);
  });

  it('refuses an overlap with a night shift of the day before, and with a slot still open', () => {
    const night = scan('2026-11-22T21:00:00.000Z');
    const morningAfter = scan('2026-11-23T07:30:00.000Z');
    days([arrival(night, '2026-11-22'), departure(morningAfter, night, '2026-11-22')]).when(record()).thenThrows('attendance.manual_slot_invalid', 'arrived_at');
    days([arrival(afternoon)]).when(record({ arrivedAt: '2026-11-23T18:00', departedAt: '2026-11-23T19:00' })).thenThrows('attendance.manual_slot_invalid', 'arrived_at');
  });

  it('answers every broken field at once', () => {
    let error: DomainError | null = null;
    try {
      attendanceDayDecider.decide(record({ reason: '', departedAt: '2026-11-23T07:00' }), attendanceDayDecider.initialState());
    } catch (thrown) {
      error = thrown as DomainError;
    }
    expect(error?.fields).toEqual({ reason: ['Say why the slot is added by hand'], departed_at: ['The departure must be after the arrival'] });
  });

  it('is a slot like any other afterwards: the next scan closes an open one, a correction changes it', () => {
    const opened: AttendanceDayEvent = {
      type: 'ManualSlotRecorded',
      data: { accountId: alice, day: '2026-11-23', slotId: 'manual-1', arrivedAt: '2026-11-23T07:00:00.000Z', departedAt: null, reason: 'forgot', recordedBy: 'admin', recordedAt: at },
    };
    const leaving = scan('2026-11-23T16:00:00.000Z');
    days([opened])
      .when({ type: 'RecordDoorScan', data: { accountId: alice, timeZone, scan: leaving, rules: DEFAULT_ATTENDANCE_RULES } })
      .then([{ type: 'DepartureRecorded', data: { accountId: alice, day: '2026-11-23', slotId: 'manual-1', scan: { ...leaving, skewMs: 0, at: leaving.deviceTime, flags: [] } } }]);
    days([opened])
      .when({ type: 'CorrectAttendanceSlot', data: { accountId: alice, slotId: 'manual-1', arrivedAt: '2026-11-23T07:30:00.000Z', departedAt: null, reason: 'later', correctedBy: 'admin', timeZone, at } })
      .then([expect.objectContaining({ type: 'AttendanceSlotCorrected' }) as AttendanceDayEvent]);
  });
});

describe('a local time in a zone', () => {
  it('is the first of two occurrences on an autumn night, and null where it was skipped', () => {
    expect(instantOfLocal('2026-10-25T02:30', timeZone)).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOfLocal('2026-03-29T02:30', timeZone)).toBeNull();
    expect(instantOfLocal('2026-11-23T08:00:15', timeZone)).toBe('2026-11-23T07:00:15.000Z');
    expect(instantOfLocal('2026-02-30T08:00', timeZone)).toBeNull();
    expect(instantOfLocal('08:00', timeZone)).toBeNull();
  });
});
