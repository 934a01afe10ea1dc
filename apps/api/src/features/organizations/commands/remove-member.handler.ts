import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, organizationDecider, organizationStream } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { Membership } from './add-member.handler';

export class RemoveMemberCommand {
  constructor(
    readonly organizationId: string,
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** the spec's notice after 'Remove from organization' */
export const memberRemovedMessage = (m: Membership) => `Account ${m.firstName} ${m.lastName} successfully deleted or removed from organization`;
export const organizationLeftMessage = (m: Membership) => (m.organizationTitle ? `Account has left the organization ${m.organizationTitle}` : 'Account has left the organization');

/**
 * The account leaves (404 membership.not_found when it is not a member, 404 account.not_found for an
 * unknown account). The organization itself is not required to exist any more: a membership that
 * outlived its organization (docs/adr/0009, Consequences) can still be ended.
 */
@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand, CommandOutcome<Membership>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, accountId, context }: RemoveMemberCommand): Promise<CommandOutcome<Membership>> {
    const organization = await loadState(this.store, organizationDecider, organizationStream(organizationId));
    const membership: Membership = { accountId, firstName: '', lastName: '', organizationId, organizationTitle: organization.status === 'active' ? organization.title : null };
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'LeaveOrganization', data: { organizationId, at: this.clock.now().toISOString() } }, context, (state) => {
      if (state.status === 'created') Object.assign(membership, { firstName: state.firstName, lastName: state.lastName });
      return {};
    });
    return { value: membership, position: result.position };
  }
}
