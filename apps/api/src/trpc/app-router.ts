import { on } from 'node:events';
import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountAuthInput,
  ZAccountId,
  ZChangeOwnPasswordInput,
  ZSetPasswordInput,
  ZAuthenticateInput,
  ZCreateAccountInput,
  ZFindAccountsByUsernameInput,
  ZListAccountsInput,
  ZProfilePictureInput,
  ZUpdateAccountProfileInput,
  ZPasswordPolicyId,
  ZPolicyInput,
  type TAccount,
  type TAccountAuth,
  type TAccountListItem,
  type TAccountSearchItem,
  type TCurrentAccount,
  type TLiveMessage,
  type TPage,
  type TPolicy,
} from '@rollcall/contracts';
import { z } from 'zod';
import { ChangeAccountAuthCommand } from '../accounts/commands/change-account-auth.handler';
import { ChangeOwnPasswordCommand } from '../accounts/commands/change-own-password.handler';
import { RequirePasswordChangeCommand } from '../accounts/commands/require-password-change.handler';
import { SetPasswordCommand } from '../accounts/commands/set-password.handler';
import { GetAccountAuthQuery } from '../accounts/queries/get-account-auth.query';
import { ChangeProfilePictureCommand } from '../accounts/commands/change-profile-picture.handler';
import { CreateAccountCommand } from '../accounts/commands/create-account.handler';
import { accountDeletedMessage, DeleteAccountCommand, type DeletedAccount } from '../accounts/commands/delete-account.handler';
import { UpdateAccountProfileCommand } from '../accounts/commands/update-account-profile.handler';
import { FindAccountsByUsernameQuery } from '../accounts/queries/find-accounts-by-username.query';
import { supportedTimeZones } from '../accounts/time-zones';
import { GetAccountQuery } from '../accounts/queries/get-account.query';
import { ListAccountsQuery } from '../accounts/queries/list-accounts.query';
import { accountStatuses } from '../accounts/rest/accounts.routes';
import { SignInCommand, type SignInResult } from '../auth/commands/sign-in.handler';
import { SignOutCommand } from '../auth/commands/sign-out.handler';
import { CurrentAccountQuery } from '../auth/queries/current-account.query';
import type { CommandGateway } from '../core/command-gateway';
import type { LiveFeed } from '../live/live-feed';
import { CreatePasswordPolicyCommand } from '../policies/commands/create-password-policy.handler';
import { DeletePasswordPolicyCommand } from '../policies/commands/delete-password-policy.handler';
import { UpdatePasswordPolicyCommand } from '../policies/commands/update-password-policy.handler';
import { toPolicyRules } from '../policies/policy-input';
import { GetPolicyQuery } from '../policies/queries/get-policy.query';
import { ListPoliciesQuery } from '../policies/queries/list-policies.query';
import { policyDeletedMessage } from '../policies/rest/policies.routes';
import { protectedProcedure, publicProcedure, router, sessionProcedure } from './trpc';

export interface AppRouterDeps {
  gateway: CommandGateway;
  queryBus: QueryBus;
  live: LiveFeed;
}

/** The console's API: the same command and query handlers as REST v1 and v2. */
export function buildAppRouter({ gateway, queryBus, live }: AppRouterDeps) {
  return router({
    auth: router({
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
      me: sessionProcedure.query(({ ctx }) => queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(ctx.principal.accountId))),
      /** the signed-in account's own change; allowed to a session that must change its password */
      changePassword: sessionProcedure.input(ZChangeOwnPasswordInput).mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeOwnPasswordCommand(ctx.principal.accountId, input, ctx.context));
        return { message: 'Password updated successfully' };
      }),
    }),
    accounts: router({
      list: protectedProcedure.input(ZListAccountsInput).query(({ input }) => queryBus.execute<ListAccountsQuery, TPage<TAccountListItem>>(new ListAccountsQuery(input))),
      byId: protectedProcedure.input(z.object({ id: ZAccountId })).query(({ input }) => queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(input.id))),
      statuses: protectedProcedure.query(() => accountStatuses()),
      create: protectedProcedure.input(ZCreateAccountInput).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateAccountCommand(input, ctx.context));
        return outcome.value;
      }),
      update: protectedProcedure.input(z.object({ id: ZAccountId, profile: ZUpdateAccountProfileInput })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new UpdateAccountProfileCommand(input.id, input.profile, ctx.context));
        return queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(input.id));
      }),
      setPicture: protectedProcedure.input(ZProfilePictureInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeProfilePictureCommand(input.id, input.picture, ctx.context));
        return { id: input.id };
      }),
      delete: protectedProcedure.input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<DeletedAccount>(new DeleteAccountCommand(input.id, ctx.context));
        return { message: accountDeletedMessage(outcome.value) };
      }),
      auth: protectedProcedure.input(z.object({ id: ZAccountId })).query(({ input }) => queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id))),
      setAuth: protectedProcedure.input(ZAccountAuthInput.extend({ id: ZAccountId })).mutation(async ({ input: { id, ...auth }, ctx }) => {
        await gateway.execute(new ChangeAccountAuthCommand(id, auth, ctx.context));
        return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(id));
      }),
      requirePasswordChange: protectedProcedure.input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new RequirePasswordChangeCommand(input.id, ctx.context));
        return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id));
      }),
      setPassword: protectedProcedure.input(ZSetPasswordInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new SetPasswordCommand(input.id, input.password, ctx.context));
        return { message: 'Password updated successfully' };
      }),
      findByUsername: protectedProcedure
        .input(ZFindAccountsByUsernameInput)
        .query(({ input }) => queryBus.execute<FindAccountsByUsernameQuery, TAccountSearchItem[]>(new FindAccountsByUsernameQuery(input.username))),
    }),
    server: router({
      timeZones: protectedProcedure.query(() => supportedTimeZones()),
    }),
    policies: router({
      /** every policy with its rules; pickers read id and title */
      list: protectedProcedure.query(() => queryBus.execute<ListPoliciesQuery, TPolicy[]>(new ListPoliciesQuery())),
      byId: protectedProcedure.input(z.object({ id: ZPasswordPolicyId })).query(({ input }) => queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(input.id))),
      create: protectedProcedure.input(ZPolicyInput).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreatePasswordPolicyCommand(toPolicyRules(input), ctx.context));
        return queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(outcome.value.id));
      }),
      update: protectedProcedure.input(z.object({ id: ZPasswordPolicyId, policy: ZPolicyInput })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new UpdatePasswordPolicyCommand(input.id, toPolicyRules(input.policy), ctx.context));
        return queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(input.id));
      }),
      delete: protectedProcedure.input(z.object({ id: ZPasswordPolicyId })).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; title: string }>(new DeletePasswordPolicyCommand(input.id, ctx.context));
        return { message: policyDeletedMessage(outcome.value.title) };
      }),
    }),
    live: router({
      accounts: protectedProcedure.subscription(async function* ({ signal }) {
        for await (const [message] of on(live.emitter, 'message', { signal })) {
          yield message as TLiveMessage;
        }
      }),
    }),
  });
}

export type AppRouter = ReturnType<typeof buildAppRouter>;
