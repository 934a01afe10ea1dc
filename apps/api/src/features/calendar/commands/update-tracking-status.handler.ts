import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateTrackingStatusCommandInput } from '@rollcall/contracts';
import { calendarEventGroupDecider, calendarEventGroupStream, datesInRange, type CalendarEventGroupCommand } from '@rollcall/domain';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { requireGroupOfAccount, sameAccount, statusChoice } from './calendar-inputs';

export class UpdateTrackingStatusCommand {
  constructor(
    readonly accountId: string,
    readonly input: TUpdateTrackingStatusCommandInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * `PUT account/{id}/tracking-status/`: with `single` ('Edit only selected day') the one event moves
 * or changes apart from its group; otherwise the whole group takes the new values and range, and its
 * days changed alone keep theirs unless `reset_changed_days` is set.
 */
@CommandHandler(UpdateTrackingStatusCommand)
export class UpdateTrackingStatusHandler implements ICommandHandler<UpdateTrackingStatusCommand, CommandOutcome<{ event_group_id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, context }: UpdateTrackingStatusCommand): Promise<CommandOutcome<{ event_group_id: string }>> {
    sameAccount(accountId, input.account_id);
    await requireGroupOfAccount(this.store, accountId, input.event_group_id, input.event_id);
    const values = {
      title: input.title,
      description: input.description,
      status: await statusChoice(this.store, input.status_id),
      startDate: input.start_date,
      endDate: input.end_date,
      startTime: input.start_time,
      endTime: input.end_time,
      at: this.clock.now().toISOString(),
    };
    const command: CalendarEventGroupCommand = input.single
      ? { type: 'ChangeCalendarEvent', data: { ...values, eventId: input.event_id } }
      : { type: 'ChangeCalendarEventGroup', data: { ...values, resetChangedDays: input.reset_changed_days, eventIds: datesInRange(input.start_date, input.end_date).map(() => randomUUID()) } };
    const result = await handleCommand(this.store, this.clock, calendarEventGroupDecider, calendarEventGroupStream(input.event_group_id), command, context);
    return { value: { event_group_id: input.event_group_id }, position: result.position };
  }
}
