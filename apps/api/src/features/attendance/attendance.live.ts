import type { SystemPermission, TAttendanceLiveMessage } from '@rollcall/contracts';
import type { AttendanceDayEvent, EnrollmentScanIgnored, ReaderEvent, UnknownCardScanned } from '@rollcall/domain';
import { formatPosition, type StoredEvent } from '../../platform/event-store/event-store.port';
import type { LiveSource } from '../../platform/live/live-feed';
import type { LiveBroadcastSpec } from '../../platform/trpc/live-broadcast';

/** the emitter event that carries one commit's attendance messages together, as an array */
export const ATTENDANCE_BATCH = 'attendance';

/** attendance goes out a commit at a time, as soon as its read model holds it */
export const attendanceLive: LiveSource = {
  projections: new Set(['attendance_slots_v1', 'unknown_cards_v1', 'readers_v1']),
  channel: ATTENDANCE_BATCH,
  delivery: 'commit',
  messages: (projection, events) => attendanceLiveMessages(projection, events),
};

/**
 * `live.attendance` goes out per audience (docs/adr/0024): the consoles that hold attendance:read and
 * readers:manage in the same places see the same messages of a commit, filtered and encoded once.
 */
export const attendanceBroadcast: LiveBroadcastSpec<TAttendanceLiveMessage> = {
  channel: ATTENDANCE_BATCH,
  permission: 'attendance:read',
  messagePermissions: ['attendance:read', 'readers:manage'],
  requirementOf: (message) => attendanceMessageRequirement(message),
};

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
      } else if (event.type === 'ManualSlotRecorded') {
        // a slot added by hand: consoles showing the account's slots refetch, as after a correction; an open one puts the person in
        messages.push({ kind: 'attendance.corrected', account_id: event.data.accountId, slot_id: event.data.slotId, position });
        if (event.data.departedAt === null) messages.push({ kind: 'presence.changed', account_id: event.data.accountId, present: true, at: event.data.arrivedAt, position });
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
      } else if (event.type === 'EnrollmentScanIgnored' && event.data.reason === 'card_taken') {
        // the scan ledger's event reaches every projection's batch: readers_v1 holds the register mode it concerns.
        // The owner is not in the message: who may see it is the viewer's, asked of readers.cardHolder
        const { armedForAccountId, readerId, scan } = event.data;
        if (armedForAccountId) messages.push({ kind: 'scanner.card_taken', account_id: armedForAccountId, reader_id: readerId, card_uid: scan.cardUid, at: scan.at, position });
      }
    }
  }
  return messages;
}

/**
 * What a console must hold to be pushed a message: the permission of the HTTP read that shows the
 * same data (DESIGN section 6: a push is never weaker than the read), and the account it is about,
 * or null when it is about no account (then the permission held anywhere, as the read's route asks).
 * - a scan or presence change of an account, a corrected slot: attendance:read on that account, like
 *   `logs/arrivals-departures` and `account/{id}/attendance` (which show the reader and the door);
 * - an unknown card, and the scan of one: readers:manage, like `GET scanner/unknown-cards` and
 *   `GET readers` (card UIDs, reader ids, doors of every reader);
 * - register mode of an account, and a taken card refused while it was armed for that account:
 *   readers:manage on that account, like `GET readers/{id}` (its register_mode) and
 *   `account/{id}/smartcards` (the card it registered).
 */
export function attendanceMessageRequirement(message: TAttendanceLiveMessage): { permission: SystemPermission; accountId: string | null } {
  switch (message.kind) {
    case 'attendance.scan':
      return message.account_id === null ? { permission: 'readers:manage', accountId: null } : { permission: 'attendance:read', accountId: message.account_id };
    case 'presence.changed':
    case 'attendance.corrected':
      return { permission: 'attendance:read', accountId: message.account_id };
    case 'attendance.unknown_card':
      return { permission: 'readers:manage', accountId: null };
    case 'scanner.register_mode':
    case 'scanner.card_taken':
      return { permission: 'readers:manage', accountId: message.account_id };
  }
}
