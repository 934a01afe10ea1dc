import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAuthenticateWithCodeInput,
  ZPasskeySignInInput,
  ZPasskeyStepInput,
  ZPasskeyStepOptionsInput,
  ZSecondFactorStepInput,
  type TCurrentAccount,
  type TPasskeyOptions,
} from '@rollcall/contracts';
import { PasskeySignInOfferedQuery, PasskeySignInOptionsCommand, PasskeyStepOptionsCommand, SignInWithPasskeyCommand } from '../commands/passkey-sign-in.handler';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import type { TrpcContext } from '../../../platform/trpc/trpc';
import { publicProcedure, sessionProcedureAllowedWhile } from '../../../platform/trpc/trpc';
import { CompleteSecondFactorCommand } from '../commands/complete-second-factor.handler';
import { SignInCommand, type SignInResult } from '../commands/sign-in.handler';
import { SignOutCommand } from '../commands/sign-out.handler';
import { CurrentAccountQuery } from '../queries/current-account.query';

/**
 * Sign-in, sign-out and the signed-in account, for the console (the same handlers as REST's auth
 * routes), as procedures: the composition root adds the own password change, which is the accounts'.
 * An account with a second factor signs in in two steps (docs/adr/0025): `signIn` answers
 * `status: 'second_factor_required'` with a challenge, `completeSignIn` takes it back with the code.
 */
export function authProcedures({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const originOf = (ctx: Pick<TrpcContext, 'client'>) => ctx.client?.origin ?? null;
  /** as REST's logout and account/current: open under either restriction */
  const anyRestriction = sessionProcedureAllowedWhile({ passwordChangeRequired: true, secondFactorEnrolmentRequired: true });
  const answer = async (result: SignInResult, ctx: Pick<TrpcContext, 'cookies'>) => {
    if (result.kind === 'second_factor_required') {
      return { status: 'second_factor_required' as const, second_factor: { challenge: result.challenge, methods: result.methods, expires_at: result.expiresAt } };
    }
    ctx.cookies?.set(result.token, result.expiresAt);
    const account = await queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(result.accountId));
    return {
      status: 'signed_in' as const,
      token: result.token,
      account,
      password_change_required: result.passwordChangeRequired,
      second_factor_enrolment_required: result.secondFactorEnrolmentRequired,
      recovery_codes_remaining: result.recoveryCodesRemaining,
    };
  };
  return {
    signIn: publicProcedure.input(ZAuthenticateWithCodeInput).mutation(async ({ input, ctx }) => answer((await gateway.execute<SignInResult>(new SignInCommand(input, ctx.context))).value, ctx)),
    completeSignIn: publicProcedure.input(ZSecondFactorStepInput).mutation(async ({ input, ctx }) => answer((await gateway.execute<SignInResult>(new CompleteSecondFactorCommand(input, ctx.context))).value, ctx)),
    // passkeys (docs/adr/0029): the second step with a passkey, and a sign-in with a passkey alone where a policy allows it
    passkeyStepOptions: publicProcedure
      .input(ZPasskeyStepOptionsInput)
      .mutation(async ({ input, ctx }) => (await gateway.execute<TPasskeyOptions>(new PasskeyStepOptionsCommand(input.challenge, originOf(ctx), ctx.context))).value),
    completeSignInWithPasskey: publicProcedure
      .input(ZPasskeyStepInput)
      .mutation(async ({ input, ctx }) => answer((await gateway.execute<SignInResult>(new CompleteSecondFactorCommand(input, ctx.context, originOf(ctx)))).value, ctx)),
    passkeySignInOffered: publicProcedure.query(() => queryBus.execute<PasskeySignInOfferedQuery, { offered: boolean }>(new PasskeySignInOfferedQuery())),
    passkeySignInOptions: publicProcedure.mutation(async ({ ctx }) => (await gateway.execute<TPasskeyOptions>(new PasskeySignInOptionsCommand(originOf(ctx), ctx.context))).value),
    signInWithPasskey: publicProcedure
      .input(ZPasskeySignInInput)
      .mutation(async ({ input, ctx }) => answer((await gateway.execute<SignInResult>(new SignInWithPasskeyCommand(input, originOf(ctx), ctx.context))).value, ctx)),
    signOut: anyRestriction.mutation(async ({ ctx }) => {
      await gateway.execute(new SignOutCommand(ctx.principal.sessionId, ctx.context));
      ctx.cookies?.clear();
      return { ok: true as const };
    }),
    /** what this session must do before anything else (after a reload the console asks rather than waits for a refusal) */
    restrictions: anyRestriction.query(({ ctx }) => ({ password_change_required: ctx.principal.passwordChangeRequired, second_factor_enrolment_required: ctx.principal.secondFactorEnrolmentRequired === true })),
    me: anyRestriction.query(({ ctx }) => queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(ctx.principal.accountId, ctx.principal.grants))),
  };
}
