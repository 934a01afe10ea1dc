import type { QueryBus } from '@nestjs/cqrs';
import { ZRevokeApplicationConsentInput } from '@rollcall/contracts';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { consentRevokedMessage, RevokeApplicationConsentCommand } from '../commands/revoke-application-consent.handler';
import { ListAccountConsentsQuery, type AccountConsent } from '../queries/list-account-consents.query';

const ZAccountConsentsInput = ZRevokeApplicationConsentInput.pick({ account_id: true });

/** `consents.*`: an account's single sign-on consents, the same handlers as REST v2. */
export function buildConsentsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    ofAccount: permittedProcedure('applications:read', on('account', 'input:account_id'))
      .input(ZAccountConsentsInput)
      .query(({ input }) => queryBus.execute<ListAccountConsentsQuery, AccountConsent[]>(new ListAccountConsentsQuery(input.account_id))),
    revoke: permittedProcedure('applications:write', onWholeAccount('input:account_id'))
      .input(ZRevokeApplicationConsentInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new RevokeApplicationConsentCommand(input.account_id, input.application_id, ctx.context));
        return { message: consentRevokedMessage };
      }),
  });
}
