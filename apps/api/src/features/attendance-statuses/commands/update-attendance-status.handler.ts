import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { attendanceStatusDecider, attendanceStatusStream, attendanceStatusTitleReservation, type AttendanceStatusDetails } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class UpdateAttendanceStatusCommand {
  constructor(
    readonly statusId: string,
    readonly details: AttendanceStatusDetails,
    readonly context: RequestContext,
  ) {}
}

/** A rename reserves the new title and releases the old one in the same append. */
@CommandHandler(UpdateAttendanceStatusCommand)
export class UpdateAttendanceStatusHandler implements ICommandHandler<UpdateAttendanceStatusCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ statusId, details, context }: UpdateAttendanceStatusCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(
      this.store,
      this.clock,
      attendanceStatusDecider,
      attendanceStatusStream(statusId),
      { type: 'UpdateAttendanceStatus', data: { ...details, updatedAt: this.clock.now().toISOString() } },
      context,
      (state) => {
        const next = attendanceStatusTitleReservation(details.title);
        const previous = state.status === 'active' ? attendanceStatusTitleReservation(state.title) : null;
        if (!previous || previous.value === next.value) return {};
        return { reservations: [next], releases: [previous] };
      },
    );
    return { value: { id: statusId }, position: result.position };
  }
}
