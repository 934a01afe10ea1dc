import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ACCESS_NOTICES,
  rolePermissionNotice,
  ZAccessSlugInput,
  ZAccessTitleInput,
  ZAccountId,
  ZAccountRoleInput,
  ZCreatePermissionInput,
  ZCreateRoleBody,
  ZOrganizationId,
  ZPermissionId,
  ZRoleId,
  ZRolePermissionInput,
  ZToggleRoleInput,
  type TMemberRoleFlag,
  type TPermission,
  type TRole,
  type TRoleAccount,
} from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { on } from '../../../platform/access/resource-requirements';
import { CommandGateway, type ConsistentOutcome } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { ChangePermissionSlugCommand } from '../commands/change-permission-slug.handler';
import { ChangePermissionTitleCommand } from '../commands/change-permission-title.handler';
import { ChangeRoleSlugCommand } from '../commands/change-role-slug.handler';
import { ChangeRoleTitleCommand } from '../commands/change-role-title.handler';
import { CreatePermissionCommand } from '../commands/create-permission.handler';
import { CreateRoleCommand } from '../commands/create-role.handler';
import { DeletePermissionCommand } from '../commands/delete-permission.handler';
import { DeleteRoleCommand } from '../commands/delete-role.handler';
import { SetAccountRoleCommand, type AccountRoleSwitch } from '../commands/set-account-role.handler';
import { SetRolePermissionCommand, type RolePermissionSwitch } from '../commands/set-role-permission.handler';
import { GetPermissionQuery } from '../queries/get-permission.query';
import { GetRoleQuery } from '../queries/get-role.query';
import { ListMemberRolesQuery } from '../queries/list-member-roles.query';
import { ListOrganizationPermissionsQuery } from '../queries/list-organization-permissions.query';
import { ListOrganizationRolesQuery } from '../queries/list-organization-roles.query';
import { ListPermissionAccountsQuery, ListRoleAccountsQuery } from '../queries/list-role-accounts.query';
import { ZMemberRoleFlag, ZMessageAnswer, ZPermission, ZRole, ZRoleAccount } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const idOf = <Schema extends z.ZodType<string>>(schema: Schema, field: string, value: string): string => parseWith(z.object({ [field]: schema }), { [field]: value })[field] as string;
const organizationIdOf = (id: string) => idOf(ZOrganizationId, 'organization_id', id);
const accountIdOf = (id: string) => idOf(ZAccountId, 'account_id', id);
const roleIdOf = (id: string) => idOf(ZRoleId, 'role_id', id);
const permissionIdOf = (id: string) => idOf(ZPermissionId, 'permission_id', id);

/**
 * An organization's permissions and roles and the roles its members hold (console-directory.md
 * section 7 v1 'Roles and permissions', v2 'Permissions' and 'Roles and organizations';
 * console-accounts.md section 7), shared by v1 and v2 (docs/adr/0012). Creates and renames answer the
 * item as the lists show it; deletions and switches answer the spec's notice as `{message}`.
 */
