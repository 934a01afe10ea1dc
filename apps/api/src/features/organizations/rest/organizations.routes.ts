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
import { ZAccountOrganization, ZMessageAnswer, ZOrganization, ZOrganizationMember, ZOrganizationSearchItem, ZPage, ZSubOrganization } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

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
  @Documented({ summary: 'Organizations at any depth: paging, search on the title, sort by title or created_at', answer: ZPage(ZOrganization), query: ZListOrganizationsInput })
  @RequirePermission('organizations:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListOrganizationsQuery, TPage<TOrganization>>(new ListOrganizationsQuery(parseWith(ZListOrganizationsInput, query), listScope(principal, 'organizations:read'))));
  }

  @Get('organization/find')
  @Documented({ summary: 'Find organizations by title: case-insensitive substring (prefix matches first), at most 20', answer: ZOrganizationSearchItem.array(), query: ZFindOrganizationsInput })
  @RequirePermission('organizations:read')
  async find(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const { organization } = parseWith(ZFindOrganizationsInput, query);
    return this.wrap(await this.queryBus.execute<FindOrganizationsQuery, TOrganizationSearchItem[]>(new FindOrganizationsQuery(organization, listScope(principal, 'organizations:read'))));
  }

  @Post('organization')
  @Documented({ summary: 'Create an organization (title unique case-insensitively; parent_id optional)', answer: ZOrganization, body: ZCreateOrganizationInput })
  @RequirePermission('organizations:write', on('organization', 'body:parent_id'))
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateOrganizationCommand(parseWith(ZCreateOrganizationInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.organization(outcome.value.id));
  }

  @Patch('organization/details/:organization_id')
  @Documented({ summary: 'Change title and description; parent_id (optional) moves the organization, never under itself (409 organization.cycle)', answer: ZOrganization, body: ZUpdateOrganizationDetailsInput })
  @RequirePermission('organizations:write', on('organization', 'param:organization_id'), movingOrganization('param:organization_id', 'body:parent_id'))
  async updateDetails(@Param('organization_id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const organizationId = organizationIdOf(id);
    const outcome = await this.gateway.execute(new ChangeOrganizationDetailsCommand(organizationId, parseWith(ZUpdateOrganizationDetailsInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.organization(organizationId));
  }

  @Get('organization/:id/sub-orgs')
  @Documented({ summary: 'The direct sub-organizations, newest first, paged', answer: ZPage(ZSubOrganization), query: ZSubOrganizationsInput })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async subOrganizations(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const input = parseWith(ZSubOrganizationsInput, query);
    return this.wrap(await this.queryBus.execute<ListSubOrganizationsQuery, TPage<TSubOrganization>>(new ListSubOrganizationsQuery(organizationIdOf(id), input)));
  }

  @Get('organization/:id/members/all')
  @Documented({ summary: 'Every member of the organization, newest membership first', answer: ZOrganizationMember.array() })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async members(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListOrganizationMembersQuery, TOrganizationMember[]>(new ListOrganizationMembersQuery(organizationIdOf(id))));
  }

  @Post('organization/:id/member')
  @Documented({ summary: "Add a member (our addition for the members tab's 'Add a member')", answer: ZMessageAnswer, body: ZAddMemberInput })
  @RequirePermission('organizations:write', on('organization', 'param:id'), on('account', 'body:account_id'))
  @HttpCode(201)
  async addMember(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { account_id } = parseWith(ZAddMemberInput, body);
    const outcome = await this.gateway.execute<Membership>(new AddMemberCommand(organizationIdOf(id), account_id, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: memberAddedMessage(outcome.value) });
  }

  @Delete('organization/:org_id/member/:account_id')
  @Documented({ summary: 'Remove a member from the organization', answer: ZMessageAnswer })
  @RequirePermission('organizations:write', on('organization', 'param:org_id'), on('account', 'param:account_id'))
  async removeMember(@Param('org_id') organizationId: string, @Param('account_id') accountId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<Membership>(new RemoveMemberCommand(organizationIdOf(organizationId), accountIdOf(accountId), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: memberRemovedMessage(outcome.value) });
  }

  @Get('organization/:id')
  @Documented({ summary: 'One organization with its parent title and counts', answer: ZOrganization })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async read(@Param('id') id: string) {
    return this.wrap(await this.organization(organizationIdOf(id)));
  }

  @Delete('organization/:id')
  @Documented({ summary: 'Delete an organization: suborganizations and accounts each disconnect (default), delete or move (with *_move_to); all or nothing', answer: ZMessageAnswer, query: ZDeleteOrganizationChoices })
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
  @Documented({ summary: 'The account joins an organization (409 membership.exists when it already belongs)', answer: ZMessageAnswer, body: ZAssociateOrganizationInput })
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
  @Documented({ summary: "An account's organizations, paged, each with every role of that organization and associated 1 for those the account holds", answer: ZPage(ZAccountOrganization), query: ZAccountOrganizationsInput })
  @RequirePermission('organizations:read', on('account', 'param:id'))
  async organizationsOfAccount(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.accountOrganizations(id, query, principal));
  }

  /** the spec's v2 name of the same list; served on v1 too */
  @Get('account/:id/organizations')
  @Documented({ summary: 'As organizations-and-roles (the v2 name; served on v1 too)', answer: ZPage(ZAccountOrganization), query: ZAccountOrganizationsInput })
  @RequirePermission('organizations:read', on('account', 'param:id'))
  async organizationsOfAccountV2(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.accountOrganizations(id, query, principal));
  }

  @Delete('account/:id/leave-organization/:organization_id')
  @Documented({ summary: 'The account leaves an organization', answer: ZMessageAnswer })
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
