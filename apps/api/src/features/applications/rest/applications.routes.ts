import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  APPLICATION_NOTICES,
  ZAccountApplicationRoleInput,
  ZAccountId,
  ZAddApplicationPermissionBody,
  ZApplicationClientInput,
  ZApplicationId,
  ZApplicationPermissionInput,
  ZApplicationRoleTitleInput,
  ZApplicationScopesInput,
  ZCreateApplicationInput,
  ZCreateApplicationRoleInput,
  ZListApplicationsInput,
  ZPermissionId,
  ZRoleId,
  ZRolePermissionRelationId,
  ZUpdateApplicationBasicInput,
  type TAccountApplicationRole,
  type TApplicationDetails,
  type TApplicationListItem,
  type TApplicationRolePermissionRelation,
  type TPage,
} from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE, on } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { AddApplicationPermissionCommand } from '../commands/add-application-permission.handler';
import { AddApplicationRolePermissionCommand } from '../commands/add-application-role-permission.handler';
import { ConfigureApplicationClientCommand } from '../commands/configure-application-client.handler';
import { CreateApplicationCommand, type ApplicationWithSecret } from '../commands/create-application.handler';
import { CreateApplicationRoleCommand } from '../commands/create-application-role.handler';
import { applicationDeletedMessage, DeleteApplicationCommand } from '../commands/delete-application.handler';
import { applicationRoleDeletedMessage, DeleteApplicationRoleCommand } from '../commands/delete-application-role.handler';
import { applicationPermissionDeletedMessage, RemoveApplicationPermissionCommand } from '../commands/remove-application-permission.handler';
import { RemoveApplicationRolePermissionCommand } from '../commands/remove-application-role-permission.handler';
import { RenameApplicationRoleCommand } from '../commands/rename-application-role.handler';
import { RotateApplicationSecretCommand } from '../commands/rotate-application-secret.handler';
import { SetAccountApplicationRoleCommand, type AccountApplicationRoleSwitch } from '../commands/set-account-application-role.handler';
import { SetApplicationScopesCommand } from '../commands/set-application-scopes.handler';
import { UpdateApplicationBasicCommand } from '../commands/update-application-basic.handler';
import { UpdateApplicationPermissionCommand } from '../commands/update-application-permission.handler';
import { GetApplicationQuery } from '../queries/get-application.query';
import { ListAccountApplicationRolesQuery } from '../queries/list-account-application-roles.query';
import { ListApplicationsQuery } from '../queries/list-applications.query';
import { withSecret } from '../applications.answers';
import { ZAccountApplicationRole, ZAccountApplicationRolesInput, ZApplicationBasicUpdated, ZApplicationDetails, ZApplicationDetailsWithSecret, ZApplicationListItem, ZApplicationPermission, ZApplicationPermissionUpdated, ZApplicationRole, ZApplicationRolePermissionRelation, ZIdAnswer, ZMessageAnswer, ZPage } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const idOf = <T extends z.ZodType<string>>(schema: T, value: string, field = 'id') => parseWith(z.object({ [field]: schema }), { [field]: value })[field] as string;

/**
 * The v2 application calls of the spec (console-directory.md section 7 'Applications'), plus ours:
 * the roles table's inline title, the declared scopes, the client settings, secret rotation and an
 * account's application roles (docs/adr/0014). The spec lists no v1 application calls. Applications
 * belong to no organization: reading needs applications:read anywhere, writing applications:write
 * everywhere; an account's roles need the permission where the account is.
 */
