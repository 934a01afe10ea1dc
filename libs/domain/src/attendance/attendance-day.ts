import { type Decider, type DomainEvent } from '../shared';
import type { AttendanceRules } from './attendance-rules';
import { decideSlotCorrection } from './correct-attendance-slot';
import { decideManualSlot } from './record-manual-slot';
import { measureScanTime, type ReaderScan, type RecordedScan } from './recorded-scan';
import { decideDoorScan, decideOpenDayFlags } from './record-door-scan';
import { addDays, instantMs, localDateOf } from './time-zone';

/**
 * An account's attendance, one stream per account and local day (`attendance-{accountId}-{day}`,
 * docs/adr/0013). Each scan of the account's card at a door lands as exactly one event in the day
 * it counts for: an arrival, a departure, or a scan kept that counts nothing. A slot is one
 * arrival and its departure; it is named after the scan that opened it and lives in the day of its
 * arrival, also when it ends after midnight.
 *
 * A scan is decided on the events of two days, the day of the scan and the day before (the handler
 * reads both streams; `attendanceDaysOfScan` names them): a night shift's departure closes the slot
 * opened the evening before, and the duplicate window and the two-doors rule see across midnight.
 */

export interface SlotEventData {
  accountId: string;
  /** the slot's day (its arrival's local date): the stream the event belongs to */
  day: string;
  slotId: string;
  scan: RecordedScan;
}

export type ArrivalRecorded = DomainEvent<'ArrivalRecorded', SlotEventData>;
export type DepartureRecorded = DomainEvent<'DepartureRecorded', SlotEventData>;
/**
 * A scan kept as it came that changes nothing: a repeat within the duplicate window, or a scan older
 * than the day's latest arrival or departure (a reader that delivers its queue late: toggling on it
 * would reverse every later slot, so an administrator corrects the day instead).
 */
export type UncountedScanRecorded = DomainEvent<'UncountedScanRecorded', { accountId: string; day: string; scan: RecordedScan; reason: 'duplicate' | 'out_of_order' }>;
/** an arrival with no departure for longer than the limit: shown to administrators, never closed by guessing */
export type OpenDayFlagged = DomainEvent<'OpenDayFlagged', { accountId: string; day: string; slotId: string; arrivedAt: string; openDayLimitHours: number; flaggedAt: string }>;
/** An administrator's correction of a slot; `previous` keeps what it said, so the history shows both. */
export type AttendanceSlotCorrected = DomainEvent<
  'AttendanceSlotCorrected',
  {
    accountId: string;
    day: string;
    slotId: string;
    arrivedAt: string;
    departedAt: string | null;
    previous: { arrivedAt: string; departedAt: string | null };
    reason: string;
    correctedBy: string;
    correctedAt: string;
  }
>;
/**
 * A slot no scan recorded, added by an administrator with a reason (docs/adr/0013, 'Slots added by
 * hand'): an arrival and a departure, or an arrival still open. It is a slot like any other from then
 * on (a scan may close it, a correction may change it), marked as added by hand.
 */
export type ManualSlotRecorded = DomainEvent<
  'ManualSlotRecorded',
  { accountId: string; day: string; slotId: string; arrivedAt: string; departedAt: string | null; reason: string; recordedBy: string; recordedAt: string }
>;
export type AttendanceDayEvent = ArrivalRecorded | DepartureRecorded | UncountedScanRecorded | OpenDayFlagged | AttendanceSlotCorrected | ManualSlotRecorded;
export const ATTENDANCE_DAY_EVENT_TYPES: AttendanceDayEvent['type'][] = ['ArrivalRecorded', 'DepartureRecorded', 'UncountedScanRecorded', 'OpenDayFlagged', 'AttendanceSlotCorrected', 'ManualSlotRecorded'];

/** A known card's scan at a door reader. `timeZone` is the account's (or its organization's): it draws the day. */
export type RecordDoorScan = { type: 'RecordDoorScan'; data: { accountId: string; timeZone: string; scan: ReaderScan; rules: AttendanceRules } };
/** the sweeper: flags the slots open for longer than the limit at `now` */
export type FlagOpenDays = { type: 'FlagOpenDays'; data: { accountId: string; now: string; openDayLimitHours: number } };
/** `PATCH logs/arrivals-departures/edit/{id}`; a null departure is allowed only on a slot still open */
export type CorrectAttendanceSlot = {
  type: 'CorrectAttendanceSlot';
  data: { accountId: string; slotId: string; arrivedAt: string; departedAt: string | null; reason: string; correctedBy: string; timeZone: string; at: string };
};
/**
 * An administrator adds a slot by hand. `arrivedAt` / `departedAt`: local date-times in `timeZone`
 * (the account's, which draws its days) or instants with an offset; the state must hold the
 * arrival's day and the days either side of it (`manualSlotDay`).
 */
export type RecordManualSlot = {
  type: 'RecordManualSlot';
  data: { accountId: string; slotId: string; arrivedAt: string; departedAt: string | null; reason: string; recordedBy: string; timeZone: string; at: string };
};
export type AttendanceDayCommand = RecordDoorScan | FlagOpenDays | CorrectAttendanceSlot | RecordManualSlot;

export interface AttendanceSlot {
  slotId: string;
  day: string;
  arrivedAt: string;
  departedAt: string | null;
  openDayFlagged: boolean;
  corrected: boolean;
  /** added by an administrator, not opened by a scan */
  manual?: boolean;
}

