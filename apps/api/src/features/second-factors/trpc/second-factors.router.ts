import type { QueryBus } from '@nestjs/cqrs';
import { ZAccountId, ZConfirmTotpInput, ZResetSecondFactorsInput, type TRecoveryCodes, type TSecondFactorStatus, type TTotpConfirmed, type TTotpEnrolment } from '@rollcall/contracts';
import { z } from 'zod';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router, sessionProcedure } from '../../../platform/trpc/trpc';
import { ConfirmTotpCommand } from '../commands/confirm-totp.handler';
import { RegenerateRecoveryCodesCommand } from '../commands/regenerate-recovery-codes.handler';
import { RemoveTotpCommand } from '../commands/remove-totp.handler';
import { ResetSecondFactorsCommand } from '../commands/reset-second-factors.handler';
import { StartTotpEnrolmentCommand } from '../commands/start-totp-enrolment.handler';
import { GetSecondFactorStatusQuery } from '../queries/get-second-factor-status.query';
import { secondFactorsResetMessage, totpRemovedMessage } from '../second-factors.answers';

/**
 * Second factors for the console (docs/adr/0025), the same handlers as REST: the own account's on
 * its session (`sessionProcedure`, which a session that must enrol first may call), an account's
 * status and reset under the same permissions and scope as REST.
 */
export function buildSecondFactorsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
    mine: sessionProcedure.query(({ ctx }) => queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(ctx.principal.accountId))),
    startTotp: sessionProcedure.mutation(async ({ ctx }) => (await gateway.execute<TTotpEnrolment>(new StartTotpEnrolmentCommand(ctx.principal.accountId, ctx.context))).value),
    confirmTotp: sessionProcedure.input(ZConfirmTotpInput).mutation(async ({ input, ctx }) => (await gateway.execute<TTotpConfirmed>(new ConfirmTotpCommand(ctx.principal.accountId, input, ctx.context))).value),
    removeTotp: sessionProcedure.mutation(async ({ ctx }) => {
      await gateway.execute(new RemoveTotpCommand(ctx.principal.accountId, ctx.context));
      return { message: totpRemovedMessage };
    }),
    regenerateRecoveryCodes: sessionProcedure.mutation(async ({ ctx }) => (await gateway.execute<TRecoveryCodes>(new RegenerateRecoveryCodesCommand(ctx.principal.accountId, ctx.context))).value),
    ofAccount: permittedProcedure('accounts:read', on('account', 'input:id'))
      .input(z.object({ id: ZAccountId }))
      .query(({ input }) => queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(input.id))),
    reset: permittedProcedure('accounts:credentials', onWholeAccount('input:id'))
      .input(ZResetSecondFactorsInput.extend({ id: ZAccountId }))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ResetSecondFactorsCommand(input.id, input.reason, ctx.context));
        return { message: secondFactorsResetMessage };
      }),
  });
}
