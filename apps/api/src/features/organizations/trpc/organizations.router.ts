import type { QueryBus } from '@nestjs/cqrs';
import {
  ACCESS_NOTICES,
  rolePermissionNotice,
  ZCreatePermissionInput,
  ZCreateRoleInput,
  ZMemberRolesInput,
  ZPermissionByIdInput,
  ZRenamePermissionInput,
  ZRenameRoleInput,
  ZReslugPermissionInput,
  ZReslugRoleInput,
  ZRoleAccountsInput,
  ZPermissionAccountsInput,
  ZRoleByIdInput,
  ZSetMemberRoleInput,
  ZSetRolePermissionInput,
  type TMemberRoleFlag,
  type TPermission,
  type TRole,
  type TRoleAccount,
  ZCreateOrganizationInput,
  ZDeleteOrganizationInput,
  ZFindOrganizationsInput,
  ZListOrganizationsInput,
  ZOrganizationByIdInput,
  ZOrganizationMemberInput,
  ZOrganizationMembersOfInput,
  ZOrganizationsOfAccountInput,
  ZSubOrganizationsOfInput,
  ZUpdateOrganizationInput,
  type TAccountOrganization,
  type TOrganization,
  type TOrganizationMember,
  type TOrganizationSearchItem,
  type TPage,
  type TSubOrganization,
} from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { listScope } from '../../../platform/access/permissions';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { deletingOrganization, movingOrganization, on } from '../../../platform/access/resource-requirements';
import { AddMemberCommand, memberAddedMessage, type Membership } from '../commands/add-member.handler';
import { ChangeOrganizationDetailsCommand } from '../commands/change-organization-details.handler';
import { ChangeOrganizationTimeZoneCommand, ZOrganizationTimeZoneInput, type TOrganizationTimeZone } from '../commands/change-organization-time-zone.handler';
import { CreateOrganizationCommand } from '../commands/create-organization.handler';
import { DeleteOrganizationCommand, organizationRemovedMessage } from '../commands/delete-organization.handler';
import { memberRemovedMessage, RemoveMemberCommand } from '../commands/remove-member.handler';
import { FindOrganizationsQuery } from '../queries/find-organizations.query';
import { GetOrganizationQuery } from '../queries/get-organization.query';
import { GetOrganizationTimeZoneQuery } from '../queries/get-organization-time-zone.query';
import { ListAccountOrganizationsQuery } from '../queries/list-account-organizations.query';
import { ListOrganizationMembersQuery } from '../queries/list-organization-members.query';
import { ListOrganizationsQuery } from '../queries/list-organizations.query';
import { ListSubOrganizationsQuery } from '../queries/list-sub-organizations.query';
import { ChangePermissionSlugCommand } from '../commands/change-permission-slug.handler';
import { ChangePermissionTitleCommand } from '../commands/change-permission-title.handler';
import { ChangeRoleSlugCommand } from '../commands/change-role-slug.handler';
import { ChangeRoleTitleCommand } from '../commands/change-role-title.handler';
import { CreatePermissionCommand } from '../commands/create-permission.handler';
import { CreateRoleCommand } from '../commands/create-role.handler';
import { DeletePermissionCommand } from '../commands/delete-permission.handler';
import { DeleteRoleCommand } from '../commands/delete-role.handler';
import { SetAccountRoleCommand } from '../commands/set-account-role.handler';
import { SetRolePermissionCommand, type RolePermissionSwitch } from '../commands/set-role-permission.handler';
import { GetPermissionQuery } from '../queries/get-permission.query';
import { GetRoleQuery } from '../queries/get-role.query';
import { ListMemberRolesQuery } from '../queries/list-member-roles.query';
import { ListOrganizationPermissionsQuery } from '../queries/list-organization-permissions.query';
import { ListOrganizationRolesQuery } from '../queries/list-organization-roles.query';
import { ListPermissionAccountsQuery, ListRoleAccountsQuery } from '../queries/list-role-accounts.query';

