import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { EndAccountSessions } from '../../auth/commands/end-account-sessions';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class RequirePasswordChangeCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * `PATCH account/{id}/password/next-login`: status 3; the next sign-in must change the password first.
 * An administrator's reset: the account's open sessions end (ASVS 3.3.3), so whoever holds one signs
 * in again and meets the change.
 */
@CommandHandler(RequirePasswordChangeCommand)
export class RequirePasswordChangeHandler implements ICommandHandler<RequirePasswordChangeCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sessions: EndAccountSessions,
  ) {}

  async execute({ accountId, context }: RequirePasswordChangeCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'RequirePasswordChange', data: { at: this.clock.now().toISOString() } }, context);
    const ended = await this.sessions.endAll(accountId, null, 'revoked', context);
    return { value: { id: accountId }, position: ended ?? result.position };
  }
}
