import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { teamDecider, teamStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { teamCandidate } from './team-candidate';

export class AddTeamMemberCommand {
  constructor(
    readonly teamId: string,
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

export interface TeamMembership {
  teamId: string;
  teamTitle: string;
  accountId: string;
}

export const teamJoinedMessage = (m: TeamMembership) => `Account added to the team ${m.teamTitle}`;

/**
 * The account joins the team, decided on the team's stream (409 team.member_exists 'User already
 * associated!'), with what the account's own stream says (404 account.not_found; 400
 * team.member_not_in_organization for a team of another organization).
 */
@CommandHandler(AddTeamMemberCommand)
export class AddTeamMemberHandler implements ICommandHandler<AddTeamMemberCommand, CommandOutcome<TeamMembership>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ teamId, accountId, context }: AddTeamMemberCommand): Promise<CommandOutcome<TeamMembership>> {
    const account = await teamCandidate(this.store, accountId);
    const membership: TeamMembership = { teamId, teamTitle: '', accountId };
    const result = await handleCommand(this.store, this.clock, teamDecider, teamStream(teamId), { type: 'AddAccountToTeam', data: { account, at: this.clock.now().toISOString() } }, context, (state) => {
      if (state.status === 'active') membership.teamTitle = state.title;
      return {};
    });
    return { value: membership, position: result.position };
  }
}
