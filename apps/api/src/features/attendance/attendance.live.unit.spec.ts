import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { attendanceLiveMessages, attendanceMessageRequirement } from './attendance.live';

const scan = { scanId: 's1', readerId: 'r1', sequence: 7, door: 'Main entrance', cardUid: '04A1B2C3', deviceTime: 't', sentAt: 't', receivedAt: 't', skewMs: 0, at: '2026-11-23T07:00:00.000Z', flags: ['two_doors'] };
let sequence = 0;
const stored = (type: string, data: unknown): StoredEvent =>
  ({ streamId: 'x', streamVersion: 0, position: { commit: 5, sequence: (sequence += 1) }, type, data, metadata: {} as StoredEvent['metadata'], schemaVersion: 1 }) as StoredEvent;

describe('attendance live messages', () => {
  it('tells of an arrival and a departure as scans and as presence', () => {
    const messages = attendanceLiveMessages('attendance_slots_v1', [
      stored('ArrivalRecorded', { accountId: 'a1', day: '2026-11-23', slotId: 'slot', scan }),
      stored('DepartureRecorded', { accountId: 'a1', day: '2026-11-23', slotId: 'slot', scan }),
      stored('UncountedScanRecorded', { accountId: 'a1', day: '2026-11-23', scan, reason: 'duplicate' }),
      stored('OpenDayFlagged', { accountId: 'a1', day: '2026-11-23', slotId: 'slot' }),
    ]);
    expect(messages.map((message) => [message.kind, 'outcome' in message ? message.outcome : 'present' in message ? message.present : null])).toEqual([
      ['attendance.scan', 'arrival'],
      ['presence.changed', true],
      ['attendance.scan', 'departure'],
      ['presence.changed', false],
      ['attendance.scan', 'duplicate'],
    ]);
    expect(messages[0]).toMatchObject({ account_id: 'a1', slot_id: 'slot', reader_id: 'r1', door: 'Main entrance', flags: ['two_doors'], position: expect.stringMatching(/^5\.\d+$/) });
  });

  it('tells of a slot added by hand as a correction (consoles refetch), and of an open one as presence', () => {
    const added = (departedAt: string | null) => stored('ManualSlotRecorded', { accountId: 'a1', day: '2026-11-23', slotId: 'manual', arrivedAt: '2026-11-23T07:00:00.000Z', departedAt, reason: 'forgot', recordedBy: 'admin', recordedAt: 'now' });
    expect(attendanceLiveMessages('attendance_slots_v1', [added('2026-11-23T09:00:00.000Z')]).map((message) => message.kind)).toEqual(['attendance.corrected']);
    expect(attendanceLiveMessages('attendance_slots_v1', [added(null)])).toEqual([
      expect.objectContaining({ kind: 'attendance.corrected', account_id: 'a1', slot_id: 'manual' }),
      expect.objectContaining({ kind: 'presence.changed', account_id: 'a1', present: true, at: '2026-11-23T07:00:00.000Z' }),
    ]);
  });

  it('tells of unknown cards and of register mode starting and ending, and of nothing else', () => {
    expect(attendanceLiveMessages('unknown_cards_v1', [stored('UnknownCardScanned', { readerId: 'r1', scan }), stored('SmartCardRegistered', {})]).map((message) => message.kind)).toEqual([
      'attendance.unknown_card',
      'attendance.scan',
    ]);
    const mode = attendanceLiveMessages('readers_v1', [
      stored('RegisterModeStarted', { readerId: 'r2', accountId: 'a2', startedBy: 'admin', expiresAt: 'later', startedAt: 'now' }),
      stored('RegisterModeEnded', { readerId: 'r2', accountId: 'a2', reason: 'card_registered', cardUid: '04A1B2C3', endedAt: 'now' }),
      stored('ScansAcknowledged', { readerId: 'r2', sequences: [1], acknowledged: [[1, 1]], at: 'now' }),
    ]);
    expect(mode).toEqual([
      expect.objectContaining({ kind: 'scanner.register_mode', state: 'started', account_id: 'a2', expires_at: 'later', reason: null }),
      expect.objectContaining({ kind: 'scanner.register_mode', state: 'ended', account_id: 'a2', reason: 'card_registered', card_uid: '04A1B2C3' }),
    ]);
    expect(attendanceLiveMessages('accounts_v2', [stored('ArrivalRecorded', { accountId: 'a1', day: 'd', slotId: 's', scan })])).toEqual([]);
  });

  it('asks for each kind the permission of its HTTP read: unknown cards and register mode readers:manage', () => {
    const at = 'now';
    const position = '1.1';
    expect(attendanceMessageRequirement({ kind: 'attendance.scan', outcome: 'arrival', account_id: 'a1', slot_id: 's', reader_id: 'r1', door: 'd', at, flags: [], position })).toEqual({ permission: 'attendance:read', accountId: 'a1' });
    expect(attendanceMessageRequirement({ kind: 'attendance.scan', outcome: 'unknown_card', account_id: null, slot_id: null, reader_id: 'r1', door: 'd', at, flags: [], position })).toEqual({ permission: 'readers:manage', accountId: null });
    expect(attendanceMessageRequirement({ kind: 'attendance.unknown_card', card_uid: '04A1B2C3', reader_id: 'r1', door: 'd', at, position })).toEqual({ permission: 'readers:manage', accountId: null });
    expect(attendanceMessageRequirement({ kind: 'scanner.register_mode', state: 'started', account_id: 'a2', reader_id: 'r2', reason: null, card_uid: null, expires_at: null, position })).toEqual({ permission: 'readers:manage', accountId: 'a2' });
    expect(attendanceMessageRequirement({ kind: 'presence.changed', account_id: 'a1', present: true, at, position })).toEqual({ permission: 'attendance:read', accountId: 'a1' });
    expect(attendanceMessageRequirement({ kind: 'attendance.corrected', account_id: 'a1', slot_id: 's', position })).toEqual({ permission: 'attendance:read', accountId: 'a1' });
  });
});