export abstract class OrganizationAccessRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  private async answer<T>(response: Response, outcome: ConsistentOutcome<unknown>, value: Promise<T> | T) {
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await value);
  }

  private permission(id: string) {
    return this.queryBus.execute<GetPermissionQuery, TPermission>(new GetPermissionQuery(id));
  }

  private role(id: string) {
    return this.queryBus.execute<GetRoleQuery, TRole>(new GetRoleQuery(id));
  }

  @Get('organization/:id/permissions')
  @Documented({ summary: "The organization's permissions, oldest first, with num_uses (roles holding each)", answer: ZPermission.array() })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async permissions(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListOrganizationPermissionsQuery, TPermission[]>(new ListOrganizationPermissionsQuery(organizationIdOf(id))));
  }

  @Get('organization/:id/roles')
  @Documented({ summary: "The organization's roles, oldest first, with their permissions and num_associations (accounts holding each)", answer: ZRole.array() })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async roles(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListOrganizationRolesQuery, TRole[]>(new ListOrganizationRolesQuery(organizationIdOf(id))));
  }

  @Post('permission')
  @Documented({ summary: 'Create a permission of an organization (slug an OAuth2 scope token, unique within the organization)', answer: ZPermission, body: ZCreatePermissionInput })
  @RequirePermission('organizations:write', on('organization', 'body:organization_id'))
  @HttpCode(201)
  async createPermission(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreatePermissionCommand(parseWith(ZCreatePermissionInput, body), context));
    return this.answer(response, outcome, this.permission(outcome.value.id));
  }

  @Patch('permission/:id/title')
  @Documented({ summary: "Change a permission's title", answer: ZPermission, body: ZAccessTitleInput })
  @RequirePermission('organizations:write', on('permission', 'param:id'))
  async renamePermission(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const permissionId = permissionIdOf(id);
    const outcome = await this.gateway.execute(new ChangePermissionTitleCommand(permissionId, parseWith(ZAccessTitleInput, body).title, context));
    return this.answer(response, outcome, this.permission(permissionId));
  }

  @Patch('permission/:id/slug')
  @Documented({ summary: "Change a permission's slug (409 permission.slug_taken)", answer: ZPermission, body: ZAccessSlugInput })
  @RequirePermission('organizations:write', on('permission', 'param:id'))
  async reslugPermission(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const permissionId = permissionIdOf(id);
    const outcome = await this.gateway.execute(new ChangePermissionSlugCommand(permissionId, parseWith(ZAccessSlugInput, body).slug, context));
    return this.answer(response, outcome, this.permission(permissionId));
  }

  @Delete('permission/:id')
  @Documented({ summary: 'Delete a permission (403 when protected); it leaves every role', answer: ZMessageAnswer })
  @RequirePermission('organizations:write', on('permission', 'param:id'))
  async deletePermission(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new DeletePermissionCommand(permissionIdOf(id), context));
    return this.answer(response, outcome, { message: ACCESS_NOTICES.permissionDeleted });
  }

  @Post('organization/:org/role')
  @Documented({ summary: 'Create a role of the organization with some of its permissions', answer: ZRole, body: ZCreateRoleBody })
  @RequirePermission('organizations:write', on('organization', 'param:org'))
  @HttpCode(201)
  async createRole(@Param('org') org: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const organizationId = organizationIdOf(org);
    const input = parseWith(ZCreateRoleBody, body);
    if (input.organization_id !== undefined && input.organization_id !== organizationId) {
      throw new DomainError('request.invalid', 'organization_id must be the organization of the path', 'organization_id');
    }
    const outcome = await this.gateway.execute<{ id: string }>(new CreateRoleCommand({ ...input, organization_id: organizationId }, context));
    return this.answer(response, outcome, this.role(outcome.value.id));
  }

  @Patch('role/:id/title')
  @Documented({ summary: "Change a role's title", answer: ZRole, body: ZAccessTitleInput })
  @RequirePermission('organizations:write', on('role', 'param:id'))
  async renameRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const roleId = roleIdOf(id);
    const outcome = await this.gateway.execute(new ChangeRoleTitleCommand(roleId, parseWith(ZAccessTitleInput, body).title, context));
    return this.answer(response, outcome, this.role(roleId));
  }

  /** the spec's v2 form of the rename; served on v1 too */
  @Post('role/:id/title')
  @Documented({ summary: "Change a role's title (the v2 form; served on v1 too)", answer: ZRole, body: ZAccessTitleInput })
  @RequirePermission('organizations:write', on('role', 'param:id'))
  @HttpCode(200)
  renameRoleByPost(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.renameRole(id, body, context, response);
  }

  @Patch('role/:id/slug')
  @Documented({ summary: "Change a role's slug (409 role.slug_taken)", answer: ZRole, body: ZAccessSlugInput })
  @RequirePermission('organizations:write', on('role', 'param:id'))
  async reslugRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const roleId = roleIdOf(id);
    const outcome = await this.gateway.execute(new ChangeRoleSlugCommand(roleId, parseWith(ZAccessSlugInput, body).slug, context));
    return this.answer(response, outcome, this.role(roleId));
  }

  /** the spec's v2 form of the slug change; served on v1 too */
  @Post('role/:id/slug')
  @Documented({ summary: "Change a role's slug (the v2 form; served on v1 too)", answer: ZRole, body: ZAccessSlugInput })
  @RequirePermission('organizations:write', on('role', 'param:id'))
  @HttpCode(200)
  reslugRoleByPost(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.reslugRole(id, body, context, response);
  }

  @Delete('role/:id')
  @Documented({ summary: 'Delete a role (403 when protected); every account holding it loses it', answer: ZMessageAnswer })
  @RequirePermission('organizations:write', on('role', 'param:id'))
  async deleteRole(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new DeleteRoleCommand(roleIdOf(id), context));
    return this.answer(response, outcome, { message: ACCESS_NOTICES.roleDeleted });
  }

  /** not in the spec: the permission tab's 'Associated accounts', those holding it through any role */
  @Get('permission/:id/associated-accounts')
  @Documented({ summary: 'The accounts holding a permission through any role that carries it (not in the spec)', answer: ZRoleAccount.array() })
  @RequirePermission('organizations:read', on('permission', 'param:id'))
  async permissionAccounts(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListPermissionAccountsQuery, TRoleAccount[]>(new ListPermissionAccountsQuery(permissionIdOf(id))));
  }

  @Get('role/:id/associated-accounts')
  @Documented({ summary: 'The accounts holding a role', answer: ZRoleAccount.array() })
  @RequirePermission('organizations:read', on('role', 'param:id'))
  async roleAccounts(@Param('id') id: string) {
    return this.wrap(await this.queryBus.execute<ListRoleAccountsQuery, TRoleAccount[]>(new ListRoleAccountsQuery(roleIdOf(id))));
  }

  @Post('role/:id/permission')
  @Documented({ summary: 'Switch a permission on for a role (idempotent)', answer: ZMessageAnswer, body: ZRolePermissionInput })
  @RequirePermission('organizations:write', on('role', 'param:id'), on('permission', 'body:permission_id'), on('permission', 'query:permission_id'))
  @HttpCode(200)
  async enablePermission(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.switchPermission(id, parseWith(ZRolePermissionInput, body).permission_id, true, context, response);
  }

  @Delete('role/:id/permission')
  @Documented({ summary: 'Switch a permission off for a role (query permission_id; idempotent)', answer: ZMessageAnswer, query: ZRolePermissionInput })
  @RequirePermission('organizations:write', on('role', 'param:id'), on('permission', 'body:permission_id'), on('permission', 'query:permission_id'))
  async disablePermission(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.switchPermission(id, parseWith(ZRolePermissionInput, query).permission_id, false, context, response);
  }

  private async switchPermission(id: string, permissionId: string, enabled: boolean, context: RequestContext, response: Response) {
    const outcome = await this.gateway.execute<RolePermissionSwitch>(new SetRolePermissionCommand(roleIdOf(id), permissionId, enabled, context));
    return this.answer(response, outcome, { message: rolePermissionNotice(outcome.value.slug, enabled) });
  }

  @Get('organization/:org/member/:account/roles')
  @Documented({ summary: 'Every role of the organization with associated 1 for those the member holds', answer: ZMemberRoleFlag.array() })
  @RequirePermission('organizations:read', on('organization', 'param:org'), on('account', 'param:account'))
  async memberRoles(@Param('org') org: string, @Param('account') account: string) {
    return this.wrap(await this.queryBus.execute<ListMemberRolesQuery, TMemberRoleFlag[]>(new ListMemberRolesQuery(organizationIdOf(org), accountIdOf(account))));
  }

  @Post('organization/:org/account-role')
  @Documented({ summary: 'Give a member a role of the organization (idempotent; 404 membership.not_found for a non-member)', answer: ZMessageAnswer, body: ZAccountRoleInput })
  @RequirePermission('organizations:write', on('organization', 'param:org'), on('account', 'body:account_id'), on('account', 'query:account_id'), on('role', 'body:role_id'), on('role', 'query:role_id'))
  @HttpCode(200)
  async addMemberRole(@Param('org') org: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { account_id, role_id } = parseWith(ZAccountRoleInput, body);
    return this.switchAccountRole(account_id, role_id, organizationIdOf(org), true, context, response);
  }

  @Delete('organization/:org/account-role')
  @Documented({ summary: 'Take a role from a member (query account_id, role_id; idempotent)', answer: ZMessageAnswer, query: ZAccountRoleInput })
  @RequirePermission('organizations:write', on('organization', 'param:org'), on('account', 'body:account_id'), on('account', 'query:account_id'), on('role', 'body:role_id'), on('role', 'query:role_id'))
  async removeMemberRole(@Param('org') org: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { account_id, role_id } = parseWith(ZAccountRoleInput, query);
    return this.switchAccountRole(account_id, role_id, organizationIdOf(org), false, context, response);
  }

  @Post('account/:id/toggle-role')
  @Documented({ summary: 'Give the account a role (the role names its organization; the account must be a member)', answer: ZMessageAnswer, body: ZToggleRoleInput })
  @RequirePermission('organizations:write', on('account', 'param:id'), on('role', 'body:role_id'), on('role', 'query:role_id'))
  @HttpCode(200)
  async addAccountRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.switchAccountRole(accountIdOf(id), parseWith(ZToggleRoleInput, body).role_id, null, true, context, response);
  }

  @Delete('account/:id/toggle-role')
  @Documented({ summary: 'Take a role from the account (query role_id)', answer: ZMessageAnswer, query: ZToggleRoleInput })
  @RequirePermission('organizations:write', on('account', 'param:id'), on('role', 'body:role_id'), on('role', 'query:role_id'))
  async removeAccountRole(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    return this.switchAccountRole(accountIdOf(id), parseWith(ZToggleRoleInput, query).role_id, null, false, context, response);
  }

  private async switchAccountRole(accountId: string, roleId: string, organizationId: string | null, associated: boolean, context: RequestContext, response: Response) {
    const outcome = await this.gateway.execute<AccountRoleSwitch>(new SetAccountRoleCommand(accountId, roleId, organizationId, associated, context));
    return this.answer(response, outcome, { message: associated ? ACCESS_NOTICES.roleAddedToAccount : ACCESS_NOTICES.roleRemovedFromAccount });
  }
}
