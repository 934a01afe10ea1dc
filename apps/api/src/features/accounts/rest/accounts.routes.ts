import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountAuthInput,
  ZActivateAccountInput,
  ZActivationToken,
  type TActivationInfo,
  ZAccountId,
  ZChangeOwnPasswordInput,
  ZSetPasswordInput,
  ZCreateAccountInput,
  ZFindAccountsByUsernameInput,
  ZListAccountsInput,
  ZProfilePictureInput,
  ZUpdateAccountProfileInput,
  type TAccount,
  type TAccountAuth,
  type TAccountListItem,
  type TAccountSearchItem,
  type TPage,
} from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { AllowedWhilePasswordChangeRequired, Public } from '../../../platform/access/route-decorators';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { Principal } from '../../../platform/access/principal';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { ChangeAccountAuthCommand } from '../commands/change-account-auth.handler';
import { ChangeOwnPasswordCommand } from '../commands/change-own-password.handler';
import { RequirePasswordChangeCommand } from '../commands/require-password-change.handler';
import { SetPasswordCommand } from '../commands/set-password.handler';
import { GetAccountAuthQuery } from '../queries/get-account-auth.query';
import { ChangeProfilePictureCommand } from '../commands/change-profile-picture.handler';
import { CreateAccountCommand } from '../commands/create-account.handler';
import { accountDeletedMessage, DeleteAccountCommand, type DeletedAccount } from '../commands/delete-account.handler';
import { UpdateAccountProfileCommand } from '../commands/update-account-profile.handler';
import { FindAccountsByUsernameQuery } from '../queries/find-accounts-by-username.query';
import { supportedTimeZones } from '../../../platform/runtime/time-zones';
import { GetAccountQuery } from '../queries/get-account.query';
import { ListAccountsQuery } from '../queries/list-accounts.query';
import { ActivateAccountCommand } from '../commands/activate-account.handler';
import { IssueActivationCommand } from '../commands/issue-activation.handler';
import { UnlockAccountCommand } from '../commands/unlock-account.handler';
import { credentialsCallerOf } from '../own-credentials';
import { GetActivationQuery } from '../queries/get-activation.query';
import { accountStatuses } from '../accounts.answers';
import { answerText, ZAccount, ZAccountAuth, ZAccountListItem, ZAccountSearchItem, ZAccountStatusItem, ZAccountV2Answer, ZActivatedAnswer, ZActivationInfo, ZIdAnswer, ZMessageAnswer, ZPage } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;

/**
 * The accounts calls of the spec, shared by v1 and v2; the subclasses only shape the answers.
 * Express matches in registration order, which is method order here: every fixed path
 * (account/statuses, account/find...) comes before `account/:id`.
 */
