import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { attendanceStatusDecider, attendanceStatusStream, attendanceStatusTitleReservation, type AttendanceStatusDetails } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class CreateAttendanceStatusCommand {
  constructor(
    readonly details: AttendanceStatusDetails,
    readonly context: RequestContext,
    readonly statusId: string = newAggregateId(),
  ) {}
}

/** Load (empty) stream -> decide -> append, reserving the title (unique case-insensitively). */
@CommandHandler(CreateAttendanceStatusCommand)
export class CreateAttendanceStatusHandler implements ICommandHandler<CreateAttendanceStatusCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ details, context, statusId }: CreateAttendanceStatusCommand): Promise<CommandOutcome<{ id: string }>> {
    const data = { statusId, ...details, createdAt: this.clock.now().toISOString() };
    const result = await handleCommand(this.store, this.clock, attendanceStatusDecider, attendanceStatusStream(statusId), { type: 'CreateAttendanceStatus', data }, context, {
      reservations: [attendanceStatusTitleReservation(details.title)],
    });
    return { value: { id: statusId }, position: result.position };
  }
}
