import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { teamDecider, teamStream, teamTitleReservation } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class DeleteTeamCommand {
  constructor(
    readonly teamId: string,
    readonly context: RequestContext,
  ) {}
}

export const teamDeletedMessage = (title: string) => `Team ${title} deleted`;

/** Deletes a team (403 team.protected for a protected one); its title is released with the append. */
@CommandHandler(DeleteTeamCommand)
export class DeleteTeamHandler implements ICommandHandler<DeleteTeamCommand, CommandOutcome<{ id: string; title: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ teamId, context }: DeleteTeamCommand): Promise<CommandOutcome<{ id: string; title: string }>> {
    let title = '';
    const result = await handleCommand(this.store, this.clock, teamDecider, teamStream(teamId), { type: 'DeleteTeam', data: { deletedAt: this.clock.now().toISOString() } }, context, (state) => {
      if (state.status !== 'active') return {};
      title = state.title;
      return { releases: [teamTitleReservation(state)] };
    });
    return { value: { id: teamId, title }, position: result.position };
  }
}
