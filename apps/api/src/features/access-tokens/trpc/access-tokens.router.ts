import type { QueryBus } from '@nestjs/cqrs';
import {
  SYSTEM_PERMISSIONS,
  ZAccessTokenId,
  ZCreateAccessTokenInput,
  ZListAccessTokensInput,
  ZUpdateAccessTokenInput,
  type TAccessToken,
  type TPage
} from '@rollcall/contracts';
import { z } from 'zod';
import { listScope } from '../../../platform/access/permissions';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { createdAccessToken, tokenDeletedMessage } from '../access-tokens.answers';
import { IssueAccessTokenCommand, type IssuedAccessToken } from '../commands/issue-access-token.handler';
import { RevokeAccessTokenCommand } from '../commands/revoke-access-token.handler';
import { UpdateAccessTokenCommand } from '../commands/update-access-token.handler';
import { GetAccessTokenQuery } from '../queries/get-access-token.query';
import { ListAccessTokensQuery } from '../queries/list-access-tokens.query';

/** Access tokens for the console: the same handlers as REST v1 and v2. */
export function buildAccessTokensRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    list: permittedProcedure('tokens:read')
      .input(ZListAccessTokensInput)
      .query(({ input, ctx }) => queryBus.execute<ListAccessTokensQuery, TPage<TAccessToken>>(new ListAccessTokensQuery(input, listScope(ctx.principal, 'tokens:read')))),
    byId: permittedProcedure('tokens:read', on('token', 'input:id'))
      .input(z.object({ id: ZAccessTokenId }))
      .query(({ input }) => queryBus.execute<GetAccessTokenQuery, TAccessToken>(new GetAccessTokenQuery(input.id))),
    systemPermissions: permittedProcedure('tokens:read').query(() => SYSTEM_PERMISSIONS.map(({ slug, value }) => ({ slug, value }))),
    create: permittedProcedure('tokens:write', onWholeAccount('input:account_id'))
      .input(ZCreateAccessTokenInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<IssuedAccessToken>(new IssueAccessTokenCommand(input, ctx.principal, ctx.context));
        return createdAccessToken(queryBus, outcome.value);
      }),
    update: permittedProcedure('tokens:write', onWholeAccount('input:id', 'token'))
      .input(z.object({ id: ZAccessTokenId, token: ZUpdateAccessTokenInput }))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new UpdateAccessTokenCommand(input.id, input.token, ctx.principal, ctx.context));
        return queryBus.execute<GetAccessTokenQuery, TAccessToken>(new GetAccessTokenQuery(input.id));
      }),
    delete: permittedProcedure('tokens:write', onWholeAccount('input:id', 'token'))
      .input(z.object({ id: ZAccessTokenId }))
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; title: string }>(new RevokeAccessTokenCommand(input.id, ctx.context));
        return { message: tokenDeletedMessage(outcome.value.title) };
      }),
  });
}
