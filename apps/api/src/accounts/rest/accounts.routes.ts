import { Body, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ACCOUNT_STATUS_IDS, ACCOUNT_STATUS_LABELS, ZAccountId, ZCreateAccountInput, ZListAccountsInput, type TAccount, type TAccountListItem, type TPage } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../application/request-context';
import { Ctx } from '../../auth/auth.guard';
import { CommandGateway } from '../../core/command-gateway';
import { writeConsistencyHeaders } from '../../http/consistency-headers';
import { parseWith } from '../../http/zod-body';
import { CreateAccountCommand } from '../commands/create-account.handler';
import { GetAccountQuery } from '../queries/get-account.query';
import { ListAccountsQuery } from '../queries/list-accounts.query';

export const accountStatuses = () => ACCOUNT_STATUS_IDS.map((id) => ({ id, label: ACCOUNT_STATUS_LABELS[id] }));

/** The accounts calls of the spec, shared by v1 and v2; the subclasses only shape the answers. */
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

  @Get('account/:id')
  async read(@Param('id') id: string) {
    const { id: accountId } = parseWith(z.object({ id: ZAccountId }), { id });
    return this.wrapAccount(await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountId)));
  }
}
