import { Module } from '@nestjs/common';
import { AddApplicationPermissionHandler } from './commands/add-application-permission.handler';
import { AddApplicationRolePermissionHandler } from './commands/add-application-role-permission.handler';
import { ConfigureApplicationClientHandler } from './commands/configure-application-client.handler';
import { CreateApplicationHandler } from './commands/create-application.handler';
import { CreateApplicationRoleHandler } from './commands/create-application-role.handler';
import { DeleteApplicationHandler } from './commands/delete-application.handler';
import { DeleteApplicationRoleHandler } from './commands/delete-application-role.handler';
import { RemoveApplicationPermissionHandler } from './commands/remove-application-permission.handler';
import { RemoveApplicationRolePermissionHandler } from './commands/remove-application-role-permission.handler';
import { RenameApplicationRoleHandler } from './commands/rename-application-role.handler';
import { RotateApplicationSecretHandler } from './commands/rotate-application-secret.handler';
import { SetAccountApplicationRoleHandler } from './commands/set-account-application-role.handler';
import { SetApplicationScopesHandler } from './commands/set-application-scopes.handler';
import { UpdateApplicationBasicHandler } from './commands/update-application-basic.handler';
import { UpdateApplicationPermissionHandler } from './commands/update-application-permission.handler';
import { GetApplicationHandler } from './queries/get-application.query';
import { ListAccountApplicationRolesHandler } from './queries/list-account-application-roles.query';
import { ListApplicationsHandler } from './queries/list-applications.query';
import { ApplicationsV2Controller } from './rest/applications.v2.controller';

/** Applications, their permissions and roles, and accounts' application roles (docs/adr/0014): REST v2 and (trpc/applications.router.ts) tRPC over the same handlers. */
@Module({
  controllers: [ApplicationsV2Controller],
  providers: [
    CreateApplicationHandler,
    UpdateApplicationBasicHandler,
    SetApplicationScopesHandler,
    ConfigureApplicationClientHandler,
    RotateApplicationSecretHandler,
    DeleteApplicationHandler,
    AddApplicationPermissionHandler,
    UpdateApplicationPermissionHandler,
    RemoveApplicationPermissionHandler,
    CreateApplicationRoleHandler,
    RenameApplicationRoleHandler,
    DeleteApplicationRoleHandler,
    AddApplicationRolePermissionHandler,
    RemoveApplicationRolePermissionHandler,
    SetAccountApplicationRoleHandler,
    ListApplicationsHandler,
    GetApplicationHandler,
    ListAccountApplicationRolesHandler,
  ],
})
export class ApplicationsModule {}
