import { Body, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  SYSTEM_PERMISSIONS,
  ZAccessTokenId,
  ZAccountId,
  ZCreateAccessTokenInput,
  ZListAccessTokensInput,
  ZUpdateAccessTokenInput,
  type TAccessToken,
  type TPage,
} from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import type { Principal } from '../../../platform/access/principal';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { IssueAccessTokenCommand, type IssuedAccessToken } from '../commands/issue-access-token.handler';
import { RevokeAccessTokenCommand } from '../commands/revoke-access-token.handler';
import { UpdateAccessTokenCommand } from '../commands/update-access-token.handler';
import { GetAccessTokenQuery } from '../queries/get-access-token.query';
import { ListAccessTokensQuery } from '../queries/list-access-tokens.query';
import { createdAccessToken, tokenDeletedMessage } from '../access-tokens.answers';
import { ZAccessToken, ZCreatedAccessToken, ZMessageAnswer, ZPage, ZSystemPermissionItem } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const tokenIdOf = (id: string) => parseWith(z.object({ id: ZAccessTokenId }), { id }).id;
const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;

/** The token calls of the spec (console-directory.md section 7 v1 and v2, console-accounts.md section 7), shared by v1 and v2. */
export abstract class AccessTokensRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  /** what an access token (and later a role) can be granted */
  @Get('permissions/system')
  @Documented({ summary: 'The system permissions an access token (or a role) can be granted: slug and label', answer: ZSystemPermissionItem.array() })
  @RequirePermission('tokens:read')
  systemPermissions() {
    return this.wrap(SYSTEM_PERMISSIONS.map(({ slug, value }) => ({ slug, value })));
  }

  @Get('tokens')
  @Documented({ summary: 'Access tokens, newest first: paging, sort, optional account_id', answer: ZPage(ZAccessToken), query: ZListAccessTokensInput })
  @RequirePermission('tokens:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListAccessTokensQuery, TPage<TAccessToken>>(new ListAccessTokensQuery(parseWith(ZListAccessTokensInput, query), listScope(principal, 'tokens:read'))));
  }

  @Get('account/:id/bearer-tokens')
  @Documented({ summary: "An account's access tokens (same paging as tokens)", answer: ZPage(ZAccessToken), query: ZListAccessTokensInput })
  @RequirePermission('tokens:read', on('account', 'param:id'))
  async listOfAccount(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const input = parseWith(ZListAccessTokensInput, { ...query, account_id: accountIdOf(id) });
    return this.wrap(await this.queryBus.execute<ListAccessTokensQuery, TPage<TAccessToken>>(new ListAccessTokensQuery(input, listScope(principal, 'tokens:read'))));
  }

  @Post('token')
  @Documented({ summary: 'Create an access token; the answer carries the secret (token, unique_id) this once. Also POST token/. A `token` field in the body is ignored: the server generates the secret', answer: ZCreatedAccessToken, body: ZCreateAccessTokenInput })
  @RequirePermission('tokens:write', onWholeAccount('body:account_id'))
  @HttpCode(201)
  async create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<IssuedAccessToken>(new IssueAccessTokenCommand(parseWith(ZCreateAccessTokenInput, body), principal, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await createdAccessToken(this.queryBus, outcome.value));
  }

  @Get('token/:id')
  @Documented({ summary: 'One access token (without its secret)', answer: ZAccessToken })
  @RequirePermission('tokens:read', on('token', 'param:id'))
  async read(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<GetAccessTokenQuery, TAccessToken>(new GetAccessTokenQuery(tokenIdOf(id))));
  }

  @Put('token/:id')
  @Documented({ summary: 'Change title, permissions, restrictions or expiry of an access token; answers the token', answer: ZAccessToken, body: ZUpdateAccessTokenInput })
  @RequirePermission('tokens:write', onWholeAccount('param:id', 'token'))
  async update(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const tokenId = tokenIdOf(id);
    const outcome = await this.gateway.execute(new UpdateAccessTokenCommand(tokenId, parseWith(ZUpdateAccessTokenInput, body), principal, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAccessTokenQuery, TAccessToken>(new GetAccessTokenQuery(tokenId)));
  }

  @Delete('token/:id')
  @Documented({ summary: 'Delete (revoke) an access token: the next request with it is refused', answer: ZMessageAnswer })
  @RequirePermission('tokens:write', onWholeAccount('param:id', 'token'))
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; title: string }>(new RevokeAccessTokenCommand(tokenIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: tokenDeletedMessage(outcome.value.title) });
  }
}
