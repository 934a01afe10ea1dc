import { Module } from '@nestjs/common';
import { AddMemberHandler } from './commands/add-member.handler';
import { ChangeOrganizationDetailsHandler } from './commands/change-organization-details.handler';
import { CreateOrganizationHandler } from './commands/create-organization.handler';
import { DeleteOrganizationHandler } from './commands/delete-organization.handler';
import { RemoveMemberHandler } from './commands/remove-member.handler';
import { FindOrganizationsHandler } from './queries/find-organizations.query';
import { GetOrganizationHandler } from './queries/get-organization.query';
import { ListAccountOrganizationsHandler } from './queries/list-account-organizations.query';
import { ListOrganizationMembersHandler } from './queries/list-organization-members.query';
import { ListOrganizationsHandler } from './queries/list-organizations.query';
import { ListSubOrganizationsHandler } from './queries/list-sub-organizations.query';
import { OrganizationsV1Controller } from './rest/organizations.v1.controller';
import { OrganizationsV2Controller } from './rest/organizations.v2.controller';

/** Organizations, their tree and membership (docs/adr/0009): REST v1/v2 and (trpc/organizations.router.ts) tRPC over the same handlers. */
@Module({
  controllers: [OrganizationsV1Controller, OrganizationsV2Controller],
  providers: [
    CreateOrganizationHandler,
    ChangeOrganizationDetailsHandler,
    DeleteOrganizationHandler,
    AddMemberHandler,
    RemoveMemberHandler,
    ListOrganizationsHandler,
    FindOrganizationsHandler,
    GetOrganizationHandler,
    ListSubOrganizationsHandler,
    ListOrganizationMembersHandler,
    ListAccountOrganizationsHandler,
  ],
})
export class OrganizationsModule {}
