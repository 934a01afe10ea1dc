import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountId,
  ZAccountOrganizationsInput,
  ZAddMemberInput,
  ZAssociateOrganizationInput,
  ZCreateOrganizationInput,
  ZDeleteOrganizationChoices,
  ZFindOrganizationsInput,
  ZListOrganizationsInput,
  ZOrganizationId,
  ZSubOrganizationsInput,
  ZUpdateOrganizationDetailsInput,
  type TAccountOrganization,
  type TOrganization,
  type TOrganizationMember,
  type TOrganizationSearchItem,
  type TPage,
  type TSubOrganization,
} from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { deletingOrganization, movingOrganization, on } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { AddMemberCommand, memberAddedMessage, type Membership } from '../commands/add-member.handler';
import { ChangeOrganizationDetailsCommand } from '../commands/change-organization-details.handler';
import { CreateOrganizationCommand } from '../commands/create-organization.handler';
import { DeleteOrganizationCommand, organizationRemovedMessage } from '../commands/delete-organization.handler';
import { memberRemovedMessage, organizationLeftMessage, RemoveMemberCommand } from '../commands/remove-member.handler';
import { FindOrganizationsQuery } from '../queries/find-organizations.query';
import { GetOrganizationQuery } from '../queries/get-organization.query';
import { ListAccountOrganizationsQuery } from '../queries/list-account-organizations.query';
import { ListOrganizationMembersQuery } from '../queries/list-organization-members.query';
import { ListOrganizationsQuery } from '../queries/list-organizations.query';
import { ListSubOrganizationsQuery } from '../queries/list-sub-organizations.query';

const organizationIdOf = (id: string) => parseWith(z.object({ id: ZOrganizationId }), { id }).id;
const accountIdOf = (id: string) => parseWith(z.object({ account_id: ZAccountId }), { account_id: id }).account_id;

/**
 * The organization and membership calls of the spec (console-directory.md section 7 v1 'Organizations'
 * and v2 'Roles and organizations', console-accounts.md section 7), shared by v1 and v2, plus
 * `POST organization/{id}/member` for the members tab's 'Add a member'. Express matches in
 * registration order, which is method order here: fixed paths (organization/find,
 * organization/details/...) come before `organization/:id`.
 */
export abstract class OrganizationsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  private organization(id: string) {
    return this.queryBus.execute<GetOrganizationQuery, TOrganization>(new GetOrganizationQuery(id));
  }

  @Get('organizations')
  @RequirePermission('organizations:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListOrganizationsQuery, TPage<TOrganization>>(new ListOrganizationsQuery(parseWith(ZListOrganizationsInput, query), listScope(principal, 'organizations:read'))));
  }

  @Get('organization/find')
  @RequirePermission('organizations:read')
  async find(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const { organization } = parseWith(ZFindOrganizationsInput, query);
    return this.wrap(await this.queryBus.execute<FindOrganizationsQuery, TOrganizationSearchItem[]>(new FindOrganizationsQuery(organization, listScope(principal, 'organizations:read'))));
  }

  @Post('organization')
  @RequirePermission('organizations:write', on('organization', 'body:parent_id'))
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateOrganizationCommand(parseWith(ZCreateOrganizationInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.organization(outcome.value.id));
  }

  @Patch('organization/details/:organization_id')
  @RequirePermission('organizations:write', on('organization', 'param:organization_id'), movingOrganization('param:organization_id', 'body:parent_id'))
  async updateDetails(@Param('organization_id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const organizationId = organizationIdOf(id);
    const outcome = await this.gateway.execute(new ChangeOrganizationDetailsCommand(organizationId, parseWith(ZUpdateOrganizationDetailsInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.organization(organizationId));
  }

  @Get('organization/:id/sub-orgs')
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async subOrganizations(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const input = parseWith(ZSubOrganizationsInput, query);
    return this.wrap(await this.queryBus.execute<ListSubOrganizationsQuery, TPage<TSubOrganization>>(new ListSubOrganizationsQuery(organizationIdOf(id), input)));
  }

  @Get('organization/:id/members/all')
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async members(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListOrganizationMembersQuery, TOrganizationMember[]>(new ListOrganizationMembersQuery(organizationIdOf(id))));
  }

  @Post('organization/:id/member')
  @RequirePermission('organizations:write', on('organization', 'param:id'), on('account', 'body:account_id'))
  @HttpCode(201)
  async addMember(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { account_id } = parseWith(ZAddMemberInput, body);
    const outcome = await this.gateway.execute<Membership>(new AddMemberCommand(organizationIdOf(id), account_id, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: memberAddedMessage(outcome.value) });
  }

  @Delete('organization/:org_id/member/:account_id')
  @RequirePermission('organizations:write', on('organization', 'param:org_id'), on('account', 'param:account_id'))
  async removeMember(@Param('org_id') organizationId: string, @Param('account_id') accountId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<Membership>(new RemoveMemberCommand(organizationIdOf(organizationId), accountIdOf(accountId), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: memberRemovedMessage(outcome.value) });
  }

  @Get('organization/:id')
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async read(@Param('id') id: string) {
    return this.wrap(await this.organization(organizationIdOf(id)));
  }

  @Delete('organization/:id')
  @RequirePermission(
    'organizations:write',
    on('organization', 'param:id'),
    on('organization', 'query:suborganizations_move_to'),
    on('organization', 'query:accounts_move_to'),
    deletingOrganization('param:id', 'query:suborganizations', 'query:accounts'),
  )
  async remove(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const organizationId = organizationIdOf(id);
    const outcome = await this.gateway.execute(new DeleteOrganizationCommand(organizationId, parseWith(ZDeleteOrganizationChoices, query), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: organizationRemovedMessage });
  }

  @Post('account/:account_id/associate/organization')
  @RequirePermission('organizations:write', on('account', 'param:account_id'), on('organization', 'body:organization_id'))
  @HttpCode(201)
  async associate(@Param('account_id') accountId: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const account = accountIdOf(accountId);
    const { organization_id } = parseWith(ZAssociateOrganizationInput, body);
    const outcome = await this.gateway.execute<Membership>(new AddMemberCommand(organization_id, account, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: memberAddedMessage(outcome.value) });
  }

  @Get('account/:id/organizations-and-roles')
  @RequirePermission('organizations:read', on('account', 'param:id'))
  async organizationsOfAccount(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.accountOrganizations(id, query, principal));
  }

  /** the spec's v2 name of the same list; served on v1 too */
  @Get('account/:id/organizations')
  @RequirePermission('organizations:read', on('account', 'param:id'))
  async organizationsOfAccountV2(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.accountOrganizations(id, query, principal));
  }

  @Delete('account/:id/leave-organization/:organization_id')
  @RequirePermission('organizations:write', on('organization', 'param:organization_id'), on('account', 'param:id'))
  async leave(@Param('id') accountId: string, @Param('organization_id') organizationId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<Membership>(new RemoveMemberCommand(organizationIdOf(organizationId), accountIdOf(accountId), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: organizationLeftMessage(outcome.value) });
  }

  private accountOrganizations(id: string, query: Record<string, unknown>, principal: Principal) {
    const input = parseWith(ZAccountOrganizationsInput, query);
    return this.queryBus.execute<ListAccountOrganizationsQuery, TPage<TAccountOrganization>>(new ListAccountOrganizationsQuery(accountIdOf(id), input, listScope(principal, 'organizations:read')));
  }
}
