import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream, DomainError } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { EndAccountSessions } from '../../auth/commands/end-account-sessions';
import { NewPasswordService } from '../new-password';

export class SetPasswordCommand {
  constructor(
    readonly accountId: string,
    readonly password: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * `PUT`/`PATCH account/{id}/password`: an administrator sets a password under the account's policy.
 * Every session of the account ends with the old password (ASVS 3.3.3), before the answer.
 */
@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly newPassword: NewPasswordService,
    private readonly sessions: EndAccountSessions,
  ) {}

  async execute({ accountId, password, context }: SetPasswordCommand): Promise<CommandOutcome<{ id: string }>> {
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    const prepared = await this.newPassword.prepare(state, password);
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'SetPassword', data: { ...prepared, changedAt: this.clock.now().toISOString() } }, context);
    const ended = await this.sessions.endAll(accountId, null, 'revoked', context);
    return { value: { id: accountId }, position: ended ?? result.position };
  }
}
