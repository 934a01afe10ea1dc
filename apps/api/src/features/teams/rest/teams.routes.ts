import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ZAccountId,
  ZAccountTeamsInput,
  ZAssociateTeamInput,
  ZCreateTeamInput,
  ZFindTeamsInput,
  ZListTeamsInput,
  ZRenameTeamInput,
  ZTeamId,
  type TAccountTeam,
  type TPage,
  type TTeam,
  type TTeamDetails,
  type TTeamMember,
  type TTeamSearchItem,
} from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { on, onWholeTeam } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
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
import { ZAccountTeam, ZMessageAnswer, ZPage, ZTeam, ZTeamDetails, ZTeamMember, ZTeamSearchItem } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const teamIdOf = (id: string, field = 'id') => parseWith(z.object({ [field]: ZTeamId }), { [field]: id })[field] as string;
const accountIdOf = (id: string) => parseWith(z.object({ account_id: ZAccountId }), { account_id: id }).account_id;

/**
 * The team calls of the spec (console-directory.md section 7 v1 and v2 'Teams', console-accounts.md
 * section 7), shared by v1 and v2, plus `GET team/{id}` for the console. Express matches in
 * registration order, which is method order here: `team/find` comes before `team/:id`.
 */
export abstract class TeamsRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  private team(id: string, principal: Principal) {
    return this.queryBus.execute<GetTeamQuery, TTeamDetails>(new GetTeamQuery(id, listScope(principal, 'teams:read')));
  }

  @Get('teams')
  @Documented({ summary: "Teams: paging, search on the title, organization_id (a live organization's teams), sort by title or created_at", answer: ZPage(ZTeam), query: ZListTeamsInput })
  @RequirePermission('teams:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListTeamsQuery, TPage<TTeam>>(new ListTeamsQuery(parseWith(ZListTeamsInput, query), listScope(principal, 'teams:read'))));
  }

  @Get('team/find')
  @Documented({ summary: 'Find teams by title: case-insensitive substring (prefix matches first), at most 20', answer: ZTeamSearchItem.array(), query: ZFindTeamsInput })
  @RequirePermission('teams:read')
  async find(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const { team } = parseWith(ZFindTeamsInput, query);
    return this.wrap(await this.queryBus.execute<FindTeamsQuery, TTeamSearchItem[]>(new FindTeamsQuery(team, listScope(principal, 'teams:read'))));
  }

  @Post('team')
  @Documented({ summary: 'Create a team: title unique within its organization (or among multi-organization teams); organization required unless interorg; accounts are the first members', answer: ZTeamDetails, body: ZCreateTeamInput })
  @RequirePermission('teams:write', on('organization', 'body:organization'), on('account', 'body:accounts'))
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response, @CurrentPrincipal() principal: Principal) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateTeamCommand(parseWith(ZCreateTeamInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.team(outcome.value.id, principal));
  }

  @Patch('team/:id/title')
  @Documented({ summary: 'Rename a team (the inline title edit)', answer: ZTeamDetails, body: ZRenameTeamInput })
  @RequirePermission('teams:write', onWholeTeam('param:id'))
  async rename(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response, @CurrentPrincipal() principal: Principal) {
    const teamId = teamIdOf(id);
    const { title } = parseWith(ZRenameTeamInput, body);
    const outcome = await this.gateway.execute(new RenameTeamCommand(teamId, title, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.team(teamId, principal));
  }

  @Get('team/:id/associated-accounts')
  @Documented({ summary: 'The members of a team, by name', answer: ZTeamMember.array() })
  @RequirePermission('teams:read', on('team', 'param:id'))
  async members(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<ListTeamMembersQuery, TTeamMember[]>(new ListTeamMembersQuery(teamIdOf(id), listScope(principal, 'teams:read'))));
  }

  @Get('team/:id')
  @Documented({ summary: "One team with its organization's title, member count and members' ids (our addition for the console)", answer: ZTeamDetails })
  @RequirePermission('teams:read', on('team', 'param:id'))
  async read(@Param('id') id: string, @CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.team(teamIdOf(id), principal));
  }

  @Delete('team/:id')
  @Documented({ summary: 'Delete a team (403 team.protected for a protected one)', answer: ZMessageAnswer })
  @RequirePermission('teams:write', onWholeTeam('param:id'))
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; title: string }>(new DeleteTeamCommand(teamIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: teamDeletedMessage(outcome.value.title) });
  }

  @Get('account/:id/teams')
  @Documented({ summary: "An account's teams, paged (sortBy association_created_at or team_title)", answer: ZPage(ZAccountTeam), query: ZAccountTeamsInput })
  @RequirePermission('teams:read', on('account', 'param:id'))
  async teamsOfAccount(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const input = parseWith(ZAccountTeamsInput, query);
    return this.wrap(await this.queryBus.execute<ListAccountTeamsQuery, TPage<TAccountTeam>>(new ListAccountTeamsQuery(accountIdOf(id), input, listScope(principal, 'teams:read'))));
  }

  @Post('account/:id/associate/team')
  @Documented({ summary: "The account joins a team (409 team.member_exists 'User already associated!')", answer: ZMessageAnswer, body: ZAssociateTeamInput })
  @RequirePermission('teams:write', on('account', 'param:id'), on('team', 'body:team_id'))
  @HttpCode(201)
  async associate(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const { team_id } = parseWith(ZAssociateTeamInput, body);
    const outcome = await this.gateway.execute<TeamMembership>(new AddTeamMemberCommand(team_id, accountId, context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: teamJoinedMessage(outcome.value) });
  }

  @Delete('account/:id/leave-team/:team_id')
  @Documented({ summary: 'The account leaves a team', answer: ZMessageAnswer })
  @RequirePermission('teams:write', on('account', 'param:id'), on('team', 'param:team_id'))
  async leave(@Param('id') id: string, @Param('team_id') teamId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<TeamMembership>(new RemoveTeamMemberCommand(teamIdOf(teamId, 'team_id'), accountIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: teamLeftMessage(outcome.value) });
  }
}