export abstract class ApplicationsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  private details(id: string) {
    return this.queryBus.execute<GetApplicationQuery, TApplicationDetails>(new GetApplicationQuery(id));
  }

  @Get('applications')
  @Documented({ summary: 'Applications, paged (search, sortBy title or created_at)', answer: ZPage(ZApplicationListItem), query: ZListApplicationsInput })
  @RequirePermission('applications:read')
  async list(@Query() query: Record<string, unknown>) {
    return this.wrap(await this.queryBus.execute<ListApplicationsQuery, TPage<TApplicationListItem>>(new ListApplicationsQuery(parseWith(ZListApplicationsInput, query))));
  }

  @Post('application')
  @Documented({ summary: 'Create an application with its scopes and client settings; a confidential client gets its secret in this answer, once', answer: ZApplicationDetailsWithSecret, body: ZCreateApplicationInput })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<ApplicationWithSecret>(new CreateApplicationCommand(parseWith(ZCreateApplicationInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(withSecret(await this.details(outcome.value.id), outcome.value));
  }

  @Patch('application/permission/:id')
  @Documented({ summary: "Change an application permission's slug and description", answer: ZApplicationPermissionUpdated, body: ZApplicationPermissionInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async updatePermission(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const permissionId = idOf(ZPermissionId, id);
    const outcome = await this.gateway.execute<{ id: string; applicationId: string }>(new UpdateApplicationPermissionCommand(permissionId, parseWith(ZApplicationPermissionInput, body), context));
    writeConsistencyHeaders(response, outcome);
    const { permissions } = await this.details(outcome.value.applicationId);
    return this.wrap({ message: APPLICATION_NOTICES.permissionUpdated, permission: permissions.find((permission) => permission.id === permissionId) });
  }

  @Delete('application/permission/:id')
  @Documented({ summary: 'Delete an application permission; every role loses its switch for it', answer: ZMessageAnswer })
  @RequirePermission('applications:write', EVERYWHERE)
  async removePermission(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new RemoveApplicationPermissionCommand(idOf(ZPermissionId, id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: applicationPermissionDeletedMessage });
  }

  @Post('application/role/:role_id/add-permission/:permission_id')
  @Documented({ summary: 'Switch a permission on for an application role (idempotent: answers the existing relation)', answer: ZApplicationRolePermissionRelation })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async addRolePermission(@Param('role_id') roleId: string, @Param('permission_id') permissionId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const command = new AddApplicationRolePermissionCommand(idOf(ZRoleId, roleId, 'role_id'), idOf(ZPermissionId, permissionId, 'permission_id'), context);
    const outcome = await this.gateway.execute<TApplicationRolePermissionRelation>(command);
    writeConsistencyHeaders(response, outcome);
    return this.wrap(outcome.value);
  }

  @Delete('application/role/remove-permission/:id')
  @Documented({ summary: 'Switch a permission off for an application role, by the relation id', answer: ZIdAnswer })
  @RequirePermission('applications:write', EVERYWHERE)
  async removeRolePermission(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new RemoveApplicationRolePermissionCommand(idOf(ZRolePermissionRelationId, id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ id: outcome.value.id });
  }

  @Patch('application/role/:id/title')
  @Documented({ summary: "Change an application role's title (the roles table's inline edit)", answer: ZApplicationRole, body: ZApplicationRoleTitleInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async renameRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const roleId = idOf(ZRoleId, id);
    const { title } = parseWith(ZApplicationRoleTitleInput, body);
    const outcome = await this.gateway.execute<{ id: string; applicationId: string }>(new RenameApplicationRoleCommand(roleId, title, context));
    writeConsistencyHeaders(response, outcome);
    const { roles } = await this.details(outcome.value.applicationId);
    return this.wrap(roles.find((role) => role.id === roleId));
  }

  @Delete('application/role/:id')
  @Documented({ summary: 'Delete an application role; the accounts holding it lose it', answer: ZMessageAnswer })
  @RequirePermission('applications:write', EVERYWHERE)
  async deleteRole(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute(new DeleteApplicationRoleCommand(idOf(ZRoleId, id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: applicationRoleDeletedMessage });
  }

  @Get('application/:id')
  @Documented({ summary: 'One application with its roles and permissions', answer: ZApplicationDetails })
  @RequirePermission('applications:read')
  async read(@Param('id') id: string) {
    return this.wrap(await this.details(idOf(ZApplicationId, id)));
  }

  @Patch('application/:id/basic')
  @Documented({ summary: "Change an application's title, url and description", answer: ZApplicationBasicUpdated, body: ZUpdateApplicationBasicInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async updateBasic(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute(new UpdateApplicationBasicCommand(applicationId, parseWith(ZUpdateApplicationBasicInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: APPLICATION_NOTICES.basicInfoUpdated, ...(await this.details(applicationId)) });
  }

  @Put('application/:id/scopes')
  @Documented({ summary: "Set an application's declared scopes (the whole list)", answer: ZApplicationDetails, body: ZApplicationScopesInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async setScopes(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute(new SetApplicationScopesCommand(applicationId, parseWith(ZApplicationScopesInput, body).scopes, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.details(applicationId));
  }

  @Put('application/:id/client')
  @Documented({ summary: "Set an application's client settings; turning confidential issues a secret (in this answer, once), turning public drops it", answer: ZApplicationDetailsWithSecret, body: ZApplicationClientInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async configureClient(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute<ApplicationWithSecret>(new ConfigureApplicationClientCommand(applicationId, parseWith(ZApplicationClientInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(withSecret(await this.details(applicationId), outcome.value));
  }

  @Post('application/:id/client/secret')
  @Documented({ summary: "Rotate a confidential client's secret: the new one is in this answer, once; the old one stops at once", answer: ZApplicationDetailsWithSecret })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async rotateSecret(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute<ApplicationWithSecret>(new RotateApplicationSecretCommand(applicationId, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(withSecret(await this.details(applicationId), outcome.value));
  }

  @Delete('application/:id')
  @Documented({ summary: 'Delete an application with its permissions, roles and the grants of its roles', answer: ZMessageAnswer })
  @RequirePermission('applications:write', EVERYWHERE)
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; title: string }>(new DeleteApplicationCommand(idOf(ZApplicationId, id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: applicationDeletedMessage(outcome.value.title) });
  }

  @Post('application/:id/permission')
  @Documented({ summary: 'Add a permission to an application (its slug a scope token, unique within the application)', answer: ZApplicationPermission, body: ZAddApplicationPermissionBody })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async addPermission(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute<{ id: string }>(new AddApplicationPermissionCommand(applicationId, parseWith(ZAddApplicationPermissionBody, body), context));
    writeConsistencyHeaders(response, outcome);
    const { permissions } = await this.details(applicationId);
    return this.wrap(permissions.find((permission) => permission.id === outcome.value.id));
  }

  @Post('application/:id/role')
  @Documented({ summary: 'Create an application role with some of its permissions', answer: ZApplicationRole, body: ZCreateApplicationRoleInput })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async createRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const applicationId = idOf(ZApplicationId, id);
    const outcome = await this.gateway.execute<{ id: string }>(new CreateApplicationRoleCommand(applicationId, parseWith(ZCreateApplicationRoleInput, body), context));
    writeConsistencyHeaders(response, outcome);
    const { roles } = await this.details(applicationId);
    return this.wrap(roles.find((role) => role.id === outcome.value.id));
  }

  @Get('account/:id/application-roles')
  @Documented({ summary: 'The application roles as the account sees them, associated 1 for those it holds (query application_id)', answer: ZAccountApplicationRole.array(), query: ZAccountApplicationRolesInput.pick({ application_id: true }) })
  @RequirePermission('applications:read', on('account', 'param:id'))
  async rolesOfAccount(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const applicationId = query.application_id === undefined ? undefined : idOf(ZApplicationId, String(query.application_id), 'application_id');
    return this.wrap(await this.queryBus.execute<ListAccountApplicationRolesQuery, TAccountApplicationRole[]>(new ListAccountApplicationRolesQuery(idOf(ZAccountId, id), applicationId)));
  }

  @Post('account/:id/application-role')
  @Documented({ summary: 'Give the account an application role (idempotent)', answer: ZMessageAnswer, body: ZAccountApplicationRoleInput })
  @RequirePermission('applications:write', EVERYWHERE)
  @HttpCode(201)
  async grantRole(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { role_id } = parseWith(ZAccountApplicationRoleInput, body);
    const outcome = await this.gateway.execute<AccountApplicationRoleSwitch>(new SetAccountApplicationRoleCommand(idOf(ZAccountId, id), role_id, true, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: APPLICATION_NOTICES.roleAddedToAccount });
  }

  @Delete('account/:id/application-role')
  @Documented({ summary: 'Take an application role from the account (query role_id; idempotent)', answer: ZMessageAnswer, query: ZAccountApplicationRoleInput })
  @RequirePermission('applications:write', EVERYWHERE)
  async revokeRole(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { role_id } = parseWith(ZAccountApplicationRoleInput, query);
    const outcome = await this.gateway.execute<AccountApplicationRoleSwitch>(new SetAccountApplicationRoleCommand(idOf(ZAccountId, id), role_id, false, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: APPLICATION_NOTICES.roleRemovedFromAccount });
  }
}
