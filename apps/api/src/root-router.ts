import { on as eventsOf } from 'node:events';
import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountAuthInput,
  ZActivateAccountInput,
  ZActivationToken,
  type TActivationInfo,
  ZAccountId,
  ZChangeOwnPasswordInput,
  ZSetPasswordInput,
  ZAuthenticateInput,
  ZCreateAccountInput,
  ZImportAccountsInput,
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
  type TImportAccountsResult,
  type TCurrentAccount,
  type TLiveMessage,
  type TPage,
  type TPolicy,
  SYSTEM_PERMISSIONS,
  ZAccessTokenId,
  ZCreateAccessTokenInput,
  ZListAccessTokensInput,
  ZUpdateAccessTokenInput,
  type TAccessToken,
} from '@rollcall/contracts';
import { z } from 'zod';
import { IssueAccessTokenCommand, type IssuedAccessToken } from './features/access-tokens/commands/issue-access-token.handler';
import { RevokeAccessTokenCommand } from './features/access-tokens/commands/revoke-access-token.handler';
import { UpdateAccessTokenCommand } from './features/access-tokens/commands/update-access-token.handler';
import { GetAccessTokenQuery } from './features/access-tokens/queries/get-access-token.query';
import { ListAccessTokensQuery } from './features/access-tokens/queries/list-access-tokens.query';
import { createdAccessToken, tokenDeletedMessage } from './features/access-tokens/rest/access-tokens.routes';
import { ChangeAccountAuthCommand } from './features/accounts/commands/change-account-auth.handler';
import { ChangeOwnPasswordCommand } from './features/accounts/commands/change-own-password.handler';
import { RequirePasswordChangeCommand } from './features/accounts/commands/require-password-change.handler';
import { SetPasswordCommand } from './features/accounts/commands/set-password.handler';
import { GetAccountAuthQuery } from './features/accounts/queries/get-account-auth.query';
import { ChangeProfilePictureCommand } from './features/accounts/commands/change-profile-picture.handler';
import { CreateAccountCommand } from './features/accounts/commands/create-account.handler';
import { ImportAccountsCommand } from './features/accounts/commands/import-accounts.handler';
import { accountDeletedMessage, DeleteAccountCommand, type DeletedAccount } from './features/accounts/commands/delete-account.handler';
import { EraseAccountPersonalDataCommand, PERSONAL_DATA_ERASED_MESSAGE } from './features/accounts/commands/erase-account-personal-data.handler';
import { UpdateAccountProfileCommand } from './features/accounts/commands/update-account-profile.handler';
import { FindAccountsByUsernameQuery } from './features/accounts/queries/find-accounts-by-username.query';
import { supportedTimeZones } from './platform/runtime/time-zones';
import { GetAccountQuery } from './features/accounts/queries/get-account.query';
import { ListAccountsQuery } from './features/accounts/queries/list-accounts.query';
import { ActivateAccountCommand } from './features/accounts/commands/activate-account.handler';
import { IssueActivationCommand } from './features/accounts/commands/issue-activation.handler';
import { UnlockAccountCommand } from './features/accounts/commands/unlock-account.handler';
import { GetActivationQuery } from './features/accounts/queries/get-activation.query';
import { accountStatuses } from './features/accounts/rest/accounts.routes';
import { SignInCommand, type SignInResult } from './features/auth/commands/sign-in.handler';
import { SignOutCommand } from './features/auth/commands/sign-out.handler';
import { CurrentAccountQuery } from './features/auth/queries/current-account.query';
import type { CommandGateway } from './platform/commands/command-gateway';
import { MESSAGE_CHANNEL, type LiveFeed } from './platform/live/live-feed';
import { CreatePasswordPolicyCommand } from './features/policies/commands/create-password-policy.handler';
import { DeletePasswordPolicyCommand } from './features/policies/commands/delete-password-policy.handler';
import { UpdatePasswordPolicyCommand } from './features/policies/commands/update-password-policy.handler';
import { toPolicyRules } from './features/policies/policy-input';
import { GetPolicyQuery } from './features/policies/queries/get-policy.query';
import { ListPoliciesQuery } from './features/policies/queries/list-policies.query';
import { policyDeletedMessage } from './features/policies/rest/policies.routes';
import { buildOrganizationsRouter } from './features/organizations/trpc/organizations.router';
import { buildTeamsRouter } from './features/teams/trpc/teams.router';
import { buildAttendanceStatusesRouter } from './features/attendance-statuses/trpc/attendance-statuses.router';
import { buildCalendarRouter } from './features/calendar/trpc/calendar.router';
import { buildApplicationsRouter } from './features/applications/trpc/applications.router';
import { listScope } from './platform/access/permissions';
import { EVERYWHERE, on, onWholeAccount } from './platform/access/resource-requirements';
import { permittedProcedure, publicProcedure, router, sessionProcedure } from './platform/trpc/trpc';
import { buildReadersRouter } from './features/readers/trpc/readers.router';
import { attendanceLiveProcedure, buildSmartCardsRouter } from './features/attendance/trpc/attendance.router';
import { buildArrivalsDeparturesRouter } from './features/attendance/trpc/arrivals-departures.router';
import { buildAttendanceReportsRouter } from './features/attendance/trpc/attendance-reports.router';
import { buildAuditRouter } from './features/audit/trpc/audit.router';
import type { ProjectionsService } from './platform/projections/projections.service';
import { buildConsentsRouter } from './features/oidc/trpc/oidc.router';
import { buildSsoClaimsRouter } from './features/sso-claims/trpc/sso-claims.router';

