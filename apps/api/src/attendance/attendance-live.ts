import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import type { AttendanceDayEvent, EnrollmentScanIgnored, ReaderEvent, UnknownCardScanned } from '@rollcall/domain';
import { formatPosition, type StoredEvent } from '../event-store/event-store.port';

/**
 * The live messages of attendance, from the events a projection has just committed (LiveFeed calls
 * this once the read model holding them is written, so a console that refetches sees the rows).
 */
export function attendanceLiveMessages(projection: string, events: readonly StoredEvent[]): TAttendanceLiveMessage[] {
  const messages: TAttendanceLiveMessage[] = [];
  for (const stored of events) {
    const position = formatPosition(stored.position);
    if (projection === 'attendance_slots_v1') {
      const event = { type: stored.type, data: stored.data } as AttendanceDayEvent;
      if (event.type === 'ArrivalRecorded' || event.type === 'DepartureRecorded' || event.type === 'UncountedScanRecorded') {
        const { scan, accountId } = event.data;
        const outcome = event.type === 'ArrivalRecorded' ? 'arrival' : event.type === 'DepartureRecorded' ? 'departure' : event.data.reason;
        const slotId = event.type === 'UncountedScanRecorded' ? null : event.data.slotId;
        messages.push({ kind: 'attendance.scan', outcome, account_id: accountId, slot_id: slotId, reader_id: scan.readerId, door: scan.door, at: scan.at, flags: scan.flags, position });
        if (event.type !== 'UncountedScanRecorded') messages.push({ kind: 'presence.changed', account_id: accountId, present: event.type === 'ArrivalRecorded', at: scan.at, position });
      } else if (event.type === 'AttendanceSlotCorrected') {
        messages.push({ kind: 'attendance.corrected', account_id: event.data.accountId, slot_id: event.data.slotId, position });
      }
    } else if (projection === 'unknown_cards_v1' && stored.type === 'UnknownCardScanned') {
      const { readerId, scan } = stored.data as UnknownCardScanned['data'];
      messages.push({ kind: 'attendance.unknown_card', card_uid: scan.cardUid, reader_id: readerId, door: scan.door, at: scan.at, position });
      messages.push({ kind: 'attendance.scan', outcome: 'unknown_card', account_id: null, slot_id: null, reader_id: readerId, door: scan.door, at: scan.at, flags: scan.flags, position });
    } else if (projection === 'readers_v1') {
      const event = { type: stored.type, data: stored.data } as ReaderEvent | EnrollmentScanIgnored;
      if (event.type === 'RegisterModeStarted') {
        const d = event.data;
        messages.push({ kind: 'scanner.register_mode', state: 'started', account_id: d.accountId, reader_id: d.readerId, reason: null, card_uid: null, expires_at: d.expiresAt, position });
      } else if (event.type === 'RegisterModeEnded') {
        const d = event.data;
        messages.push({ kind: 'scanner.register_mode', state: 'ended', account_id: d.accountId, reader_id: d.readerId, reason: d.reason, card_uid: d.cardUid, expires_at: null, position });
      }
    }
  }
  return messages;
}
