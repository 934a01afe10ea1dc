import { Module } from '@nestjs/common';
import { AddTeamMemberHandler } from './commands/add-team-member.handler';
import { CreateTeamHandler } from './commands/create-team.handler';
import { DeleteTeamHandler } from './commands/delete-team.handler';
import { RemoveTeamMemberHandler } from './commands/remove-team-member.handler';
import { RenameTeamHandler } from './commands/rename-team.handler';
import { FindTeamsHandler } from './queries/find-teams.query';
import { GetTeamHandler } from './queries/get-team.query';
import { ListAccountTeamsHandler } from './queries/list-account-teams.query';
import { ListTeamMembersHandler } from './queries/list-team-members.query';
import { ListTeamsHandler } from './queries/list-teams.query';
import { TeamsV1Controller } from './rest/teams.v1.controller';
import { TeamsV2Controller } from './rest/teams.v2.controller';

/** Teams and their members (docs/adr/0010): REST v1/v2 and (trpc/teams.router.ts) tRPC over the same handlers. */
@Module({
  controllers: [TeamsV1Controller, TeamsV2Controller],
  providers: [
    CreateTeamHandler,
    RenameTeamHandler,
    DeleteTeamHandler,
    AddTeamMemberHandler,
    RemoveTeamMemberHandler,
    ListTeamsHandler,
    FindTeamsHandler,
    GetTeamHandler,
    ListTeamMembersHandler,
    ListAccountTeamsHandler,
  ],
})
export class TeamsModule {}
