import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { passwordPolicyDecider, passwordPolicyStream, policyTitleReservation, type PasswordPolicyRules } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class CreatePasswordPolicyCommand {
  constructor(
    readonly rules: PasswordPolicyRules,
    readonly context: RequestContext,
    readonly policyId: string = newAggregateId(),
  ) {}
}

/** Load (empty) stream -> decide -> append, reserving the title (unique case-insensitively). */
@CommandHandler(CreatePasswordPolicyCommand)
export class CreatePasswordPolicyHandler implements ICommandHandler<CreatePasswordPolicyCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ rules, context, policyId }: CreatePasswordPolicyCommand): Promise<CommandOutcome<{ id: string }>> {
    const policy = { policyId, ...rules, createdAt: this.clock.now().toISOString() };
    const result = await handleCommand(this.store, this.clock, passwordPolicyDecider, passwordPolicyStream(policy.policyId), { type: 'CreatePasswordPolicy', data: policy }, context, {
      reservations: [policyTitleReservation(policy.title)],
    });
    return { value: { id: policy.policyId }, position: result.position };
  }
}
