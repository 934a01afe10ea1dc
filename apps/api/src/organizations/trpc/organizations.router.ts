import type { QueryBus } from '@nestjs/cqrs';
import {
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
import type { CommandGateway } from '../../core/command-gateway';
import { permittedProcedure, router } from '../../trpc/trpc';
import { AddMemberCommand, memberAddedMessage, type Membership } from '../commands/add-member.handler';
import { ChangeOrganizationDetailsCommand } from '../commands/change-organization-details.handler';
import { CreateOrganizationCommand } from '../commands/create-organization.handler';
import { DeleteOrganizationCommand, organizationRemovedMessage } from '../commands/delete-organization.handler';
import { memberRemovedMessage, RemoveMemberCommand } from '../commands/remove-member.handler';
import { FindOrganizationsQuery } from '../queries/find-organizations.query';
import { GetOrganizationQuery } from '../queries/get-organization.query';
import { ListAccountOrganizationsQuery } from '../queries/list-account-organizations.query';
import { ListOrganizationMembersQuery } from '../queries/list-organization-members.query';
import { ListOrganizationsQuery } from '../queries/list-organizations.query';
import { ListSubOrganizationsQuery } from '../queries/list-sub-organizations.query';

/** `organizations.*` of the console's API: the same command and query handlers as REST v1 and v2. */
export function buildOrganizationsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const organization = (id: string) => queryBus.execute<GetOrganizationQuery, TOrganization>(new GetOrganizationQuery(id));
  return router({
    list: permittedProcedure('organizations:read')
      .input(ZListOrganizationsInput)
      .query(({ input }) => queryBus.execute<ListOrganizationsQuery, TPage<TOrganization>>(new ListOrganizationsQuery(input))),
    find: permittedProcedure('organizations:read')
      .input(ZFindOrganizationsInput)
      .query(({ input }) => queryBus.execute<FindOrganizationsQuery, TOrganizationSearchItem[]>(new FindOrganizationsQuery(input.organization))),
    byId: permittedProcedure('organizations:read')
      .input(ZOrganizationByIdInput)
      .query(({ input }) => organization(input.id)),
    create: permittedProcedure('organizations:write')
      .input(ZCreateOrganizationInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateOrganizationCommand(input, ctx.context));
        return organization(outcome.value.id);
      }),
    updateDetails: permittedProcedure('organizations:write')
      .input(ZUpdateOrganizationInput)
      .mutation(async ({ input: { id, ...details }, ctx }) => {
        await gateway.execute(new ChangeOrganizationDetailsCommand(id, details, ctx.context));
        return organization(id);
      }),
    delete: permittedProcedure('organizations:write')
      .input(ZDeleteOrganizationInput)
      .mutation(async ({ input: { id, ...choices }, ctx }) => {
        await gateway.execute(new DeleteOrganizationCommand(id, choices, ctx.context));
        return { message: organizationRemovedMessage };
      }),
    subOrganizations: permittedProcedure('organizations:read')
      .input(ZSubOrganizationsOfInput)
      .query(({ input: { id, ...page } }) => queryBus.execute<ListSubOrganizationsQuery, TPage<TSubOrganization>>(new ListSubOrganizationsQuery(id, page))),
    members: permittedProcedure('organizations:read')
      .input(ZOrganizationMembersOfInput)
      .query(({ input: { id, ...page } }) => queryBus.execute<ListOrganizationMembersQuery, TPage<TOrganizationMember>>(new ListOrganizationMembersQuery(id, page))),
    addMember: permittedProcedure('organizations:write')
      .input(ZOrganizationMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<Membership>(new AddMemberCommand(input.id, input.account_id, ctx.context));
        return { message: memberAddedMessage(outcome.value) };
      }),
    removeMember: permittedProcedure('organizations:write')
      .input(ZOrganizationMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<Membership>(new RemoveMemberCommand(input.id, input.account_id, ctx.context));
        return { message: memberRemovedMessage(outcome.value) };
      }),
    ofAccount: permittedProcedure('organizations:read')
      .input(ZOrganizationsOfAccountInput)
      .query(({ input: { account_id, ...page } }) => queryBus.execute<ListAccountOrganizationsQuery, TPage<TAccountOrganization>>(new ListAccountOrganizationsQuery(account_id, page))),
  });
}
