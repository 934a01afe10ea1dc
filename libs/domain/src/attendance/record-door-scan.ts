import type { AttendanceDayEvent, AttendanceDayState, AttendanceSlot, FlagOpenDays, RecordDoorScan } from './attendance-day';
import { recordScan, type RecordedScan } from './recorded-scan';
import { instantMs, localDateOf } from './time-zone';

const HOUR_MS = 3_600_000;

const sameDoor = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** the latest time any slot of the loaded days mentions, corrections included */
function latestSlotTime(state: AttendanceDayState): number {
  let latest = -Infinity;
  for (const slot of state.slots) latest = Math.max(latest, instantMs(slot.arrivedAt), slot.departedAt ? instantMs(slot.departedAt) : -Infinity);
  return latest;
}

const latestOpenSlot = (state: AttendanceDayState): AttendanceSlot | undefined => state.slots.filter((slot) => slot.departedAt === null).at(-1);

const openDayFlag = (accountId: string, slot: AttendanceSlot, openDayLimitHours: number, flaggedAt: string): AttendanceDayEvent => ({
  type: 'OpenDayFlagged',
  data: { accountId, day: slot.day, slotId: slot.slotId, arrivedAt: slot.arrivedAt, openDayLimitHours, flaggedAt },
});

/**
 * A known card at a door toggles its account's day. In this order:
 * 1. within the duplicate window of the card's previous scan (of any kind, so a card held against
 *    the reader stays one scan however long it is held): kept, counts nothing;
 * 2. older than the latest arrival or departure: kept, counts nothing (see UncountedScanRecorded);
 * 3. an open slot younger than the open-day limit: its departure, in the slot's own day;
 * 4. otherwise an arrival in the scan's local day; an older open slot is flagged on the way.
 * The clock-skew and two-doors flags ride on whichever event the scan becomes.
 */
export function decideDoorScan(state: AttendanceDayState, { accountId, timeZone, scan, rules }: RecordDoorScan['data']): AttendanceDayEvent[] {
  const measured = recordScan(scan, rules.clockSkewLimitSeconds);
  const at = instantMs(measured.at);
  const day = localDateOf(at, timeZone);
  const last = state.lastScan;
  const sinceLast = last ? Math.abs(at - instantMs(last.at)) : Infinity;
  const twoDoors = last !== null && !sameDoor(last.door, scan.door) && sinceLast < rules.twoDoorsWindowSeconds * 1000;
  const recorded: RecordedScan = twoDoors ? { ...measured, flags: [...measured.flags, 'two_doors'] } : measured;

  if (sinceLast < rules.duplicateWindowSeconds * 1000) return [{ type: 'UncountedScanRecorded', data: { accountId, day, scan: recorded, reason: 'duplicate' } }];
  if (at < latestSlotTime(state)) return [{ type: 'UncountedScanRecorded', data: { accountId, day, scan: recorded, reason: 'out_of_order' } }];

  const open = latestOpenSlot(state);
  if (open && at - instantMs(open.arrivedAt) < rules.openDayLimitHours * HOUR_MS) {
    return [{ type: 'DepartureRecorded', data: { accountId, day: open.day, slotId: open.slotId, scan: recorded } }];
  }
  const events: AttendanceDayEvent[] = [];
  if (open && !open.openDayFlagged) events.push(openDayFlag(accountId, open, rules.openDayLimitHours, scan.receivedAt));
  events.push({ type: 'ArrivalRecorded', data: { accountId, day, slotId: scan.scanId, scan: recorded } });
  return events;
}

/** Slots open for at least the limit at `now`, each flagged once; nothing else changes. */
export function decideOpenDayFlags(state: AttendanceDayState, { accountId, now, openDayLimitHours }: FlagOpenDays['data']): AttendanceDayEvent[] {
  const nowMs = instantMs(now);
  return state.slots
    .filter((slot) => slot.departedAt === null && !slot.openDayFlagged && nowMs - instantMs(slot.arrivedAt) >= openDayLimitHours * HOUR_MS)
    .map((slot) => openDayFlag(accountId, slot, openDayLimitHours, now));
}
