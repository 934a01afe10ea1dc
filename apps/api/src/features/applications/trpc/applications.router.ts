import type { QueryBus } from '@nestjs/cqrs';
import {
  APPLICATION_NOTICES,
  ZAccountApplicationRolesInput,
  ZAddApplicationPermissionInput,
  ZAddApplicationRolePermissionInput,
  ZApplicationByIdInput,
  ZApplicationPermissionByIdInput,
  ZApplicationRoleByIdInput,
  ZConfigureApplicationClientInput,
  ZCreateApplicationInput,
  ZCreateApplicationRoleForInput,
  ZListApplicationsInput,
  ZRemoveApplicationRolePermissionInput,
  ZRenameApplicationRoleInput,
  ZSetAccountApplicationRoleInput,
  ZSetApplicationScopesInput,
  ZUpdateApplicationInput,
  ZUpdateApplicationPermissionInput,
  type TAccountApplicationRole,
  type TApplicationDetails,
  type TApplicationListItem,
  type TApplicationRolePermissionRelation,
  type TPage,
} from '@rollcall/contracts';
import { EVERYWHERE, on } from '../../../platform/access/resource-requirements';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
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

/** `applications.*` of the console's API: the same command and query handlers as REST v2. */
export function buildApplicationsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const details = (id: string) => queryBus.execute<GetApplicationQuery, TApplicationDetails>(new GetApplicationQuery(id));
  const write = permittedProcedure('applications:write', EVERYWHERE);
  return router({
    list: permittedProcedure('applications:read')
      .input(ZListApplicationsInput)
      .query(({ input }) => queryBus.execute<ListApplicationsQuery, TPage<TApplicationListItem>>(new ListApplicationsQuery(input))),
    byId: permittedProcedure('applications:read')
      .input(ZApplicationByIdInput)
      .query(({ input }) => details(input.id)),
    create: write.input(ZCreateApplicationInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<ApplicationWithSecret>(new CreateApplicationCommand(input, ctx.context));
      return withSecret(await details(outcome.value.id), outcome.value);
    }),
    updateBasic: write.input(ZUpdateApplicationInput).mutation(async ({ input: { id, ...basic }, ctx }) => {
      await gateway.execute(new UpdateApplicationBasicCommand(id, basic, ctx.context));
      return { message: APPLICATION_NOTICES.basicInfoUpdated, ...(await details(id)) };
    }),
    setScopes: write.input(ZSetApplicationScopesInput).mutation(async ({ input, ctx }) => {
      await gateway.execute(new SetApplicationScopesCommand(input.id, input.scopes, ctx.context));
      return details(input.id);
    }),
    configureClient: write.input(ZConfigureApplicationClientInput).mutation(async ({ input: { id, ...client }, ctx }) => {
      const outcome = await gateway.execute<ApplicationWithSecret>(new ConfigureApplicationClientCommand(id, client, ctx.context));
      return withSecret(await details(id), outcome.value);
    }),
    rotateSecret: write.input(ZApplicationByIdInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<ApplicationWithSecret>(new RotateApplicationSecretCommand(input.id, ctx.context));
      return withSecret(await details(input.id), outcome.value);
    }),
    delete: write.input(ZApplicationByIdInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<{ id: string; title: string }>(new DeleteApplicationCommand(input.id, ctx.context));
      return { message: applicationDeletedMessage(outcome.value.title) };
    }),
    addPermission: write.input(ZAddApplicationPermissionInput).mutation(async ({ input: { application_id, ...permission }, ctx }) => {
      const outcome = await gateway.execute<{ id: string }>(new AddApplicationPermissionCommand(application_id, permission, ctx.context));
      const { permissions } = await details(application_id);
      const created = permissions.find((item) => item.id === outcome.value.id);
      if (!created) throw new Error('the new permission is missing from the read model');
      return created;
    }),
    updatePermission: write.input(ZUpdateApplicationPermissionInput).mutation(async ({ input: { id, ...permission }, ctx }) => {
      const outcome = await gateway.execute<{ id: string; applicationId: string }>(new UpdateApplicationPermissionCommand(id, permission, ctx.context));
      const { permissions } = await details(outcome.value.applicationId);
      return { message: APPLICATION_NOTICES.permissionUpdated, permission: permissions.find((item) => item.id === id) ?? null };
    }),
    removePermission: write.input(ZApplicationPermissionByIdInput).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RemoveApplicationPermissionCommand(input.id, ctx.context));
      return { message: applicationPermissionDeletedMessage };
    }),
    createRole: write.input(ZCreateApplicationRoleForInput).mutation(async ({ input: { application_id, ...role }, ctx }) => {
      const outcome = await gateway.execute<{ id: string }>(new CreateApplicationRoleCommand(application_id, role, ctx.context));
      const { roles } = await details(application_id);
      const created = roles.find((item) => item.id === outcome.value.id);
      if (!created) throw new Error('the new role is missing from the read model');
      return created;
    }),
    renameRole: write.input(ZRenameApplicationRoleInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<{ id: string; applicationId: string }>(new RenameApplicationRoleCommand(input.id, input.title, ctx.context));
      const { roles } = await details(outcome.value.applicationId);
      return roles.find((item) => item.id === input.id) ?? null;
    }),
    deleteRole: write.input(ZApplicationRoleByIdInput).mutation(async ({ input, ctx }) => {
      await gateway.execute(new DeleteApplicationRoleCommand(input.id, ctx.context));
      return { message: applicationRoleDeletedMessage };
    }),
    addRolePermission: write.input(ZAddApplicationRolePermissionInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<TApplicationRolePermissionRelation>(new AddApplicationRolePermissionCommand(input.role_id, input.permission_id, ctx.context));
      return outcome.value;
    }),
    removeRolePermission: write.input(ZRemoveApplicationRolePermissionInput).mutation(async ({ input, ctx }) => {
      const outcome = await gateway.execute<{ id: string }>(new RemoveApplicationRolePermissionCommand(input.id, ctx.context));
      return { id: outcome.value.id };
    }),
    rolesOfAccount: permittedProcedure('applications:read', on('account', 'input:account_id'))
      .input(ZAccountApplicationRolesInput)
      .query(({ input }) => queryBus.execute<ListAccountApplicationRolesQuery, TAccountApplicationRole[]>(new ListAccountApplicationRolesQuery(input.account_id, input.application_id))),
    setAccountRole: permittedProcedure('applications:write', EVERYWHERE)
      .input(ZSetAccountApplicationRoleInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute<AccountApplicationRoleSwitch>(new SetAccountApplicationRoleCommand(input.account_id, input.role_id, input.associated, ctx.context));
        return { message: input.associated ? APPLICATION_NOTICES.roleAddedToAccount : APPLICATION_NOTICES.roleRemovedFromAccount };
      }),
  });
}
