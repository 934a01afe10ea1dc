import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { passwordPolicyDecider, passwordPolicyStream, type PasswordPolicyData } from '@rollcall/domain';
import { handleCommand } from '../../application/aggregate-repository';
import type { Clock } from '../../application/clock';
import type { RequestContext } from '../../application/request-context';
import type { CommandOutcome } from '../../core/command-gateway';
import { CLOCK, EVENT_STORE } from '../../core/tokens';
import type { EventStore } from '../../event-store/event-store.port';

export class CreatePasswordPolicyCommand {
  constructor(
    readonly policy: PasswordPolicyData,
    readonly context: RequestContext,
  ) {}
}

@CommandHandler(CreatePasswordPolicyCommand)
export class CreatePasswordPolicyHandler implements ICommandHandler<CreatePasswordPolicyCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ policy, context }: CreatePasswordPolicyCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(this.store, this.clock, passwordPolicyDecider, passwordPolicyStream(policy.policyId), { type: 'CreatePasswordPolicy', data: policy }, context);
    return { value: { id: policy.policyId }, position: result.position };
  }
}
