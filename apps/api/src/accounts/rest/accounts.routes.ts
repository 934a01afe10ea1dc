import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ACCOUNT_STATUS_IDS,
  ACCOUNT_STATUS_LABELS,
  ZAccountAuthInput,
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
import type { RequestContext } from '../../application/request-context';
import { AllowedWhilePasswordChangeRequired, Ctx, CurrentPrincipal } from '../../auth/auth.guard';
import type { Principal } from '../../auth/principal';
import { CommandGateway } from '../../core/command-gateway';
import { writeConsistencyHeaders } from '../../http/consistency-headers';
import { parseWith } from '../../http/zod-body';
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
import { supportedTimeZones } from '../time-zones';
import { GetAccountQuery } from '../queries/get-account.query';
import { ListAccountsQuery } from '../queries/list-accounts.query';

const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;

export const accountStatuses = () => ACCOUNT_STATUS_IDS.map((id) => ({ id, label: ACCOUNT_STATUS_LABELS[id] }));

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
  statuses() {
    return this.wrap(accountStatuses());
  }

  @Post('account')
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateAccountCommand(parseWith(ZCreateAccountInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  @Get('accounts')
  async list(@Query() query: Record<string, unknown>) {
    return this.wrap(await this.queryBus.execute<ListAccountsQuery, TPage<TAccountListItem>>(new ListAccountsQuery(parseWith(ZListAccountsInput, query))));
  }

  /** the profile form's time zone picker */
  @Get('server/supported-time-zones')
  timeZones() {
    return this.wrap(supportedTimeZones());
  }

  /** the spec's query form */
  @Get('account/find')
  async find(@Query() query: Record<string, unknown>) {
    return this.wrap(await this.findByUsername(query));
  }

  /** v1's form in the spec */
  @Get('account/find/username')
  async findV1Form(@Query() query: Record<string, unknown>) {
    return this.wrap(await this.findByUsername(query));
  }

  /** v2's form in the spec */
  @Get('account/username/:search')
  async findV2Form(@Param('search') search: string) {
    return this.wrap(await this.findByUsername({ username: search }));
  }

  private findByUsername(query: Record<string, unknown>) {
    const { username } = parseWith(ZFindAccountsByUsernameInput, query);
    return this.queryBus.execute<FindAccountsByUsernameQuery, TAccountSearchItem[]>(new FindAccountsByUsernameQuery(username));
  }

  @Get('account/:id')
  async read(@Param('id') id: string) {
    return this.wrapAccount(await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountIdOf(id))));
  }

  @Put('account/:id')
  async update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new UpdateAccountProfileCommand(accountId, parseWith(ZUpdateAccountProfileInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrapAccount(await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountId)));
  }

  @Delete('account/:id')
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<DeletedAccount>(new DeleteAccountCommand(accountIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: accountDeletedMessage(outcome.value) });
  }

  @Patch('account/:id/profile-picture')
  async setPicture(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { picture } = parseWith(ZProfilePictureInput, body);
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeProfilePictureCommand(accountId, picture, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ id: accountId });
  }

  @Get('account/:id/auth')
  async readAuth(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountIdOf(id))));
  }

  @Put('account/:id/auth')
  async writeAuth(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeAccountAuthCommand(accountId, parseWith(ZAccountAuthInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountId)));
  }

  @Patch('account/:id/password/next-login')
  async requirePasswordChange(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new RequirePasswordChangeCommand(accountId, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccountAuthQuery, TAccountAuth>(new GetAccountAuthQuery(accountId)));
  }

  /** the spec leaves the method open: PUT and PATCH both set the password */
  @Put('account/:id/password')
  async setPassword(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { password } = parseWith(ZSetPasswordInput, body);
    const outcome = await this.gateway.execute<{ id: string }>(new SetPasswordCommand(accountId, password, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Password updated successfully' });
  }

  @Patch('account/:id/password')
  async setPasswordByPatch(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.setPassword(id, body, context, response);
  }

  /** the signed-in account's own change; the one write a session restricted to changing its password may make */
  @AllowedWhilePasswordChangeRequired()
  @Post('account/password/change')
  @HttpCode(200)
  async changeOwnPassword(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new ChangeOwnPasswordCommand(principal.accountId, parseWith(ZChangeOwnPasswordInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: 'Password updated successfully' });
  }
}
