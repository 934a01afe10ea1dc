import { Body, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZPasswordPolicyId, ZPolicyInput, type TPolicy } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { CreatePasswordPolicyCommand } from '../commands/create-password-policy.handler';
import { DeletePasswordPolicyCommand } from '../commands/delete-password-policy.handler';
import { UpdatePasswordPolicyCommand } from '../commands/update-password-policy.handler';
import { toPolicyRules } from '../policy-input';
import { GetPolicyQuery } from '../queries/get-policy.query';
import { ListPoliciesQuery } from '../queries/list-policies.query';
import { policyDeletedMessage } from '../policies.answers';
import { ZMessageAnswer, ZPolicy } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const policyIdOf = (id: string) => parseWith(z.object({ id: ZPasswordPolicyId }), { id }).id;

/** The policy calls of the spec (console-directory.md section 7), shared by v1 and v2. */
export abstract class PoliciesRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  @Get('policies')
  @Documented({ summary: 'List password policies (oldest first, not paged) with the number of accounts using each', answer: ZPolicy.array() })
  @RequirePermission('policies:read')
  async list() {
    return this.wrap(await this.queryBus.execute<ListPoliciesQuery, TPolicy[]>(new ListPoliciesQuery()));
  }

  @Post('policy')
  @Documented({ summary: 'Create a password policy (title unique case-insensitively)', answer: ZPolicy, body: ZPolicyInput })
  @RequirePermission('policies:write', EVERYWHERE)
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreatePasswordPolicyCommand(toPolicyRules(parseWith(ZPolicyInput, body)), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(outcome.value.id)));
  }

  @Put('policy/:id')
  @Documented({ summary: 'Update a password policy (the whole body, as on create)', answer: ZPolicy, body: ZPolicyInput })
  @RequirePermission('policies:write', EVERYWHERE)
  async update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const policyId = policyIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new UpdatePasswordPolicyCommand(policyId, toPolicyRules(parseWith(ZPolicyInput, body)), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetPolicyQuery, TPolicy>(new GetPolicyQuery(policyId)));
  }

  @Delete('policy/:id')
  @Documented({ summary: 'Delete a password policy; refused (409) while accounts use it', answer: ZMessageAnswer })
  @RequirePermission('policies:write', EVERYWHERE)
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; title: string }>(new DeletePasswordPolicyCommand(policyIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: policyDeletedMessage(outcome.value.title) });
  }
}
