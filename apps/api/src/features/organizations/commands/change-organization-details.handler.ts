import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TUpdateOrganizationDetailsCommandInput } from '@rollcall/contracts';
import { ORGANIZATION_TREE_STREAM, organizationDecider, organizationStream, organizationTitleReservation, organizationTreeDecider } from '@rollcall/domain';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, loadStream, type PlannedWrite } from '../../../platform/commands/multi-stream';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class ChangeOrganizationDetailsCommand {
  constructor(
    readonly organizationId: string,
    readonly input: TUpdateOrganizationDetailsCommandInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * Title and description on the organization's stream (a rename reserves the new title and releases
 * the old one in the same append). A `parent_id` in the input also moves the organization: the tree
 * decides the move (parent exists, no cycle) and both streams are appended together, so a refused move
 * changes no detail either.
 */
@CommandHandler(ChangeOrganizationDetailsCommand)
export class ChangeOrganizationDetailsHandler implements ICommandHandler<ChangeOrganizationDetailsCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, input, context }: ChangeOrganizationDetailsCommand): Promise<CommandOutcome<{ id: string }>> {
    const moves = input.parent_id !== undefined;
    const position = await retryingOnConflict(async () => {
      const organization = await loadStream(this.store, organizationDecider, organizationStream(organizationId));
      const at = this.clock.now().toISOString();
      const changed = organizationDecider.decide({ type: 'ChangeOrganizationDetails', data: { title: input.title, description: input.description, changedAt: at } }, organization.state);
      const writes: PlannedWrite[] = [{ stream: organization, events: changed, ...titleSwap(organization.state, input.title) }];
      if (moves) {
        const tree = await loadStream(this.store, organizationTreeDecider, ORGANIZATION_TREE_STREAM);
        writes.push({ stream: tree, events: organizationTreeDecider.decide({ type: 'PlaceOrganization', data: { organizationId, parentId: input.parent_id ?? null, at } }, tree.state) });
      }
      return appendDecision(this.store, this.clock, context, writes);
    });
    return { value: { id: organizationId }, position };
  }
}

function titleSwap(state: { status: string; title?: string }, title: string): Pick<PlannedWrite, 'reservations' | 'releases'> {
  if (state.status !== 'active' || state.title === undefined) return {};
  const next = organizationTitleReservation(title);
  const previous = organizationTitleReservation(state.title);
  return previous.value === next.value ? {} : { reservations: [next], releases: [previous] };
}
