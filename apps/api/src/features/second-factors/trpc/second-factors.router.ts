import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountId,
  ZConfirmTotpInput,
  ZRegisterPasskeyInput,
  ZRenamePasskeyInput,
  ZResetSecondFactorsInput,
  ZSecondFactorConfirmation,
  ZSecondFactorEnrolmentProof,
  type TPasskeyOptions,
  type TPasskeyRegistered,
  type TRecoveryCodes,
  type TSecondFactorStatus,
  type TTotpConfirmed,
  type TTotpEnrolment,
} from '@rollcall/contracts';
import { z } from 'zod';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router, sessionProcedure, sessionProcedureAllowedWhile, type TrpcContext } from '../../../platform/trpc/trpc';
import type { SessionPrincipal } from '../../../platform/access/principal';
import { ConfirmationOptionsCommand, PasskeyRegistrationOptionsCommand, RegisterPasskeyCommand, RemovePasskeyCommand, RenamePasskeyCommand, type OwnSession } from '../commands/passkeys.handlers';
import { ConfirmTotpCommand } from '../commands/confirm-totp.handler';
import { RegenerateRecoveryCodesCommand } from '../commands/regenerate-recovery-codes.handler';
import { RemoveTotpCommand } from '../commands/remove-totp.handler';
import { ResetSecondFactorsCommand } from '../commands/reset-second-factors.handler';
import { StartTotpEnrolmentCommand } from '../commands/start-totp-enrolment.handler';
import { GetSecondFactorStatusQuery } from '../queries/get-second-factor-status.query';
import { passkeyRemovedMessage, passkeyRenamedMessage, secondFactorsResetMessage, totpRemovedMessage } from '../second-factors.answers';

const own = (ctx: Pick<TrpcContext, 'client'> & { principal: SessionPrincipal }): OwnSession => ({ accountId: ctx.principal.accountId, sessionId: ctx.principal.sessionId, origin: ctx.client?.origin ?? null });
/** what confirms a removal (docs/adr/0029): a code or a passkey's assertion */
const ZConfirmed = z.object({ confirmation: ZSecondFactorConfirmation.optional() });
/** what an enrolment's start takes: a current factor, or the current password where the account has none (review R24b F1) */
const ZEnrolmentProven = z.object({ confirmation: ZSecondFactorEnrolmentProof.optional() });

/**
 * Second factors for the console (docs/adr/0025), the same handlers as REST: the own account's on
 * its session (enrolment open to a session that must enrol first, as REST's, the rest to a free
 * session), an account's status and reset under the same permissions and scope as REST.
 */
export function buildSecondFactorsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  /** as REST's @AllowedWhileSecondFactorEnrolmentRequired routes: not while the password must be changed (it comes first) */
  const enrolment = sessionProcedureAllowedWhile({ secondFactorEnrolmentRequired: true });
  return router({
    mine: enrolment.query(({ ctx }) => queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(ctx.principal.accountId))),
    // an account with a second factor confirms with a current one first (review R24 F3), one without with its password unless the session is recent (R24b F1)
    startTotp: enrolment.input(ZEnrolmentProven.optional()).mutation(async ({ input, ctx }) => (await gateway.execute<TTotpEnrolment>(new StartTotpEnrolmentCommand(own(ctx), ctx.context, input?.confirmation))).value),
    confirmTotp: enrolment.input(ZConfirmTotpInput).mutation(async ({ input, ctx }) => (await gateway.execute<TTotpConfirmed>(new ConfirmTotpCommand(ctx.principal.accountId, input, ctx.context))).value),
    removeTotp: sessionProcedure.input(ZConfirmed.optional()).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RemoveTotpCommand(own(ctx), input?.confirmation, ctx.context));
      return { message: totpRemovedMessage };
    }),
    regenerateRecoveryCodes: sessionProcedure
      .input(ZConfirmed.optional())
      .mutation(async ({ input, ctx }) => (await gateway.execute<TRecoveryCodes>(new RegenerateRecoveryCodesCommand(own(ctx), input?.confirmation, ctx.context))).value),
    passkeyRegistrationOptions: enrolment
      .input(ZEnrolmentProven.optional())
      .mutation(async ({ input, ctx }) => (await gateway.execute<TPasskeyOptions>(new PasskeyRegistrationOptionsCommand(own(ctx), ctx.context, input?.confirmation))).value),
    registerPasskey: enrolment.input(ZRegisterPasskeyInput).mutation(async ({ input, ctx }) => (await gateway.execute<TPasskeyRegistered>(new RegisterPasskeyCommand(own(ctx), input, ctx.context))).value),
    renamePasskey: sessionProcedure.input(ZRenamePasskeyInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RenamePasskeyCommand(ctx.principal.accountId, input.id, input.name, ctx.context));
      return { message: passkeyRenamedMessage };
    }),
    confirmationOptions: sessionProcedure.mutation(async ({ ctx }) => (await gateway.execute<TPasskeyOptions>(new ConfirmationOptionsCommand(own(ctx), ctx.context))).value),
    removePasskey: sessionProcedure.input(ZConfirmed.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RemovePasskeyCommand(own(ctx), input.id, input.confirmation, ctx.context));
      return { message: passkeyRemovedMessage };
    }),
    ofAccount: permittedProcedure('accounts:read', on('account', 'input:id'))
      .input(z.object({ id: ZAccountId }))
      .query(({ input }) => queryBus.execute<GetSecondFactorStatusQuery, TSecondFactorStatus>(new GetSecondFactorStatusQuery(input.id))),
    reset: permittedProcedure('accounts:credentials', onWholeAccount('input:id'))
      .input(ZResetSecondFactorsInput.extend({ id: ZAccountId }))
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ResetSecondFactorsCommand(input.id, input.reason, ctx.context, ctx.principal.accountId));
        return { message: secondFactorsResetMessage };
      }),
  });
}
