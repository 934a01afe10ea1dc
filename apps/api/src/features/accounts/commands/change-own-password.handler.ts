import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TChangeOwnPasswordInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, underField } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { EndAccountSessions } from '../../auth/commands/end-account-sessions';
import { PasswordAttempts } from '../../auth/password-attempts';
import { NewPasswordService } from '../new-password';

export class ChangeOwnPasswordCommand {
  constructor(
    readonly accountId: string,
    readonly input: TChangeOwnPasswordInput,
    readonly context: RequestContext,
    /** the session that made the change stays signed in; every other session of the account ends */
    readonly keepSessionId: string | null = null,
  ) {}
}

/**
 * `POST account/password/change`: the signed-in account replaces its password, proving the current
 * one. The one call (besides account/current and logout) a restricted session may make; the change
 * clears status 3 and restarts the password's age, which lifts the restriction. Every other session
 * of the account ends (ASVS 3.3.3), before the answer. The current password is checked as a
 * sign-in's: the sign-in throttle, and a wrong one is a failed sign-in of the account (its lockout);
 * a locked account's change is refused (429 with Retry-After), the right password included.
 */
@CommandHandler(ChangeOwnPasswordCommand)
export class ChangeOwnPasswordHandler implements ICommandHandler<ChangeOwnPasswordCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly attempts: PasswordAttempts,
    private readonly newPassword: NewPasswordService,
    private readonly sessions: EndAccountSessions,
  ) {}

  async execute({ accountId, input, context, keepSessionId }: ChangeOwnPasswordCommand): Promise<CommandOutcome<{ id: string }>> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    // the current password is a sign-in's password: throttled and counted in the lockout alike (password-attempts.ts)
    const result = await this.attempts.proveCurrentPassword(state, input.current_password, context, async (checkedPasswordHash) => {
      const prepared = await this.newPassword.prepare(state, input.new_password, 'new_password');
      try {
        // refused if a parallel guess locked the account, or a parallel change replaced the password, since the check
        return await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'SetPassword', data: { ...prepared, changedAt: this.clock.now().toISOString(), checkedPasswordHash } }, context);
      } catch (error) {
        // the decider names `password`; this call's field is `new_password`
        if (error instanceof DomainError && error.field === 'password') throw underField(error, 'new_password');
        throw error;
      }
    });
    const ended = await this.sessions.endAll(accountId, keepSessionId, 'revoked', context);
    return { value: { id: accountId }, position: ended ?? result.position };
  }
}
