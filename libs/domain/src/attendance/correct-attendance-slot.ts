import { DomainError, type DomainFieldRule } from '../shared';
import type { AttendanceDayEvent, AttendanceDayState, CorrectAttendanceSlot } from './attendance-day';
import { instantMs, isoOf, localDateOf } from './time-zone';

export const CORRECTION_REASON_MAX = 500;
/** a slot may run past midnight (night shifts), but no slot is longer than a day */
const SLOT_MAX_MS = 24 * 3_600_000;

/**
 * An administrator's correction of one slot: new arrival and departure times with a reason. The
 * original scans stay in the stream; the correction is a new event on top of them. Every broken
 * rule is answered at once, under its field.
 */
export function decideSlotCorrection(state: AttendanceDayState, command: CorrectAttendanceSlot['data']): AttendanceDayEvent[] {
  const slot = state.slots.find((candidate) => candidate.slotId === command.slotId);
  if (!slot) throw new DomainError('attendance.slot_not_found', 'This arrival/departure slot does not exist');

  const fields: Record<string, string[]> = {};
  // each message with the field rule it breaks (FIELD_RULE_CODES of libs/contracts), so a console translates it
  const rules: DomainFieldRule[] = [];
  const broken = (field: string, message: string, code: string, params: Record<string, string | number>) => {
    fields[field] = [message];
    rules.push({ field, message, code, params });
  };
  const reason = command.reason.trim();
  if (!reason) broken('reason', 'Say why the slot is corrected', 'required', { label: 'Reason' });
  else if ([...reason].length > CORRECTION_REASON_MAX) broken('reason', `The reason may be at most ${CORRECTION_REASON_MAX} characters`, 'too_long', { label: 'The reason', max: CORRECTION_REASON_MAX });

  const now = instantMs(command.at);
  const arrived = instantMs(command.arrivedAt);
  const departed = command.departedAt === null ? null : instantMs(command.departedAt);
  // the slot stays in its day's stream: moving it to another day is a different slot
  if (localDateOf(arrived, command.timeZone) !== slot.day) broken('arrived_at', `The arrival must stay on ${slot.day}`, 'same_day', { label: 'Arrival', day: slot.day });
  else if (arrived > now) broken('arrived_at', 'The arrival cannot be in the future', 'not_future', { label: 'Arrival' });
  if (departed === null) {
    if (slot.departedAt !== null) broken('departed_at', 'A recorded departure can be corrected but not removed', 'required', { label: 'Departure' });
  } else if (departed <= arrived) broken('departed_at', 'The departure must be after the arrival', 'after', { label: 'Departure', other: 'Arrival' });
  else if (departed - arrived > SLOT_MAX_MS) broken('departed_at', 'A slot may last at most 24 hours', 'max_hours', { label: 'Departure', other: 'Arrival', max: SLOT_MAX_MS / 3_600_000 });
  else if (departed > now) broken('departed_at', 'The departure cannot be in the future', 'not_future', { label: 'Departure' });

  if (!fields.arrived_at && !fields.departed_at) {
    const end = departed ?? Infinity;
    const overlapping = state.slots.find(
      (other) => other.slotId !== slot.slotId && instantMs(other.arrivedAt) < end && (other.departedAt === null ? Infinity : instantMs(other.departedAt)) > arrived,
    );
    if (overlapping) broken('arrived_at', `The slot would overlap the one that arrived at ${overlapping.arrivedAt}`, 'overlap', { label: 'Arrival', start: overlapping.arrivedAt });
  }

  const [field] = Object.keys(fields);
  if (field) throw new DomainError('attendance.correction_invalid', fields[field][0], field, fields, rules);

  const arrivedAt = isoOf(arrived);
  const departedAt = departed === null ? null : isoOf(departed);
  if (arrivedAt === isoOf(instantMs(slot.arrivedAt)) && departedAt === (slot.departedAt === null ? null : isoOf(instantMs(slot.departedAt)))) return [];
  return [
    {
      type: 'AttendanceSlotCorrected',
      data: {
        accountId: command.accountId,
        day: slot.day,
        slotId: slot.slotId,
        arrivedAt,
        departedAt,
        previous: { arrivedAt: slot.arrivedAt, departedAt: slot.departedAt },
        reason,
        correctedBy: command.correctedBy,
        correctedAt: command.at,
      },
    },
  ];
}
