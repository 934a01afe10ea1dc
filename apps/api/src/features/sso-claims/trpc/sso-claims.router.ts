import type { QueryBus } from '@nestjs/cqrs';
import { SSO_CLAIMS_SAVED_MESSAGE, ZAccountClaimsByIdInput, ZSetAccountClaimsInput, type TAccountClaimGroup } from '@rollcall/contracts';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { SetAccountClaimsCommand } from '../commands/set-account-claims.handler';
import { GetAccountClaimsQuery } from '../queries/get-account-claims.query';

/** `ssoClaims.*` of the console's API: the same handlers as REST. */
export function buildSsoClaimsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const groups = (accountId: string) => queryBus.execute<GetAccountClaimsQuery, TAccountClaimGroup[]>(new GetAccountClaimsQuery(accountId));
  return router({
    ofAccount: permittedProcedure('accounts:read', on('account', 'input:id'))
      .input(ZAccountClaimsByIdInput)
      .query(({ input }) => groups(input.id)),
    set: permittedProcedure('accounts:write', onWholeAccount('input:id'))
      .input(ZSetAccountClaimsInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new SetAccountClaimsCommand(input.id, input.claims, ctx.context));
        return { message: SSO_CLAIMS_SAVED_MESSAGE, groups: await groups(input.id) };
      }),
  });
}
