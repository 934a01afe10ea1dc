import { Body, Get, Param, Put, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAccountClaimsInput, ZAccountId, type TAccountClaimGroup } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { on, onWholeAccount } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { SetAccountClaimsCommand } from '../commands/set-account-claims.handler';
import { GetAccountClaimsQuery } from '../queries/get-account-claims.query';
import { ZAccountClaimGroups, ZAccountClaimGroupsV1 } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;

/**
 * An account's single sign-on claims (console-accounts.md tab 10, docs/adr/0014). The spec shows
 * only the v1 read; the write (`PUT`, only the changed claims) is ours and v2 only. Both need the
 * accounts permission where the account is (docs/adr/0011).
 */
export abstract class SsoClaimsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrapClaims(groups: TAccountClaimGroup[]): unknown;

  protected groups(accountId: string) {
    return this.queryBus.execute<GetAccountClaimsQuery, TAccountClaimGroup[]>(new GetAccountClaimsQuery(accountId));
  }

  @Get('account/:id/claims')
  @Documented({ summary: "The account's single sign-on claims: one group per scope (title, description, num_members) with each claim's title, description, scope and value (null: the profile's value is released)", answer: ZAccountClaimGroupsV1, v2Answer: ZAccountClaimGroups })
  @RequirePermission('accounts:read', on('account', 'param:id'))
  async read(@Param('id') id: string) {
    return this.wrapClaims(await this.groups(accountIdOf(id)));
  }
}

/** v2 adds the write; v1 stays read-only. */
export abstract class SsoClaimsWriteRoutes extends SsoClaimsRoutes {
  @Put('account/:id/claims')
  @Documented({ summary: 'Set claim values: only the claims sent change; null or empty text clears one (its profile value is released again)', answer: ZAccountClaimGroups, body: ZAccountClaimsInput })
  @RequirePermission('accounts:write', onWholeAccount('param:id'))
  async write(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { claims } = parseWith(ZAccountClaimsInput, body);
    const outcome = await this.gateway.execute<{ id: string }>(new SetAccountClaimsCommand(accountId, claims, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrapClaims(await this.groups(accountId));
  }
}
