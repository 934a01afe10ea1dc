import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { type DomainError } from '../shared';
import { attendanceDayDecider, type AttendanceDayEvent, type CorrectAttendanceSlot } from './attendance-day';
import { DEFAULT_ATTENDANCE_RULES } from './attendance-rules';
import type { ReaderScan } from './recorded-scan';

const alice = 'alice';
const timeZone = 'Europe/Berlin';
const day = givenFor(attendanceDayDecider);

const scan = (at: string): ReaderScan => ({ scanId: `scan-${at}`, readerId: 'reader-front', sequence: 1, door: 'Front', cardUid: '04A1B2C3', deviceTime: at, sentAt: at, receivedAt: at });
const arrival = (s: ReaderScan): AttendanceDayEvent => ({ type: 'ArrivalRecorded', data: { accountId: alice, day: '2026-11-23', slotId: s.scanId, scan: { ...s, skewMs: 0, at: s.deviceTime, flags: [] } } });
const departure = (s: ReaderScan, opened: ReaderScan): AttendanceDayEvent => ({
  type: 'DepartureRecorded',
  data: { accountId: alice, day: '2026-11-23', slotId: opened.scanId, scan: { ...s, skewMs: 0, at: s.deviceTime, flags: [] } },
});

// 08:00 to 17:00 local (Berlin, UTC+1), and 18:00 to 19:00
const morning = scan('2026-11-23T07:00:00.000Z');
const evening = scan('2026-11-23T16:00:00.000Z');
const overtime = scan('2026-11-23T17:00:00.000Z');
const overtimeEnd = scan('2026-11-23T18:00:00.000Z');
const workday = [arrival(morning), departure(evening, morning)];
const correctedAt = '2026-11-24T09:00:00.000Z';

const correct = (changes: Partial<CorrectAttendanceSlot['data']> = {}): CorrectAttendanceSlot => ({
  type: 'CorrectAttendanceSlot',
  data: { accountId: alice, slotId: morning.scanId, arrivedAt: '2026-11-23T06:30:00.000Z', departedAt: '2026-11-23T16:30:00.000Z', reason: ' Badge left at home ', correctedBy: 'admin', timeZone, at: correctedAt, ...changes },
});

describe('correcting an arrival/departure slot', () => {
  it('records the new times with actor and reason, and what the slot said before', () =>
    day(workday)
      .when(correct())
      .then([
        {
          type: 'AttendanceSlotCorrected',
          data: {
            accountId: alice,
            day: '2026-11-23',
            slotId: morning.scanId,
            arrivedAt: '2026-11-23T06:30:00.000Z',
            departedAt: '2026-11-23T16:30:00.000Z',
            previous: { arrivedAt: morning.deviceTime, departedAt: evening.deviceTime },
            reason: 'Badge left at home',
            correctedBy: 'admin',
            correctedAt,
          },
        },
      ]));

  it('accepts times with an offset and stores them in UTC', () =>
    day(workday)
      .when(correct({ arrivedAt: '2026-11-23T07:30:00+01:00', departedAt: '2026-11-23T17:30:00+01:00' }))
      .then([expect.objectContaining({ data: expect.objectContaining({ arrivedAt: '2026-11-23T06:30:00.000Z', departedAt: '2026-11-23T16:30:00.000Z' }) }) as AttendanceDayEvent]));

  it('records nothing when the times do not change', () => day(workday).when(correct({ arrivedAt: '2026-11-23T08:00:00+01:00', departedAt: evening.deviceTime })).then([]));

  it('needs a reason', () => day(workday).when(correct({ reason: '   ' })).thenThrows('attendance.correction_invalid', 'reason'));

  it('keeps the arrival on the slot\'s day (in its time zone) and in the past', () => {
    day(workday).when(correct({ arrivedAt: '2026-11-22T22:30:00.000Z' })).thenThrows('attendance.correction_invalid', 'arrived_at');
    day(workday).when(correct({ at: '2026-11-23T06:00:00.000Z' })).thenThrows('attendance.correction_invalid', 'arrived_at');
  });

  it('wants the departure after the arrival, within 24 hours, and not in the future', () => {
    day(workday).when(correct({ departedAt: '2026-11-23T06:30:00.000Z' })).thenThrows('attendance.correction_invalid', 'departed_at');
    day(workday).when(correct({ departedAt: '2026-11-24T06:30:01.000Z' })).thenThrows('attendance.correction_invalid', 'departed_at');
    day(workday).when(correct({ departedAt: '2026-11-24T06:30:00.000Z', at: '2026-11-24T06:00:00.000Z' })).thenThrows('attendance.correction_invalid', 'departed_at');
  });

  it('corrects a departure but never removes one; an open slot may stay open', () => {
    day(workday).when(correct({ departedAt: null })).thenThrows('attendance.correction_invalid', 'departed_at');
    day([arrival(morning)]).when(correct({ departedAt: null })).then([expect.objectContaining({ type: 'AttendanceSlotCorrected' }) as AttendanceDayEvent]);
  });

  it('refuses a slot that would overlap another', () => {
    const twoSlots = [...workday, arrival(overtime), departure(overtimeEnd, overtime)];
    day(twoSlots).when(correct({ departedAt: '2026-11-23T17:30:00.000Z' })).thenThrows('attendance.correction_invalid', 'arrived_at');
    day(twoSlots).when(correct({ departedAt: '2026-11-23T17:00:00.000Z' })).then([expect.objectContaining({ type: 'AttendanceSlotCorrected' }) as AttendanceDayEvent]);
  });

  it('answers every broken field at once', () => {
    let error: DomainError | null = null;
    try {
      attendanceDayDecider.decide(correct({ reason: '', departedAt: '2026-11-23T05:00:00.000Z' }), workday.reduce(attendanceDayDecider.evolve, attendanceDayDecider.initialState()));
    } catch (thrown) {
      error = thrown as DomainError;
    }
    expect(error?.fields).toEqual({ reason: ['Say why the slot is corrected'], departed_at: ['The departure must be after the arrival'] });
  });

  it('refuses a slot that does not exist', () => day(workday).when(correct({ slotId: 'nope' })).thenThrows('attendance.slot_not_found'));

  it('counts the next scan on the corrected slot: an open slot closed by a correction makes the next scan an arrival', () => {
    const closed: AttendanceDayEvent = {
      type: 'AttendanceSlotCorrected',
      data: { accountId: alice, day: '2026-11-23', slotId: morning.scanId, arrivedAt: morning.deviceTime, departedAt: evening.deviceTime, previous: { arrivedAt: morning.deviceTime, departedAt: null }, reason: 'forgot', correctedBy: 'admin', correctedAt },
    };
    const next = scan('2026-11-23T17:00:00.000Z');
    day([arrival(morning), closed])
      .when({ type: 'RecordDoorScan', data: { accountId: alice, timeZone, scan: next, rules: DEFAULT_ATTENDANCE_RULES } })
      .then([{ type: 'ArrivalRecorded', data: { accountId: alice, day: '2026-11-23', slotId: next.scanId, scan: { ...next, skewMs: 0, at: next.deviceTime, flags: [] } } }]);
  });
});