export abstract class AccountsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;
  protected abstract wrapAccount(account: TAccount): unknown;

  @Get('account/statuses')
  @Documented({ summary: 'Account statuses (3 = password change required)', answer: ZAccountStatusItem.array() })
  @RequirePermission('accounts:read')
  statuses() {
    return this.wrap(accountStatuses());
  }

  @Post('account')
  @Documented({ summary: 'Create an account', answer: ZIdAnswer, body: ZCreateAccountInput })
  @RequirePermission('accounts:write', on('organization', 'body:organization'))
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateAccountCommand(parseWith(ZCreateAccountInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  @Get('accounts')
  @Documented({ summary: 'List accounts: paging, search, status filter, sort', answer: ZPage(ZAccountListItem), query: ZListAccountsInput })
  @RequirePermission('accounts:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListAccountsQuery, TPage<TAccountListItem>>(new ListAccountsQuery(parseWith(ZListAccountsInput, query), listScope(principal, 'accounts:read'))));
  }

  /** the profile form's time zone picker */
  @Get('server/supported-time-zones')
  @Documented({ summary: 'IANA time zones the server accepts on profiles', answer: answerText(64).array() })
  @RequirePermission('accounts:read')
  timeZones() {
    return this.wrap(supportedTimeZones());
  }

  /** the spec's query form */
  @Get('account/find')
  @Documented({ summary: 'Find accounts by username: case-insensitive prefix, at most 20 (query form)', answer: ZAccountSearchItem.array(), query: ZFindAccountsByUsernameInput })
  @RequirePermission('accounts:read')
  async find(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.findByUsername(query, principal));
  }

  /** v1's form in the spec */
  @Get('account/find/username')
  @Documented({ summary: 'Find accounts by username (the v1 form of the spec)', answer: ZAccountSearchItem.array(), query: ZFindAccountsByUsernameInput })
  @RequirePermission('accounts:read')
  async findV1Form(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.findByUsername(query, principal));
  }

  /** v2's form in the spec */
  @Get('account/username/:search')
  @Documented({ summary: 'Find accounts by username (the v2 form of the spec)', answer: ZAccountSearchItem.array() })
  @RequirePermission('accounts:read')
  async findV2Form(@Param('search') search: string, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.findByUsername({ username: search }, principal));
  }

  /** public: the activation page asks whether its link works (404 activation.invalid when not) */
  @Public()
  @Get('account/activation/:token')
  @Documented({ summary: 'Is this activation link valid? Its username, expiry and the password policy rules; 404 activation.invalid for unknown, used, replaced and expired links alike', answer: ZActivationInfo })
  async readActivation(@Param('token') token: string) {
    return this.wrap(await this.queryBus.execute<GetActivationQuery, TActivationInfo>(new GetActivationQuery(parseWith(z.object({ token: ZActivationToken }), { token }).token)));
  }

  /** public: the owner sets the first password with the link's token; the link then stops working */
  @Public()
  @Post('account/activate')
  @Documented({ summary: "Set the first password with an activation token under the account's policy; status 4 becomes 1 and the link stops working", answer: ZActivatedAnswer, body: ZActivateAccountInput })
  @HttpCode(200)
  async activate(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { token, password } = parseWith(ZActivateAccountInput, body);
    const outcome = await this.gateway.execute<{ id: string; username: string }>(new ActivateAccountCommand(token, password, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Account activated', username: outcome.value.username });
  }

  private findByUsername(query: Record<string, unknown>, principal: Principal) {
    const { username } = parseWith(ZFindAccountsByUsernameInput, query);
    return this.queryBus.execute<FindAccountsByUsernameQuery, TAccountSearchItem[]>(new FindAccountsByUsernameQuery(username, listScope(principal, 'accounts:read')));
  }

  @Get('account/:id')
  @Documented({ summary: 'Read one account', answer: ZAccount, v2Answer: ZAccountV2Answer })
  @RequirePermission('accounts:read', on('account', 'param:id'))
  async read(@Param('id') id: string) {
    return this.wrapAccount(await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountIdOf(id))));
  }

  @Put('account/:id')
  @Documented({ summary: 'Update the profile of an account; answers the account', answer: ZAccount, v2Answer: ZAccountV2Answer, body: ZUpdateAccountProfileInput })
  @RequirePermission('accounts:write', onWholeAccount('param:id'))
  async update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new UpdateAccountProfileCommand(accountId, parseWith(ZUpdateAccountProfileInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrapAccount(await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountId)));
  }

  @Delete('account/:id')
  @Documented({ summary: 'Delete an account; refused (403) for protected accounts', answer: ZMessageAnswer })
  @RequirePermission('accounts:delete', onWholeAccount('param:id'))
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<DeletedAccount>(new DeleteAccountCommand(accountIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: accountDeletedMessage(outcome.value) });
  }

  @Patch('account/:id/profile-picture')
  @Documented({ summary: 'Set (PNG, JPEG, WebP, GIF data URL, at most 512 KB) or remove (null) the profile picture', answer: ZIdAnswer, body: ZProfilePictureInput })
  @RequirePermission('accounts:write', onWholeAccount('param:id'))
  async setPicture(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { picture } = parseWith(ZProfilePictureInput, body);
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeProfilePictureCommand(accountId, picture, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ id: accountId });
  }

  @Get('account/:id/auth')
  @Documented({ summary: 'Auth info of an account: username, policy_id (text or null), status_id', answer: ZAccountAuth })
  @RequirePermission('accounts:read', on('account', 'param:id'))
  async readAuth(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountIdOf(id))));
  }

  @Put('account/:id/auth')
  @Documented({ summary: "Change status and/or policy (null: none); fields left out keep their values; the username cannot change here. The caller's own: 403 account.own_credentials_need_recent_sign_in unless its session signed in within 5 minutes", answer: ZAccountAuth, body: ZAccountAuthInput })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  async writeAuth(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeAccountAuthCommand(accountId, parseWith(ZAccountAuthInput, body), context, credentialsCallerOf(principal)));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountId)));
  }

  @Patch('account/:id/password/next-login')
  @Documented({ summary: 'Require a password change on next login (status 3); answers the auth info', answer: ZAccountAuth })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  async requirePasswordChange(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new RequirePasswordChangeCommand(accountId, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountId)));
  }

  /** a new activation mail for an account awaiting activation (status 4); the earlier link stops working */
  @Post('account/:id/activation')
  @Documented({ summary: 'Send a new activation e-mail to an account awaiting activation (status 4); the earlier link stops working. 400 activation.not_awaiting otherwise', answer: ZMessageAnswer })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  @HttpCode(202)
  async resendActivation(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new IssueActivationCommand(accountId, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Activation e-mail sent' });
  }

  /** ends a lockout and forgets the failed sign-ins; answers the auth info */
  @Post('account/:id/unlock')
  @Documented({ summary: "End a lockout and reset the failed sign-in count; answers the auth info. The caller's own: 403 account.own_credentials_need_recent_sign_in unless its session signed in within 5 minutes", answer: ZAccountAuth })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  @HttpCode(200)
  async unlock(@Param('id') id: string, @Ctx() context: RequestContext, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new UnlockAccountCommand(accountId, context, credentialsCallerOf(principal)));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountId)));
  }

  /** the spec leaves the method open: PUT and PATCH both set the password */
  @Put('account/:id/password')
  @Documented({ summary: "Set the password under the account's policy (length, strength, history); 403 account.own_password_via_own_page for the caller's own account", answer: ZMessageAnswer, body: ZSetPasswordInput })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  async setPassword(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { password } = parseWith(ZSetPasswordInput, body);
    const outcome = await this.gateway.execute<{ id: string }>(new SetPasswordCommand(accountId, password, context, principal.accountId));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Password updated successfully' });
  }

  @Patch('account/:id/password')
  @Documented({ summary: 'As PUT (the spec leaves the method open)', answer: ZMessageAnswer, body: ZSetPasswordInput })
  @RequirePermission('accounts:credentials', onWholeAccount('param:id'))
  async setPasswordByPatch(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response) {
    return this.setPassword(id, body, context, principal, response);
  }

  /** the signed-in account's own change; the one write a session restricted to changing its password may make */
  @AllowedWhilePasswordChangeRequired()
  @Post('account/password/change')
  @Documented({ summary: 'The signed-in account changes its own password (allowed to a session that must change it)', answer: ZMessageAnswer, body: ZChangeOwnPasswordInput })
  @HttpCode(200)
  async changeOwnPassword(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeOwnPasswordCommand(principal.accountId, parseWith(ZChangeOwnPasswordInput, body), context, principal.kind === 'session' ? principal.sessionId : null));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Password updated successfully' });
  }
}
