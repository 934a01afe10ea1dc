import type { QueryBus } from '@nestjs/cqrs';
import {
  ZCreateTeamInput,
  ZFindTeamsInput,
  ZListTeamsInput,
  ZRenameTeamByIdInput,
  ZTeamByIdInput,
  ZTeamMemberInput,
  ZTeamsOfAccountInput,
  type TAccountTeam,
  type TPage,
  type TTeam,
  type TTeamDetails,
  type TTeamMember,
  type TTeamSearchItem,
} from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { listScope } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { on, onWholeTeam } from '../../../platform/access/resource-requirements';
import { AddTeamMemberCommand, teamJoinedMessage, type TeamMembership } from '../commands/add-team-member.handler';
import { CreateTeamCommand } from '../commands/create-team.handler';
import { DeleteTeamCommand, teamDeletedMessage } from '../commands/delete-team.handler';
import { RemoveTeamMemberCommand, teamLeftMessage } from '../commands/remove-team-member.handler';
import { RenameTeamCommand } from '../commands/rename-team.handler';
import { FindTeamsQuery } from '../queries/find-teams.query';
import { GetTeamQuery } from '../queries/get-team.query';
import { ListAccountTeamsQuery } from '../queries/list-account-teams.query';
import { ListTeamMembersQuery } from '../queries/list-team-members.query';
import { ListTeamsQuery } from '../queries/list-teams.query';

/** `teams.*` of the console's API: the same command and query handlers as REST v1 and v2. */
export function buildTeamsRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  const team = (id: string, principal: Principal) => queryBus.execute<GetTeamQuery, TTeamDetails>(new GetTeamQuery(id, listScope(principal, 'teams:read')));
  return router({
    list: permittedProcedure('teams:read')
      .input(ZListTeamsInput)
      .query(({ input, ctx }) => queryBus.execute<ListTeamsQuery, TPage<TTeam>>(new ListTeamsQuery(input, listScope(ctx.principal, 'teams:read')))),
    find: permittedProcedure('teams:read')
      .input(ZFindTeamsInput)
      .query(({ input, ctx }) => queryBus.execute<FindTeamsQuery, TTeamSearchItem[]>(new FindTeamsQuery(input.team, listScope(ctx.principal, 'teams:read')))),
    byId: permittedProcedure('teams:read', on('team', 'input:id'))
      .input(ZTeamByIdInput)
      .query(({ input, ctx }) => team(input.id, ctx.principal)),
    create: permittedProcedure('teams:write', on('organization', 'input:organization'), on('account', 'input:accounts'))
      .input(ZCreateTeamInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string }>(new CreateTeamCommand(input, ctx.context));
        return team(outcome.value.id, ctx.principal);
      }),
    rename: permittedProcedure('teams:write', onWholeTeam('input:id'))
      .input(ZRenameTeamByIdInput)
      .mutation(async ({ input, ctx }) => {
        await gateway.execute(new RenameTeamCommand(input.id, input.title, ctx.context));
        return team(input.id, ctx.principal);
      }),
    delete: permittedProcedure('teams:write', onWholeTeam('input:id'))
      .input(ZTeamByIdInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<{ id: string; title: string }>(new DeleteTeamCommand(input.id, ctx.context));
        return { message: teamDeletedMessage(outcome.value.title) };
      }),
    members: permittedProcedure('teams:read', on('team', 'input:id'))
      .input(ZTeamByIdInput)
      .query(({ input, ctx }) => queryBus.execute<ListTeamMembersQuery, TTeamMember[]>(new ListTeamMembersQuery(input.id, listScope(ctx.principal, 'teams:read')))),
    ofAccount: permittedProcedure('teams:read', on('account', 'input:account_id'))
      .input(ZTeamsOfAccountInput)
      .query(({ input: { account_id, ...page }, ctx }) => queryBus.execute<ListAccountTeamsQuery, TPage<TAccountTeam>>(new ListAccountTeamsQuery(account_id, page, listScope(ctx.principal, 'teams:read')))),
    addMember: permittedProcedure('teams:write', on('team', 'input:team_id'), on('account', 'input:account_id'))
      .input(ZTeamMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<TeamMembership>(new AddTeamMemberCommand(input.team_id, input.account_id, ctx.context));
        return { message: teamJoinedMessage(outcome.value) };
      }),
    removeMember: permittedProcedure('teams:write', on('team', 'input:team_id'), on('account', 'input:account_id'))
      .input(ZTeamMemberInput)
      .mutation(async ({ input, ctx }) => {
        const outcome = await gateway.execute<TeamMembership>(new RemoveTeamMemberCommand(input.team_id, input.account_id, ctx.context));
        return { message: teamLeftMessage(outcome.value) };
      }),
  });
}
