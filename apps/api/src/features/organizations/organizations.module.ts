import { Module } from '@nestjs/common';
import { AddMemberHandler } from './commands/add-member.handler';
import { ChangeOrganizationDetailsHandler } from './commands/change-organization-details.handler';
import { ChangeOrganizationTimeZoneHandler } from './commands/change-organization-time-zone.handler';
import { CreateOrganizationHandler } from './commands/create-organization.handler';
import { DeleteOrganizationHandler } from './commands/delete-organization.handler';
import { RemoveMemberHandler } from './commands/remove-member.handler';
import { FindOrganizationsHandler } from './queries/find-organizations.query';
import { GetOrganizationHandler } from './queries/get-organization.query';
import { GetOrganizationTimeZoneHandler } from './queries/get-organization-time-zone.query';
import { ListAccountOrganizationsHandler } from './queries/list-account-organizations.query';
import { ListOrganizationMembersHandler } from './queries/list-organization-members.query';
import { ListOrganizationsHandler } from './queries/list-organizations.query';
import { ListSubOrganizationsHandler } from './queries/list-sub-organizations.query';
import { OrganizationsV1Controller } from './rest/organizations.v1.controller';
import { OrganizationsV2Controller } from './rest/organizations.v2.controller';
import { OrganizationTimeZoneV2Controller } from './rest/organization-time-zone.v2.controller';
import { OrganizationAccessV1Controller } from './rest/organization-access.v1.controller';
import { OrganizationAccessV2Controller } from './rest/organization-access.v2.controller';
import { ChangePermissionSlugHandler } from './commands/change-permission-slug.handler';
import { ChangePermissionTitleHandler } from './commands/change-permission-title.handler';
import { ChangeRoleSlugHandler } from './commands/change-role-slug.handler';
import { ChangeRoleTitleHandler } from './commands/change-role-title.handler';
import { CreatePermissionHandler } from './commands/create-permission.handler';
import { CreateRoleHandler } from './commands/create-role.handler';
import { DeletePermissionHandler } from './commands/delete-permission.handler';
import { DeleteRoleHandler } from './commands/delete-role.handler';
import { SetAccountRoleHandler } from './commands/set-account-role.handler';
import { SetRolePermissionHandler } from './commands/set-role-permission.handler';
import { GetPermissionHandler } from './queries/get-permission.query';
import { GetRoleHandler } from './queries/get-role.query';
import { ListMemberRolesHandler } from './queries/list-member-roles.query';
import { ListOrganizationPermissionsHandler } from './queries/list-organization-permissions.query';
import { ListOrganizationRolesHandler } from './queries/list-organization-roles.query';
import { ListPermissionAccountsHandler, ListRoleAccountsHandler } from './queries/list-role-accounts.query';

/**
 * Organizations, their tree and membership (docs/adr/0009), their permissions and roles and the roles
 * members hold (docs/adr/0012), and the time zone that draws its members' attendance days: REST v1/v2 and (trpc/organizations.router.ts) tRPC over the same handlers.
 */
@Module({
  controllers: [OrganizationsV1Controller, OrganizationsV2Controller, OrganizationAccessV1Controller, OrganizationAccessV2Controller, OrganizationTimeZoneV2Controller],
  providers: [
    CreateOrganizationHandler,
    ChangeOrganizationDetailsHandler,
    ChangeOrganizationTimeZoneHandler,
    GetOrganizationTimeZoneHandler,
    DeleteOrganizationHandler,
    AddMemberHandler,
    RemoveMemberHandler,
    ListOrganizationsHandler,
    FindOrganizationsHandler,
    GetOrganizationHandler,
    ListSubOrganizationsHandler,
    ListOrganizationMembersHandler,
    ListAccountOrganizationsHandler,
    CreatePermissionHandler,
    ChangePermissionTitleHandler,
    ChangePermissionSlugHandler,
    DeletePermissionHandler,
    CreateRoleHandler,
    ChangeRoleTitleHandler,
    ChangeRoleSlugHandler,
    DeleteRoleHandler,
    SetRolePermissionHandler,
    SetAccountRoleHandler,
    ListOrganizationPermissionsHandler,
    ListOrganizationRolesHandler,
    GetPermissionHandler,
    GetRoleHandler,
    ListRoleAccountsHandler,
    ListPermissionAccountsHandler,
    ListMemberRolesHandler,
  ],
})
export class OrganizationsModule {}