/** `organizations.*` of the console's API: the same command and query handlers as REST v1 and v2. */
export function buildOrganizationsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const organization = (id: string) => queryBus.execute<GetOrganizationQuery, TOrganization>(new GetOrganizationQuery(id));
  const permission = (id: string) => queryBus.execute<GetPermissionQuery, TPermission>(new GetPermissionQuery(id));
  const role = (id: string) => queryBus.execute<GetRoleQuery, TRole>(new GetRoleQuery(id));
  return router({
    list: permittedProcedure('organizations:read')
      .input(ZListOrganizationsInput)
      .query(({ input, ctx }) => queryBus.execute<ListOrganizationsQuery, TPage<TOrganization>>(new ListOrganizationsQuery(input, listScope(ctx.principal, 'organizations:read')))),
    find: permittedProcedure('organizations:read')
      .input(ZFindOrganizationsInput)
      .query(({ input, ctx }) => queryBus.execute<FindOrganizationsQuery, TOrganizationSearchItem[]>(new FindOrganizationsQuery(input.organization, listScope(ctx.principal, 'organizations:read')))),
    byId: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZOrganizationByIdInput)
      .query(({ input }) => organization(input.id)),
    create: permittedProcedure('organizations:write', on('organization', 'input:parent_id'))
      .input(ZCreateOrganizationInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateOrganizationCommand(input, ctx.context));
        return organization(outcome.value.id);
      }),
    updateDetails: permittedProcedure('organizations:write', on('organization', 'input:id'), movingOrganization('input:id', 'input:parent_id'))
      .input(ZUpdateOrganizationInput)
      .mutation(async ({ input: { id, ...details }, ctx }) => {
        await gateway.execute(new ChangeOrganizationDetailsCommand(id, details, ctx.context));
        return organization(id);
      }),
    // the zone that draws the attendance days of members without their own (REST v2 `organization/{id}/time-zone`)
    timeZone: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZOrganizationByIdInput)
      .query(({ input }) => queryBus.execute<GetOrganizationTimeZoneQuery, TOrganizationTimeZone>(new GetOrganizationTimeZoneQuery(input.id))),
    setTimeZone: permittedProcedure('organizations:write', on('organization', 'input:id'))
      .input(ZOrganizationTimeZoneInput.extend({ id: ZOrganizationByIdInput.shape.id }))
      .mutation(async ({ input: { id, ...zone }, ctx }) => (await gateway.execute<TOrganizationTimeZone>(new ChangeOrganizationTimeZoneCommand(id, zone, ctx.context))).value),
    delete: permittedProcedure(
      'organizations:write',
      on('organization', 'input:id'),
      on('organization', 'input:suborganizations_move_to'),
      on('organization', 'input:accounts_move_to'),
      deletingOrganization('input:id', 'input:suborganizations', 'input:accounts'),
    )
      .input(ZDeleteOrganizationInput)
      .mutation(async ({ input: { id, ...choices }, ctx }) => {
        await gateway.execute(new DeleteOrganizationCommand(id, choices, ctx.context));
        return { message: organizationRemovedMessage };
      }),
    subOrganizations: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZSubOrganizationsOfInput)
      .query(({ input: { id, ...page } }) => queryBus.execute<ListSubOrganizationsQuery, TPage<TSubOrganization>>(new ListSubOrganizationsQuery(id, page))),
    members: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZOrganizationMembersOfInput)
      .query(({ input: { id, ...page } }) => queryBus.execute<ListOrganizationMembersQuery, TPage<TOrganizationMember>>(new ListOrganizationMembersQuery(id, page))),
    addMember: permittedProcedure('organizations:write', on('organization', 'input:id'), on('account', 'input:account_id'))
      .input(ZOrganizationMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<Membership>(new AddMemberCommand(input.id, input.account_id, ctx.context));
        return { message: memberAddedMessage(outcome.value) };
      }),
    removeMember: permittedProcedure('organizations:write', on('organization', 'input:id'), on('account', 'input:account_id'))
      .input(ZOrganizationMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<Membership>(new RemoveMemberCommand(input.id, input.account_id, ctx.context));
        return { message: memberRemovedMessage(outcome.value) };
      }),
    ofAccount: permittedProcedure('organizations:read', on('account', 'input:account_id'))
      .input(ZOrganizationsOfAccountInput)
      .query(({ input: { account_id, ...page }, ctx }) => queryBus.execute<ListAccountOrganizationsQuery, TPage<TAccountOrganization>>(new ListAccountOrganizationsQuery(account_id, page, listScope(ctx.principal, 'organizations:read')))),

    // permissions and roles of an organization, and the roles its members hold (docs/adr/0012)
    permissions: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZOrganizationByIdInput)
      .query(({ input }) => queryBus.execute<ListOrganizationPermissionsQuery, TPermission[]>(new ListOrganizationPermissionsQuery(input.id))),
    createPermission: permittedProcedure('organizations:write', on('organization', 'input:organization_id'))
      .input(ZCreatePermissionInput)
      .mutation(async ({ input, ctx }) => permission((await gateway.execute<{ id: string }>(new CreatePermissionCommand(input, ctx.context))).value.id)),
    renamePermission: permittedProcedure('organizations:write', on('permission', 'input:id'))
      .input(ZRenamePermissionInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangePermissionTitleCommand(input.id, input.title, ctx.context));
        return permission(input.id);
      }),
    reslugPermission: permittedProcedure('organizations:write', on('permission', 'input:id'))
      .input(ZReslugPermissionInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangePermissionSlugCommand(input.id, input.slug, ctx.context));
        return permission(input.id);
      }),
    deletePermission: permittedProcedure('organizations:write', on('permission', 'input:id'))
      .input(ZPermissionByIdInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new DeletePermissionCommand(input.id, ctx.context));
        return { message: ACCESS_NOTICES.permissionDeleted };
      }),
    roles: permittedProcedure('organizations:read', on('organization', 'input:id'))
      .input(ZOrganizationByIdInput)
      .query(({ input }) => queryBus.execute<ListOrganizationRolesQuery, TRole[]>(new ListOrganizationRolesQuery(input.id))),
    createRole: permittedProcedure('organizations:write', on('organization', 'input:organization_id'))
      .input(ZCreateRoleInput)
      .mutation(async ({ input, ctx }) => role((await gateway.execute<{ id: string }>(new CreateRoleCommand(input, ctx.context))).value.id)),
    renameRole: permittedProcedure('organizations:write', on('role', 'input:id'))
      .input(ZRenameRoleInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeRoleTitleCommand(input.id, input.title, ctx.context));
        return role(input.id);
      }),
    reslugRole: permittedProcedure('organizations:write', on('role', 'input:id'))
      .input(ZReslugRoleInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new ChangeRoleSlugCommand(input.id, input.slug, ctx.context));
        return role(input.id);
      }),
    deleteRole: permittedProcedure('organizations:write', on('role', 'input:id'))
      .input(ZRoleByIdInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new DeleteRoleCommand(input.id, ctx.context));
        return { message: ACCESS_NOTICES.roleDeleted };
      }),
    setRolePermission: permittedProcedure('organizations:write', on('role', 'input:role_id'), on('permission', 'input:permission_id'))
      .input(ZSetRolePermissionInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<RolePermissionSwitch>(new SetRolePermissionCommand(input.role_id, input.permission_id, input.enabled, ctx.context));
        return { message: rolePermissionNotice(outcome.value.slug, input.enabled) };
      }),
    permissionAccounts: permittedProcedure('organizations:read', on('permission', 'input:permission_id'))
      .input(ZPermissionAccountsInput)
      .query(({ input }) => queryBus.execute<ListPermissionAccountsQuery, TRoleAccount[]>(new ListPermissionAccountsQuery(input.permission_id))),
    roleAccounts: permittedProcedure('organizations:read', on('role', 'input:role_id'))
      .input(ZRoleAccountsInput)
      .query(({ input }) => queryBus.execute<ListRoleAccountsQuery, TRoleAccount[]>(new ListRoleAccountsQuery(input.role_id))),
    memberRoles: permittedProcedure('organizations:read', on('organization', 'input:id'), on('account', 'input:account_id'))
      .input(ZMemberRolesInput)
      .query(({ input }) => queryBus.execute<ListMemberRolesQuery, TMemberRoleFlag[]>(new ListMemberRolesQuery(input.id, input.account_id))),
    setMemberRole: permittedProcedure('organizations:write', on('organization', 'input:id'), on('account', 'input:account_id'), on('role', 'input:role_id'))
      .input(ZSetMemberRoleInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new SetAccountRoleCommand(input.account_id, input.role_id, input.id, input.associated, ctx.context));
        return { message: input.associated ? ACCESS_NOTICES.roleAddedToAccount : ACCESS_NOTICES.roleRemovedFromAccount };
      }),
  });
}
