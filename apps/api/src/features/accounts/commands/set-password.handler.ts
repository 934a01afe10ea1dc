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

/** the caller's own account: its password changes on its own page, with the current one (review R24c G2) */
export const ownPasswordRefused = () =>
  new DomainError('account.own_password_via_own_page', "An administrator's password setting is for other accounts: change your own password on your own page (My account, Security), with your current password");

export class SetPasswordCommand {
  constructor(
    readonly accountId: string,
    readonly password: string,
    readonly context: RequestContext,
    /** the account the caller acts for (a session's or an access token's): never the one whose password is set */
    readonly callerAccountId: string,
  ) {}
}

/**
 * `PUT`/`PATCH account/{id}/password`: an administrator sets a password under the account's policy.
 * Every session of the account ends with the old password (ASVS 3.3.3), before the answer. Never
 * the caller's own account: that would set a password without the current one, so a stolen
 * administrator's session could take the account over (review R24c G2, docs/adr/0025 'Amendment');
 * one's own password changes on one's own page (`me/password`, `account/password/change`), with the
 * current one, as the factors' reset refuses one's own account (second_factor.reset_own_account).
 */
@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly newPassword: NewPasswordService,
    private readonly sessions: EndAccountSessions,
  ) {}

  async execute({ accountId, password, context, callerAccountId }: SetPasswordCommand): Promise<CommandOutcome<{ id: string }>> {
    if (accountId === callerAccountId) throw ownPasswordRefused();
    const state = await loadState(this.store, accountDecider, accountStream(accountId));
    if (state.status !== 'created') throw new DomainError('account.not_found', 'Account not found');
    const prepared = await this.newPassword.prepare(state, password);
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'SetPassword', data: { ...prepared, changedAt: this.clock.now().toISOString() } }, context);
    const ended = await this.sessions.endAll(accountId, null, 'revoked', context);
    return { value: { id: accountId }, position: ended ?? result.position };
  }
}
