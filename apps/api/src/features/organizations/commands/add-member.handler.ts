import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, organizationDecider, organizationNotFound, organizationStream } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class AddMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

export interface Membership {
  accountId: string;
  firstName: string;
  lastName: string;
  organizationId: string;
  organizationTitle: string | null;
}

export const memberAddedMessage = (m: Membership) => `Account ${m.firstName} ${m.lastName} added to organization ${m.organizationTitle ?? ''}`.trim();

/**
 * The account joins (membership lives in the account's stream, docs/adr/0009). The organization must
 * exist (404 organization.not_found), checked on its own stream; 'Account and organization already
 * associated!' (409 membership.exists) is the account's own rule.
 */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand, CommandOutcome<Membership>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, accountId, context }: AddMemberCommand): Promise<CommandOutcome<Membership>> {
    const organization = await loadState(this.store, organizationDecider, organizationStream(organizationId));
    if (organization.status !== 'active') throw organizationNotFound();
    const membership: Membership = { accountId, firstName: '', lastName: '', organizationId, organizationTitle: organization.title };
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'JoinOrganization', data: { organizationId, at: this.clock.now().toISOString() } }, context, (state) => {
      if (state.status === 'created') Object.assign(membership, { firstName: state.firstName, lastName: state.lastName });
      return {};
    });
    return { value: membership, position: result.position };
  }
}
