import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TCreateOrganizationCommandInput } from '@rollcall/contracts';
import { ORGANIZATION_TREE_STREAM, organizationDecider, organizationStream, organizationTitleReservation, organizationTreeDecider } from '@rollcall/domain';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import { appendDecision, loadStream } from '../../../platform/commands/multi-stream';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class CreateOrganizationCommand {
  constructor(
    readonly input: TCreateOrganizationCommandInput,
    readonly context: RequestContext,
    /** only the bootstrap's organization is protected: it cannot be deleted */
    readonly isProtected = false,
    readonly organizationId: string = newAggregateId(),
  ) {}
}

/**
 * The organization's own stream (title reserved) and its place in the tree, in one append: an
 * organization never exists outside the tree. Decided again on a fresh tree when another structural
 * change won the race (the parent may have gone meanwhile).
 */
@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context, isProtected, organizationId }: CreateOrganizationCommand): Promise<CommandOutcome<{ id: string }>> {
    const position = await retryingOnConflict(async () => {
      const [organization, tree] = await Promise.all([
        loadStream(this.store, organizationDecider, organizationStream(organizationId)),
        loadStream(this.store, organizationTreeDecider, ORGANIZATION_TREE_STREAM),
      ]);
      const at = this.clock.now().toISOString();
      const created = organizationDecider.decide(
        { type: 'CreateOrganization', data: { organizationId, title: input.title, description: input.description, isProtected, createdAt: at } },
        organization.state,
      );
      const placed = organizationTreeDecider.decide({ type: 'PlaceOrganization', data: { organizationId, parentId: input.parent_id ?? null, at } }, tree.state);
      return appendDecision(this.store, this.clock, context, [
        { stream: organization, events: created, reservations: [organizationTitleReservation(input.title)] },
        { stream: tree, events: placed },
      ]);
    });
    return { value: { id: organizationId }, position };
  }
}
