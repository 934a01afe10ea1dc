import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateTeamCommandInput } from '@rollcall/contracts';
import { DomainError, organizationDecider, organizationStream, teamDecider, teamStream, teamTitleReservation } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { teamCandidate } from './team-candidate';

export class CreateTeamCommand {
  constructor(
    readonly input: TCreateTeamCommandInput,
    readonly context: RequestContext,
    /** a protected team cannot be deleted; no REST or tRPC call creates one (seeding and tests do) */
    readonly isProtected = false,
    readonly teamId: string = newAggregateId(),
  ) {}
}

/**
 * 'Create new team': the team's stream gets `TeamCreated` and one `AccountAddedToTeam` per first
 * member, with its title reserved (unique within its organization, or among multi-organization
 * teams: docs/adr/0010). The organization must exist (404 organization.not_found on `organization`);
 * each first member must exist and, for a team of one organization, belong to it, as its own stream
 * says.
 */
@CommandHandler(CreateTeamCommand)
export class CreateTeamHandler implements ICommandHandler<CreateTeamCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context, isProtected, teamId }: CreateTeamCommand): Promise<CommandOutcome<{ id: string }>> {
    const organizationId = input.interorg ? null : (input.organization ?? null);
    if (organizationId) {
      const organization = await loadState(this.store, organizationDecider, organizationStream(organizationId));
      if (organization.status !== 'active') throw new DomainError('organization.not_found', 'Organization not found', 'organization', { organization: ['Organization not found'] });
    }
    const members = await Promise.all([...new Set(input.accounts)].map((accountId) => teamCandidate(this.store, accountId)));
    const createdAt = this.clock.now().toISOString();
    const result = await handleCommand(
      this.store,
      this.clock,
      teamDecider,
      teamStream(teamId),
      { type: 'CreateTeam', data: { teamId, title: input.title, description: input.description, interorg: input.interorg, organizationId, isProtected, createdAt, members } },
      context,
      { reservations: [teamTitleReservation({ title: input.title, organizationId })] },
    );
    return { value: { id: teamId }, position: result.position };
  }
}
