import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { attendanceDayDecider, attendanceDayStream, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { attendanceTimeZone } from '../attendance-time-zone';

export class CorrectAttendanceSlotCommand {
  constructor(
    readonly slotId: string,
    readonly input: { arrived_at: string; departed_at: string | null; reason: string },
    /** asks whether the administrator may edit this slot's account's attendance; false answers 'not found' */
    readonly mayWrite: (accountId: string) => Promise<boolean>,
    readonly context: RequestContext,
  ) {}
}

export interface SlotCorrected {
  id: string;
  account_id: string;
  day: string;
  arrived_at: string;
  departed_at: string | null;
  /** false when the times were already those: nothing was recorded */
  corrected: boolean;
}

const notFound = () => new DomainError('attendance.slot_not_found', 'This arrival/departure slot does not exist');

/**
 * `PATCH logs/arrivals-departures/edit/{id}`: an administrator's correction, recorded as
 * `AttendanceSlotCorrected` (new times, what the slot said before, reason, actor) in the slot's day
 * stream; the scans stay as they came. The rules are the domain's (`decideSlotCorrection`).
 */
@CommandHandler(CorrectAttendanceSlotCommand)
export class CorrectAttendanceSlotHandler implements ICommandHandler<CorrectAttendanceSlotCommand, CommandOutcome<SlotCorrected>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ slotId, input, mayWrite, context }: CorrectAttendanceSlotCommand): Promise<CommandOutcome<SlotCorrected>> {
    const slot = await this.db.selectFrom('attendance_slots_v1').select(['account_id', 'day']).where('id', '=', slotId).executeTakeFirst();
    if (!slot || !(await mayWrite(slot.account_id))) throw notFound();
    const result = await handleCommand(
      this.store,
      this.clock,
      attendanceDayDecider,
      attendanceDayStream(slot.account_id, slot.day),
      {
        type: 'CorrectAttendanceSlot',
        data: {
          accountId: slot.account_id,
          slotId,
          arrivedAt: input.arrived_at,
          departedAt: input.departed_at,
          reason: input.reason,
          correctedBy: context.actor,
          // the zone that draws the account's days, as the scan handler chose it
          timeZone: (await attendanceTimeZone(this.db, slot.account_id)) ?? 'UTC',
          at: this.clock.now().toISOString(),
        },
      },
      context,
    );
    const [event] = result.events;
    const value: SlotCorrected =
      event?.type === 'AttendanceSlotCorrected'
        ? { id: slotId, account_id: slot.account_id, day: slot.day, arrived_at: event.data.arrivedAt, departed_at: event.data.departedAt, corrected: true }
        : { id: slotId, account_id: slot.account_id, day: slot.day, arrived_at: new Date(input.arrived_at).toISOString(), departed_at: input.departed_at && new Date(input.departed_at).toISOString(), corrected: false };
    return { value, position: result.position };
  }
}