/** What the loaded days say: their slots in arrival order, and the card's latest scan of any kind. */
export interface AttendanceDayState {
  slots: AttendanceSlot[];
  lastScan: { at: string; door: string } | null;
}

/** the later of two scans by time, whatever order the streams were read in */
const later = (current: AttendanceDayState['lastScan'], scan: RecordedScan): AttendanceDayState['lastScan'] =>
  current && instantMs(current.at) >= instantMs(scan.at) ? current : { at: scan.at, door: scan.door };

const updateSlot = (state: AttendanceDayState, slotId: string, change: (slot: AttendanceSlot) => AttendanceSlot): AttendanceSlot[] =>
  state.slots.map((slot) => (slot.slotId === slotId ? change(slot) : slot));

const byArrival = (slots: AttendanceSlot[]) => [...slots].sort((a, b) => instantMs(a.arrivedAt) - instantMs(b.arrivedAt));

export function evolveAttendanceDay(state: AttendanceDayState, event: AttendanceDayEvent): AttendanceDayState {
  switch (event.type) {
    case 'ArrivalRecorded': {
      const { slotId, day, scan } = event.data;
      const slot: AttendanceSlot = { slotId, day, arrivedAt: scan.at, departedAt: null, openDayFlagged: false, corrected: false };
      return { slots: byArrival([...state.slots, slot]), lastScan: later(state.lastScan, scan) };
    }
    case 'DepartureRecorded':
      return { slots: updateSlot(state, event.data.slotId, (slot) => ({ ...slot, departedAt: event.data.scan.at })), lastScan: later(state.lastScan, event.data.scan) };
    case 'UncountedScanRecorded':
      return { ...state, lastScan: later(state.lastScan, event.data.scan) };
    case 'OpenDayFlagged':
      return { ...state, slots: updateSlot(state, event.data.slotId, (slot) => ({ ...slot, openDayFlagged: true })) };
    case 'AttendanceSlotCorrected': {
      const { slotId, arrivedAt, departedAt } = event.data;
      return { ...state, slots: byArrival(updateSlot(state, slotId, (slot) => ({ ...slot, arrivedAt, departedAt, corrected: true }))) };
    }
    case 'ManualSlotRecorded': {
      const { slotId, day, arrivedAt, departedAt } = event.data;
      const slot: AttendanceSlot = { slotId, day, arrivedAt, departedAt, openDayFlagged: false, corrected: false, manual: true };
      return { ...state, slots: byArrival([...state.slots, slot]) };
    }
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export function decideAttendanceDay(command: AttendanceDayCommand, state: AttendanceDayState): AttendanceDayEvent[] {
  switch (command.type) {
    case 'RecordDoorScan':
      return decideDoorScan(state, command.data);
    case 'FlagOpenDays':
      return decideOpenDayFlags(state, command.data);
    case 'CorrectAttendanceSlot':
      return decideSlotCorrection(state, command.data);
    case 'RecordManualSlot':
      return decideManualSlot(state, command.data);
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export const attendanceDayDecider: Decider<AttendanceDayCommand, AttendanceDayEvent, AttendanceDayState> = {
  initialState: () => ({ slots: [], lastScan: null }),
  evolve: evolveAttendanceDay,
  decide: decideAttendanceDay,
};

/**
 * The state of several day streams, each folded on its own (a day's events name only its own slots:
 * a departure and a correction stay in the slot's day), as one: their slots in arrival order and the
 * latest scan of any. What folding their events one stream after the other gives, so a caller may
 * keep each stream's folded state instead of its events (ADR 0013, 'A batch, step by step').
 */
export function mergeAttendanceDays(states: readonly AttendanceDayState[]): AttendanceDayState {
  if (states.length === 1) return states[0];
  let lastScan: AttendanceDayState['lastScan'] = null;
  for (const state of states) if (state.lastScan && (!lastScan || instantMs(state.lastScan.at) > instantMs(lastScan.at))) lastScan = state.lastScan;
  return { slots: byArrival(states.flatMap((state) => state.slots)), lastScan };
}

export const attendanceDayStream = (accountId: string, day: string) => `attendance-${accountId}-${day}`;

/** The two days a scan is decided on, the day before first: fold their streams in this order. */
export function attendanceDaysOfScan(scan: Pick<ReaderScan, 'deviceTime' | 'sentAt' | 'receivedAt'>, timeZone: string, rules: Pick<AttendanceRules, 'clockSkewLimitSeconds'>): [string, string] {
  const day = localDateOf(measureScanTime(scan, rules.clockSkewLimitSeconds).at, timeZone);
  return [addDays(day, -1), day];
}

/**
 * The scans of one batch for one account, decided in order, each on the state the previous ones
 * left: a reader that delivers a queue may carry an arrival and its departure in one request. The
 * state must hold every day from the day before the first scan's to the last scan's (more days do
 * no harm: the rules look at times, not at which streams were read). Answers each scan's events, in
 * the commands' order, so each scan's acknowledgement can say what it became.
 */
export function decideDoorScansInOrder(state: AttendanceDayState, commands: readonly RecordDoorScan[]): AttendanceDayEvent[][] {
  const decided: AttendanceDayEvent[][] = [];
  let current = state;
  for (const command of commands) {
    const events = decideAttendanceDay(command, current);
    decided.push(events);
    current = events.reduce(evolveAttendanceDay, current);
  }
  return decided;
}
