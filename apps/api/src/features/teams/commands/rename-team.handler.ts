import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { teamDecider, teamStream, teamTitleReservation, type TeamState } from '@rollcall/domain';
import { handleCommand, type HandleOptions } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class RenameTeamCommand {
  constructor(
    readonly teamId: string,
    readonly title: string,
    readonly context: RequestContext,
  ) {}
}

/** The inline title edit: the new title is reserved and the old one released in the same append. */
@CommandHandler(RenameTeamCommand)
export class RenameTeamHandler implements ICommandHandler<RenameTeamCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ teamId, title, context }: RenameTeamCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(this.store, this.clock, teamDecider, teamStream(teamId), { type: 'ChangeTeamTitle', data: { title, changedAt: this.clock.now().toISOString() } }, context, (state) =>
      titleSwap(state, title),
    );
    return { value: { id: teamId }, position: result.position };
  }
}

function titleSwap(state: TeamState, title: string): HandleOptions {
  if (state.status !== 'active') return {};
  const next = teamTitleReservation({ title, organizationId: state.organizationId });
  const previous = teamTitleReservation(state);
  // a change of case only keeps the reservation
  return previous.value === next.value ? {} : { reservations: [next], releases: [previous] };
}
