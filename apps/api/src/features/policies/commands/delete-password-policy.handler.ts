import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, passwordPolicyDecider, passwordPolicyStream, policyTitleReservation } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { countAccountsByPolicy } from '../queries/policy-rows';

export class DeletePasswordPolicyCommand {
  constructor(
    readonly policyId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * Refuses (409) while accounts have the policy enforced. The count comes from the accounts read
 * model, which the gateway keeps current for this process's own writes; an account created with
 * the policy in the same instant on another process can slip past (see docs/api/compat.md). The
 * title is released with the append, so a new policy may take it.
 */
@CommandHandler(DeletePasswordPolicyCommand)
export class DeletePasswordPolicyHandler implements ICommandHandler<DeletePasswordPolicyCommand, CommandOutcome<{ id: string; title: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ policyId, context }: DeletePasswordPolicyCommand): Promise<CommandOutcome<{ id: string; title: string }>> {
    const inUse = (await countAccountsByPolicy(this.db, [policyId])).get(policyId) ?? 0;
    if (inUse > 0) {
      throw new DomainError('policy.in_use', `This policy is enforced for ${inUse} ${inUse === 1 ? 'account' : 'accounts'}; assign them another policy before deleting it`);
    }
    let title = '';
    const result = await handleCommand(
      this.store,
      this.clock,
      passwordPolicyDecider,
      passwordPolicyStream(policyId),
      { type: 'DeletePasswordPolicy', data: { policyId, deletedAt: this.clock.now().toISOString() } },
      context,
      (state) => {
        if (state.status !== 'created') return {};
        title = state.policy.title;
        return { releases: [policyTitleReservation(state.policy.title)] };
      },
    );
    return { value: { id: policyId, title }, position: result.position };
  }
}
