import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAuthenticateInput,
  type TCurrentAccount
} from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { publicProcedure, sessionProcedure } from '../../../platform/trpc/trpc';
import { SignInCommand, type SignInResult } from '../commands/sign-in.handler';
import { SignOutCommand } from '../commands/sign-out.handler';
import { CurrentAccountQuery } from '../queries/current-account.query';

/**
 * Sign-in, sign-out and the signed-in account, for the console (the same handlers as REST's auth
 * routes), as procedures: the composition root adds the own password change, which is the accounts'.
 */
export function authProcedures({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return {
    signIn: publicProcedure.input(ZAuthenticateInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<SignInResult>(new SignInCommand(input, ctx.context));
      ctx.cookies?.set(outcome.value.token, outcome.value.expiresAt);
      const account = await queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(outcome.value.accountId));
      return { token: outcome.value.token, account, password_change_required: outcome.value.passwordChangeRequired };
    }),
    signOut: sessionProcedure.mutation(async ({ ctx }) => {
      await gateway.execute(new SignOutCommand(ctx.principal.sessionId, ctx.context));
      ctx.cookies?.clear();
      return { ok: true as const };
    }),
    me: sessionProcedure.query(({ ctx }) => queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(ctx.principal.accountId, ctx.principal.grants))),
  };
}
