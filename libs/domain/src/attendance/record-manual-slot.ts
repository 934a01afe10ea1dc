import { DomainError, type DomainFieldRule } from '../shared';
import type { AttendanceDayEvent, AttendanceDayState, RecordManualSlot } from './attendance-day';
import { CORRECTION_REASON_MAX } from './correct-attendance-slot';
import { instantOfLocal, isoOf, localDateOf } from './time-zone';

/** a slot may run past midnight (night shifts), but no slot is longer than a day, as corrections say */
const SLOT_MAX_MS = 24 * 3_600_000;
const HAS_ZONE = /(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * A time of a slot added by hand: a local date and time ('YYYY-MM-DDTHH:mm[:ss]') read in the
 * account's zone, the zone that draws its days, or an instant with its own offset. Null when it
 * names no real time (a malformed text, or a local time daylight saving skipped).
 */
export function manualSlotInstant(time: string, timeZone: string): number | null {
  if (HAS_ZONE.test(time)) {
    const ms = Date.parse(time);
    return Number.isNaN(ms) ? null : ms;
  }
  const instant = instantOfLocal(time, timeZone);
  return instant === null ? null : Date.parse(instant);
}

/**
 * The day a slot added by hand belongs to: the local date of its arrival in the account's zone, as
 * a scan's day is drawn. Null when the arrival is no real time (the decider then says so).
 */
export function manualSlotDay(arrivedAt: string, timeZone: string): string | null {
  const ms = manualSlotInstant(arrivedAt, timeZone);
  return ms === null ? null : localDateOf(ms, timeZone);
}

/**
 * An administrator adds a slot no scan recorded (a forgotten card, a reader that was down): an
 * arrival and a departure, or an arrival still open, with a reason (docs/adr/0013, 'Slots added by
 * hand'). It lands in the stream of its arrival's day as `ManualSlotRecorded`; the state must hold
 * that day and its neighbours (a slot may run past midnight, a night shift may reach into it), so
 * an overlap with any of their slots is refused. Every broken rule is answered at once, under its field.
 */
export function decideManualSlot(state: AttendanceDayState, command: RecordManualSlot['data']): AttendanceDayEvent[] {
  const fields: Record<string, string[]> = {};
  // each message with the field rule it breaks (FIELD_RULE_CODES of libs/contracts), so a console translates it
  const rules: DomainFieldRule[] = [];
  const broken = (field: string, message: string, code: string, params: Record<string, string | number>) => {
    fields[field] = [message];
    rules.push({ field, message, code, params });
  };
  const reason = command.reason.trim();
  if (!reason) broken('reason', 'Say why the slot is added by hand', 'required', { label: 'Reason' });
  else if ([...reason].length > CORRECTION_REASON_MAX) broken('reason', `The reason may be at most ${CORRECTION_REASON_MAX} characters`, 'too_long', { label: 'The reason', max: CORRECTION_REASON_MAX });

  const now = Date.parse(command.at);
  const arrived = manualSlotInstant(command.arrivedAt, command.timeZone);
  const departed = command.departedAt === null ? null : manualSlotInstant(command.departedAt, command.timeZone);
  if (arrived === null) broken('arrived_at', `The arrival is no real time in ${command.timeZone}`, 'local_time', { label: 'Arrival', zone: command.timeZone });
  else if (arrived > now) broken('arrived_at', 'The arrival cannot be in the future', 'not_future', { label: 'Arrival' });
  if (command.departedAt !== null) {
    if (departed === null) broken('departed_at', `The departure is no real time in ${command.timeZone}`, 'local_time', { label: 'Departure', zone: command.timeZone });
    else if (arrived !== null && departed <= arrived) broken('departed_at', 'The departure must be after the arrival', 'after', { label: 'Departure', other: 'Arrival' });
    else if (arrived !== null && departed - arrived > SLOT_MAX_MS) broken('departed_at', 'A slot may last at most 24 hours', 'max_hours', { label: 'Departure', other: 'Arrival', max: SLOT_MAX_MS / 3_600_000 });
    else if (departed > now) broken('departed_at', 'The departure cannot be in the future', 'not_future', { label: 'Departure' });
  }

  if (arrived !== null && !fields.arrived_at && !fields.departed_at) {
    const end = departed ?? Infinity;
    const overlapping = state.slots.find((other) => Date.parse(other.arrivedAt) < end && (other.departedAt === null ? Infinity : Date.parse(other.departedAt)) > arrived);
    if (overlapping) {
      const field = departed === null && Date.parse(overlapping.arrivedAt) >= arrived ? 'departed_at' : 'arrived_at';
      broken(
        field,
        overlapping.departedAt === null
          ? `The slot would overlap the one still open since ${overlapping.arrivedAt}`
          : `The slot would overlap the one from ${overlapping.arrivedAt} to ${overlapping.departedAt}`,
        'overlap',
        { label: field === 'arrived_at' ? 'Arrival' : 'Departure', start: overlapping.arrivedAt, ...(overlapping.departedAt === null ? {} : { end: overlapping.departedAt }) },
      );
    }
  }

  const [field] = Object.keys(fields);
  if (field || arrived === null) throw new DomainError('attendance.manual_slot_invalid', fields[field][0], field, fields, rules);

  return [
    {
      type: 'ManualSlotRecorded',
      data: {
        accountId: command.accountId,
        day: localDateOf(arrived, command.timeZone),
        slotId: command.slotId,
        arrivedAt: isoOf(arrived),
        departedAt: departed === null ? null : isoOf(departed),
        reason,
        recordedBy: command.recordedBy,
        recordedAt: command.at,
      },
    },
  ];
}
