import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TRemoveTrackingStatusCommandInput } from '@rollcall/contracts';
import { calendarEventGroupDecider, calendarEventGroupStream, type CalendarEventGroupCommand } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { requireGroupOfAccount, sameAccount } from './calendar-inputs';

export class RemoveTrackingStatusCommand {
  constructor(
    readonly accountId: string,
    readonly input: TRemoveTrackingStatusCommandInput,
    readonly context: RequestContext,
  ) {}
}

/** `DELETE account/{id}/tracking-status`: one day (`single` 'true'; the last day takes its group along) or the whole group. */
@CommandHandler(RemoveTrackingStatusCommand)
export class RemoveTrackingStatusHandler implements ICommandHandler<RemoveTrackingStatusCommand, CommandOutcome<{ event_group_id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, context }: RemoveTrackingStatusCommand): Promise<CommandOutcome<{ event_group_id: string }>> {
    sameAccount(accountId, input.account_id);
    await requireGroupOfAccount(this.store, accountId, input.event_group_id, input.event_id);
    const at = this.clock.now().toISOString();
    const command: CalendarEventGroupCommand = input.single ? { type: 'RemoveCalendarEvent', data: { eventId: input.event_id, at } } : { type: 'RemoveCalendarEventGroup', data: { at } };
    const result = await handleCommand(this.store, this.clock, calendarEventGroupDecider, calendarEventGroupStream(input.event_group_id), command, context);
    return { value: { event_group_id: input.event_group_id }, position: result.position };
  }
}
