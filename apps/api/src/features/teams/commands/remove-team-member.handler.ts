import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { teamDecider, teamStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { TeamMembership } from './add-team-member.handler';

export class RemoveTeamMemberCommand {
  constructor(
    readonly teamId: string,
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** the spec's notice after 'Leave team' */
export const teamLeftMessage = (m: TeamMembership) => `Account has left the team ${m.teamTitle}`;

/** The account leaves the team (404 team.not_found, 404 team.member_not_found when it is not a member). */
@CommandHandler(RemoveTeamMemberCommand)
export class RemoveTeamMemberHandler implements ICommandHandler<RemoveTeamMemberCommand, CommandOutcome<TeamMembership>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ teamId, accountId, context }: RemoveTeamMemberCommand): Promise<CommandOutcome<TeamMembership>> {
    const membership: TeamMembership = { teamId, teamTitle: '', accountId };
    const result = await handleCommand(this.store, this.clock, teamDecider, teamStream(teamId), { type: 'RemoveAccountFromTeam', data: { accountId, at: this.clock.now().toISOString() } }, context, (state) => {
      if (state.status === 'active') membership.teamTitle = state.title;
      return {};
    });
    return { value: membership, position: result.position };
  }
}
