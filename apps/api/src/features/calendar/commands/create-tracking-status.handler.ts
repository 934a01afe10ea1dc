import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateTrackingStatusCommandInput } from '@rollcall/contracts';
import { calendarEventGroupDecider, calendarEventGroupStream, datesInRange } from '@rollcall/domain';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { renamingTitleField, requireAccount, sameAccount, statusChoice } from './calendar-inputs';

export class CreateTrackingStatusCommand {
  constructor(
    readonly accountId: string,
    readonly input: TCreateTrackingStatusCommandInput,
    readonly context: RequestContext,
    readonly groupId: string = newAggregateId(),
  ) {}
}

/**
 * A new event group over the dialog's range, one event per day (`POST account/{id}/tracking-status/`),
 * decided with what the status's own stream says (it must exist and be active).
 */
@CommandHandler(CreateTrackingStatusCommand)
export class CreateTrackingStatusHandler implements ICommandHandler<CreateTrackingStatusCommand, CommandOutcome<{ event_group_id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, context, groupId }: CreateTrackingStatusCommand): Promise<CommandOutcome<{ event_group_id: string }>> {
    sameAccount(accountId, input.account_id);
    await requireAccount(this.store, accountId);
    const status = await statusChoice(this.store, input.status_id);
    const eventIds = datesInRange(input.start_date, input.end_date).map(() => randomUUID());
    const command = {
      type: 'CreateCalendarEventGroup' as const,
      data: {
        groupId,
        accountId,
        single: input.single,
        eventIds,
        at: this.clock.now().toISOString(),
        title: input.title,
        description: input.description,
        status,
        startDate: input.start_date,
        endDate: input.end_date,
        startTime: input.start_time,
        endTime: input.end_time,
      },
    };
    const result = await renamingTitleField('event_group_title', () => handleCommand(this.store, this.clock, calendarEventGroupDecider, calendarEventGroupStream(groupId), command, context));
    return { value: { event_group_id: groupId }, position: result.position };
  }
}
