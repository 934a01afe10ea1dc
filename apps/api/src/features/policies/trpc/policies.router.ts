import type { QueryBus } from '@nestjs/cqrs';
import {
  ZPasswordPolicyId,
  ZPolicyInput,
  type TPolicy
} from '@rollcall/contracts';
import { z } from 'zod';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { CreatePasswordPolicyCommand } from '../commands/create-password-policy.handler';
import { DeletePasswordPolicyCommand } from '../commands/delete-password-policy.handler';
import { UpdatePasswordPolicyCommand } from '../commands/update-password-policy.handler';
import { policyDeletedMessage } from '../policies.answers';
import { toPolicyRules } from '../policy-input';
import { GetPolicyQuery } from '../queries/get-policy.query';
import { ListPoliciesQuery } from '../queries/list-policies.query';

/** Password policies for the console: the same handlers as REST v1 and v2. */
export function buildPoliciesRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    /** every policy with its rules; pickers read id and title */
    list: permittedProcedure('policies:read').query(() => queryBus.execute<ListPoliciesQuery, TPolicy[]>(new ListPoliciesQuery())),
    byId: permittedProcedure('policies:read').input(z.object({ id: ZPasswordPolicyId })).query(({ input }) => queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(input.id))),
    create: permittedProcedure('policies:write', EVERYWHERE).input(ZPolicyInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<{ id: string }>(new CreatePasswordPolicyCommand(toPolicyRules(input), ctx.context));
      return queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(outcome.value.id));
    }),
    update: permittedProcedure('policies:write', EVERYWHERE).input(z.object({ id: ZPasswordPolicyId, policy: ZPolicyInput })).mutation(async ({ input, ctx }) => {
      await gateway.execute(new UpdatePasswordPolicyCommand(input.id, toPolicyRules(input.policy), ctx.context));
      return queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(input.id));
    }),
    delete: permittedProcedure('policies:write', EVERYWHERE).input(z.object({ id: ZPasswordPolicyId })).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<{ id: string; title: string }>(new DeletePasswordPolicyCommand(input.id, ctx.context));
      return { message: policyDeletedMessage(outcome.value.title) };
    }),
  });
}
