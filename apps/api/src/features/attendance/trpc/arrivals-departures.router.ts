import type { QueryBus } from '@nestjs/cqrs';
import { ZArrivalsDeparturesQuery, ZCorrectSlotByIdInput, ZPresenceQuery, ZRecordManualSlotInput, type TArrivalDeparture, type TManualSlotRecorded, type TPage, type TPresence } from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { listScope } from '../../../platform/access/permissions';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { CorrectAttendanceSlotCommand, type SlotCorrected } from '../commands/correct-attendance-slot.handler';
import { RecordManualSlotCommand } from '../commands/record-manual-slot.handler';
import { ListArrivalsDeparturesQuery } from '../queries/list-arrivals-departures.query';
import { PresenceNowQuery } from '../queries/presence-now.query';

/** `arrivalsDepartures.*`: the log, the correction of a slot and the presence board; the same handlers as REST v2. */
export function buildArrivalsDeparturesRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    list: permittedProcedure('attendance:read')
      .input(ZArrivalsDeparturesQuery)
      .query(({ input, ctx }) => queryBus.execute<ListArrivalsDeparturesQuery, TPage<TArrivalDeparture>>(new ListArrivalsDeparturesQuery(input, listScope(ctx.principal, 'attendance:read')))),
    presence: permittedProcedure('attendance:read')
      .input(ZPresenceQuery)
      .query(({ input, ctx }) => queryBus.execute<PresenceNowQuery, TPresence>(new PresenceNowQuery(input, listScope(ctx.principal, 'attendance:read')))),
    correct: permittedProcedure('attendance:write')
      .input(ZCorrectSlotByIdInput)
      .mutation(async ({ input: { id, ...input }, ctx }) => {
        const mayWrite = (accountId: string) => ctx.access.permits(ctx.principal, 'attendance:write', 'account', accountId);
        return (await gateway.execute<SlotCorrected>(new CorrectAttendanceSlotCommand(id, input, mayWrite, ctx.context))).value;
      }),
    /** a slot added by hand, with its reason (REST: POST logs/arrivals-departures) */
    recordManual: permittedProcedure('attendance:write')
      .input(ZRecordManualSlotInput)
      .mutation(async ({ input, ctx }) => {
        const mayWrite = (accountId: string) => ctx.access.permits(ctx.principal, 'attendance:write', 'account', accountId);
        return (await gateway.execute<TManualSlotRecorded>(new RecordManualSlotCommand(input, mayWrite, ctx.context))).value;
      }),
  });
}
