import type { QueryBus } from '@nestjs/cqrs';
import { ZAttendanceStatusId, ZAttendanceStatusInput, ZUpdateAttendanceStatusByIdInput, type TAttendanceStatus } from '@rollcall/contracts';
import { z } from 'zod';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { CreateAttendanceStatusCommand } from '../commands/create-attendance-status.handler';
import { DeleteAttendanceStatusCommand } from '../commands/delete-attendance-status.handler';
import { UpdateAttendanceStatusCommand } from '../commands/update-attendance-status.handler';
import { GetAttendanceStatusQuery } from '../queries/get-attendance-status.query';
import { ListAttendanceStatusesQuery } from '../queries/list-attendance-statuses.query';
import { attendanceStatusDeletedMessage } from '../attendance-statuses.answers';

/** `attendanceStatuses.*` of the console's API: the same command and query handlers as REST v1 and v2. */
export function buildAttendanceStatusesRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const status = (id: string) => queryBus.execute<GetAttendanceStatusQuery, TAttendanceStatus>(new GetAttendanceStatusQuery(id));
  return router({
    list: permittedProcedure('attendance:read').query(() => queryBus.execute<ListAttendanceStatusesQuery, TAttendanceStatus[]>(new ListAttendanceStatusesQuery())),
    create: permittedProcedure('attendance:write', EVERYWHERE)
      .input(ZAttendanceStatusInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateAttendanceStatusCommand(input, ctx.context));
        return status(outcome.value.id);
      }),
    update: permittedProcedure('attendance:write', EVERYWHERE)
      .input(ZUpdateAttendanceStatusByIdInput)
      .mutation(async ({ input: { id, ...details }, ctx }) => {
        await gateway.execute(new UpdateAttendanceStatusCommand(id, details, ctx.context));
        return status(id);
      }),
    delete: permittedProcedure('attendance:write', EVERYWHERE)
      .input(z.object({ id: ZAttendanceStatusId }))
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; title: string }>(new DeleteAttendanceStatusCommand(input.id, ctx.context));
        return { message: attendanceStatusDeletedMessage(outcome.value.title) };
      }),
  });
}
