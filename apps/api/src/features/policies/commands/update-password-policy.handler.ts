import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { passwordPolicyDecider, passwordPolicyStream, policyTitleReservation, type PasswordPolicyRules } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class UpdatePasswordPolicyCommand {
  constructor(
    readonly policyId: string,
    readonly rules: PasswordPolicyRules,
    readonly context: RequestContext,
  ) {}
}

/** A rename reserves the new title and releases the old one in the same append. */
@CommandHandler(UpdatePasswordPolicyCommand)
export class UpdatePasswordPolicyHandler implements ICommandHandler<UpdatePasswordPolicyCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ policyId, rules: sent, context }: UpdatePasswordPolicyCommand): Promise<CommandOutcome<{ id: string }>> {
    // a client that does not know the second-factor rule (the spec's form) leaves it as it is
    // (and the passkey sign-in, docs/adr/0029)
    const current = sent.secondFactor === undefined || sent.passkeySignIn === undefined ? await loadState(this.store, passwordPolicyDecider, passwordPolicyStream(policyId)) : null;
    const rules: PasswordPolicyRules =
      current?.status === 'created'
        ? { ...sent, secondFactor: sent.secondFactor ?? current.policy.secondFactor ?? 'off', passkeySignIn: sent.passkeySignIn ?? current.policy.passkeySignIn ?? false }
        : sent;
    const result = await handleCommand(
      this.store,
      this.clock,
      passwordPolicyDecider,
      passwordPolicyStream(policyId),
      { type: 'UpdatePasswordPolicy', data: { policyId, ...rules, updatedAt: this.clock.now().toISOString() } },
      context,
      (state) => {
        const next = policyTitleReservation(rules.title);
        const previous = state.status === 'created' ? policyTitleReservation(state.policy.title) : null;
        if (!previous || previous.value === next.value) return {};
        return { reservations: [next], releases: [previous] };
      },
    );
    return { value: { id: policyId }, position: result.position };
  }
}
