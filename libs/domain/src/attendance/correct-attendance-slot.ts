import { DomainError } from '../shared';
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
  const reason = command.reason.trim();
  if (!reason) fields.reason = ['Say why the slot is corrected'];
  else if ([...reason].length > CORRECTION_REASON_MAX) fields.reason = [`The reason may be at most ${CORRECTION_REASON_MAX} characters`];

  const now = instantMs(command.at);
  const arrived = instantMs(command.arrivedAt);
  const departed = command.departedAt === null ? null : instantMs(command.departedAt);
  // the slot stays in its day's stream: moving it to another day is a different slot
  if (localDateOf(arrived, command.timeZone) !== slot.day) fields.arrived_at = [`The arrival must stay on ${slot.day}`];
  else if (arrived > now) fields.arrived_at = ['The arrival cannot be in the future'];
  if (departed === null) {
    if (slot.departedAt !== null) fields.departed_at = ['A recorded departure can be corrected but not removed'];
  } else if (departed <= arrived) fields.departed_at = ['The departure must be after the arrival'];
  else if (departed - arrived > SLOT_MAX_MS) fields.departed_at = ['A slot may last at most 24 hours'];
  else if (departed > now) fields.departed_at = ['The departure cannot be in the future'];

  if (!fields.arrived_at && !fields.departed_at) {
    const end = departed ?? Infinity;
    const overlapping = state.slots.find(
      (other) => other.slotId !== slot.slotId && instantMs(other.arrivedAt) < end && (other.departedAt === null ? Infinity : instantMs(other.departedAt)) > arrived,
    );
    if (overlapping) fields.arrived_at = [`The slot would overlap the one that arrived at ${overlapping.arrivedAt}`];
  }

  const [field] = Object.keys(fields);
  if (field) throw new DomainError('attendance.correction_invalid', fields[field][0], field, fields);

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
