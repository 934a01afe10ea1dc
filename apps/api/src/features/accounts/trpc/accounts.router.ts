import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountAuthInput,
  ZAccountId,
  ZActivateAccountInput,
  ZActivationToken,
  ZChangeOwnPasswordInput,
  ZCreateAccountInput,
  ZFindAccountsByUsernameInput,
  ZImportAccountsInput,
  ZListAccountsInput,
  ZProfilePictureInput,
  ZSetPasswordInput,
  ZUpdateAccountProfileInput,
  type TAccount,
  type TAccountAuth,
  type TAccountListItem,
  type TAccountSearchItem,
  type TActivationInfo,
  type TImportAccountsResult,
  type TLiveMessage,
  type TPage
} from '@rollcall/contracts';
import { on as eventsOf } from 'node:events';
import { z } from 'zod';
import { listScope } from '../../../platform/access/permissions';
import { EVERYWHERE, on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { MESSAGE_CHANNEL, type LiveFeed } from '../../../platform/live/live-feed';
import { supportedTimeZones } from '../../../platform/runtime/time-zones';
import { permittedProcedure, publicProcedure, router, sessionProcedureAllowedWhile } from '../../../platform/trpc/trpc';
import { accountStatuses } from '../accounts.answers';
import { ActivateAccountCommand } from '../commands/activate-account.handler';
import { ChangeAccountAuthCommand } from '../commands/change-account-auth.handler';
import { ChangeOwnPasswordCommand } from '../commands/change-own-password.handler';
import { ChangeProfilePictureCommand } from '../commands/change-profile-picture.handler';
import { CreateAccountCommand } from '../commands/create-account.handler';
import { accountDeletedMessage, DeleteAccountCommand, type DeletedAccount } from '../commands/delete-account.handler';
import { EraseAccountPersonalDataCommand, PERSONAL_DATA_ERASED_MESSAGE } from '../commands/erase-account-personal-data.handler';
import { ImportAccountsCommand } from '../commands/import-accounts.handler';
import { IssueActivationCommand } from '../commands/issue-activation.handler';
import { RequirePasswordChangeCommand } from '../commands/require-password-change.handler';
import { SetPasswordCommand } from '../commands/set-password.handler';
import { UnlockAccountCommand } from '../commands/unlock-account.handler';
import { credentialsCallerOf } from '../own-credentials';
import { UpdateAccountProfileCommand } from '../commands/update-account-profile.handler';
import { FindAccountsByUsernameQuery } from '../queries/find-accounts-by-username.query';
import { GetAccountAuthQuery } from '../queries/get-account-auth.query';
import { GetAccountQuery } from '../queries/get-account.query';
import { GetActivationQuery } from '../queries/get-activation.query';
import { ListAccountsQuery } from '../queries/list-accounts.query';

/** Accounts for the console: the same command and query handlers as REST v1 and v2. */
export function buildAccountsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  return router({
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
      await gateway.execute(new ChangeAccountAuthCommand(id, auth, ctx.context, credentialsCallerOf(ctx.principal)));
      return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(id));
    }),
    requirePasswordChange: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(z.object({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RequirePasswordChangeCommand(input.id, ctx.context));
      return queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(input.id));
    }),
    setPassword: permittedProcedure('accounts:credentials', onWholeAccount('input:id')).input(ZSetPasswordInput.extend({ id: ZAccountId })).mutation(async ({ input, ctx }) => {
      await gateway.execute(new SetPasswordCommand(input.id, input.password, ctx.context, ctx.principal.accountId));
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
      await gateway.execute(new UnlockAccountCommand(input.id, ctx.context, credentialsCallerOf(ctx.principal)));
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
  });
}

/** what the server knows that pickers offer (the account profile's time zone) */
export function buildServerRouter() {
  return router({
    timeZones: permittedProcedure('accounts:read').query(() => supportedTimeZones()),
  });
}

/**
 * `live.accounts`: account changes, each to those who may read that account (docs/adr/0011); each kind needs
 * the permission of its HTTP read (projection lag: GET projections, projections:manage everywhere), and a
 * kind without a rule here is not pushed.
 */
export const accountsLiveProcedure = (live: LiveFeed) =>
  permittedProcedure('accounts:read').subscription(async function* ({ ctx, signal }) {
    for await (const [message] of eventsOf(live.emitter, MESSAGE_CHANNEL, { signal })) {
      const change = message as TLiveMessage;
      if (change.kind === 'account.changed') {
        if (!(await ctx.access.permits(ctx.principal, 'accounts:read', 'account', change.accountId))) continue;
      } else if (change.kind === 'projection.lag') {
        if (!(ctx.live ? await ctx.live.current() : ctx.principal).grants.everywhere.has('projections:manage')) continue;
      } else continue;
      yield change;
    }
  });

/** the signed-in account's own change (`auth.changePassword`); allowed to a session that must change its password, as REST's (not to one that must enrol a second factor) */
export const changeOwnPasswordProcedure = ({ gateway }: { gateway: CommandGateway }) =>
  sessionProcedureAllowedWhile({ passwordChangeRequired: true }).input(ZChangeOwnPasswordInput).mutation(async ({ input, ctx }) => {
    await gateway.execute(new ChangeOwnPasswordCommand(ctx.principal.accountId, input, ctx.context, ctx.principal.sessionId));
    return { message: 'Password updated successfully' };
  });
