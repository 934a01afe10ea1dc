import type { QueryBus } from '@nestjs/cqrs';
import { ZCalendarGroupInput, ZCalendarRangeInput, ZCreateTrackingStatusInput, ZRemoveTrackingStatusInput, ZUpdateTrackingStatusInput, type TCalendarDaysChangedAlone, type TCalendarEvent } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import { on } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { CreateTrackingStatusCommand } from '../commands/create-tracking-status.handler';
import { RemoveTrackingStatusCommand } from '../commands/remove-tracking-status.handler';
import { UpdateTrackingStatusCommand } from '../commands/update-tracking-status.handler';
import { DaysChangedAloneQuery } from '../queries/days-changed-alone.query';
import { ListCalendarEventsQuery } from '../queries/list-calendar-events.query';
import { EVENT_REMOVED_MESSAGE, EVENT_SAVED_MESSAGE } from '../calendar.answers';

/** over tRPC a write names its account in the payload's `account_id` (as the spec's payloads do), which is then required */
function accountOf(input: { account_id?: string }): string {
  if (!input.account_id) throw new DomainError('request.invalid', 'account_id is required', 'account_id');
  return input.account_id;
}

/** `calendar.*` of the console's API: the same command and query handlers as REST v1 and v2. */
export function buildCalendarRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    /** the days between two dates (a month or a week view) */
    events: permittedProcedure('attendance:read', on('account', 'input:account_id'))
      .input(ZCalendarRangeInput)
      .query(({ input }) => queryBus.execute<ListCalendarEventsQuery, TCalendarEvent[]>(new ListCalendarEventsQuery(input.account_id, input.from, input.to))),
    /** the days of a group changed alone, which the event dialog names before a change of the whole group */
    daysChangedAlone: permittedProcedure('attendance:read', on('account', 'input:account_id'))
      .input(ZCalendarGroupInput)
      .query(({ input }) => queryBus.execute<DaysChangedAloneQuery, TCalendarDaysChangedAlone>(new DaysChangedAloneQuery(input.account_id, input.event_group_id))),
    create: permittedProcedure('attendance:write', on('account', 'input:account_id'))
      .input(ZCreateTrackingStatusInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ event_group_id: string }>(new CreateTrackingStatusCommand(accountOf(input), input, ctx.context));
        return { message: EVENT_SAVED_MESSAGE, event_group_id: outcome.value.event_group_id };
      }),
    update: permittedProcedure('attendance:write', on('account', 'input:account_id'))
      .input(ZUpdateTrackingStatusInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ event_group_id: string }>(new UpdateTrackingStatusCommand(accountOf(input), input, ctx.context));
        return { message: EVENT_SAVED_MESSAGE, event_group_id: outcome.value.event_group_id };
      }),
    remove: permittedProcedure('attendance:write', on('account', 'input:account_id'))
      .input(ZRemoveTrackingStatusInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new RemoveTrackingStatusCommand(accountOf(input), input, ctx.context));
        return { message: EVENT_REMOVED_MESSAGE };
      }),
  });
}