export interface AppRouterDeps {
  gateway: CommandGateway;
  queryBus: QueryBus;
  live: LiveFeed;
  projectionsService: ProjectionsService;
}

/** The console's API: the same command and query handlers as REST v1 and v2. */
export function buildAppRouter({ gateway, queryBus, live, projectionsService }: AppRouterDeps) {
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
      me: sessionProcedure.query(({ ctx }) => queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(ctx.principal.accountId, ctx.principal.grants))),
      /** the signed-in account's own change; allowed to a session that must change its password */
      changePassword: sessionProcedure.input(ZChangeOwnPasswordInput).mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeOwnPasswordCommand(ctx.principal.accountId, input, ctx.context, ctx.principal.sessionId));
        return { message: 'Password updated successfully' };
      }),
    }),
    accounts: router({
      list: permittedProcedure('accounts:read').input(ZListAccountsInput).query(({ input, ctx }) => queryBus.execute<ListAccountsQuery, TPage<TAccountListItem>>(new ListAccountsQuery(input, listScope(ctx.principal, 'accounts:read')))),
      byId: permittedProcedure('accounts:read', on('account', 'input:id')).input(z.object({ id: ZAccountId })).query(({ input }) => queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(input.id))),
      statuses: permittedProcedure('accounts:read').query(() => accountStatuses()),
      create: permittedProcedure('accounts:write', on('organization', 'input:organization')).input(ZCreateAccountInput).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateAccountCommand(input, ctx.context));
        return outcome.value;
      }),
      update: permittedProcedure('accounts:write', onWholeAccount('input:id')).input(z.object({ id: ZAccountId, profile: ZUpdateAccountProfileInput })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new UpdateAccountProfileCommand(input.id, input.profile, ctx.context));
        return queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(input.id));
      }),
      setPicture: permittedProcedure('accounts:write', onWholeAccount('input:id')).input(ZProfilePictureInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeProfilePictureCommand(input.id, input.picture, ctx.context));
        return { id: input.id };
      }),
      delete: permittedProcedure('accounts:delete', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<DeletedAccount>(new DeleteAccountCommand(input.id, ctx.context));
        return { message: accountDeletedMessage(outcome.value) };
      }),
      erasePersonalData: permittedProcedure('accounts:delete', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new EraseAccountPersonalDataCommand(input.id, ctx.context));
        return { message: PERSONAL_DATA_ERASED_MESSAGE };
      }),
      auth: permittedProcedure('accounts:read', on('account', 'input:id')).input(z.object({ id: ZAccountId })).query(({ input }) => queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id))),
      setAuth: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(ZAccountAuthInput.extend({ id: ZAccountId })).mutation(async ({ input: { id, ...auth }, ctx }) => {
        await gateway.execute(new ChangeAccountAuthCommand(id, auth, ctx.context));
        return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(id));
      }),
      requirePasswordChange: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new RequirePasswordChangeCommand(input.id, ctx.context));
        return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id));
      }),
      setPassword: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(ZSetPasswordInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new SetPasswordCommand(input.id, input.password, ctx.context));
        return { message: 'Password updated successfully' };
      }),
      /** public: the activation page (docs/adr/0008) */
      activation: publicProcedure.input(z.object({ token: ZActivationToken })).query(({ input }) => queryBus.execute<GetActivationQuery, TActivationInfo>(new GetActivationQuery(input.token))),
      activate: publicProcedure.input(ZActivateAccountInput).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; username: string }>(new ActivateAccountCommand(input.token, input.password, ctx.context));
        return { message: 'Account activated', username: outcome.value.username };
      }),
      resendActivation: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new IssueActivationCommand(input.id, ctx.context));
        return { message: 'Activation e-mail sent' };
      }),
      unlock: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
        await gateway.execute(new UnlockAccountCommand(input.id, ctx.context));
        return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id));
      }),
      findByUsername: permittedProcedure('accounts:read')
        .input(ZFindAccountsByUsernameInput)
        .query(({ input, ctx }) => queryBus.execute<FindAccountsByUsernameQuery, TAccountSearchItem[]>(new FindAccountsByUsernameQuery(input.username, listScope(ctx.principal, 'accounts:read')))),
      /** rows mapped by the console; it sends a big file in chunks of at most IMPORT_CHUNK_ROWS */
      importCsv: permittedProcedure('accounts:import', EVERYWHERE).input(ZImportAccountsInput).mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<TImportAccountsResult>(new ImportAccountsCommand(input, ctx.context));
        return outcome.value;
      }),
    }),
    server: router({
      timeZones: permittedProcedure('accounts:read').query(() => supportedTimeZones()),
    }),
    policies: router({
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
    }),
    tokens: router({
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
    }),
    organizations: buildOrganizationsRouter({ gateway, queryBus }),
    teams: buildTeamsRouter({ gateway, queryBus }),
    attendanceStatuses: buildAttendanceStatusesRouter({ gateway, queryBus }),
    calendar: buildCalendarRouter({ gateway, queryBus }),
    applications: buildApplicationsRouter({ gateway, queryBus }),
    readers: buildReadersRouter({ gateway, queryBus }),
    smartCards: buildSmartCardsRouter({ gateway, queryBus }),
    arrivalsDepartures: buildArrivalsDeparturesRouter({ gateway, queryBus }),
    attendanceReports: buildAttendanceReportsRouter({ queryBus }),
    audit: buildAuditRouter({ gateway, queryBus, projectionsService }),
    consents: buildConsentsRouter({ gateway, queryBus }),
    ssoClaims: buildSsoClaimsRouter({ gateway, queryBus }),
    live: router({
      attendance: attendanceLiveProcedure(live),
      /**
       * account changes, each to those who may read that account (docs/adr/0011); each kind needs the
       * permission of its HTTP read (projection lag: GET projections, projections:manage everywhere),
       * and a kind without a rule here is not pushed
       */
      accounts: permittedProcedure('accounts:read').subscription(async function* ({ ctx, signal }) {
        for await (const [message] of eventsOf(live.emitter, MESSAGE_CHANNEL, { signal })) {
          const change = message as TLiveMessage;
          if (change.kind === 'account.changed') {
            if (!(await ctx.access.permits(ctx.principal, 'accounts:read', 'account', change.accountId))) continue;
          } else if (change.kind === 'projection.lag') {
            if (!(ctx.live ? await ctx.live.current() : ctx.principal).grants.everywhere.has('projections:manage')) continue;
          } else continue;
          yield change;
        }
      }),
    }),
  });
}

export type AppRouter = ReturnType<typeof buildAppRouter>;
