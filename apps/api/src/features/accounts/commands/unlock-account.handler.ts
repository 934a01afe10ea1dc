import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { OwnCredentialsRule, type CredentialsCaller } from '../own-credentials';

export class UnlockAccountCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
    readonly caller: CredentialsCaller,
  ) {}
}

/**
 * `POST account/{id}/unlock`: ends a lockout and forgets the failed sign-ins. The caller's own
 * needs a recent sign-in (OwnCredentialsRule, review R24c G2): the count guards its current password.
 */
@CommandHandler(UnlockAccountCommand)
export class UnlockAccountHandler implements ICommandHandler<UnlockAccountCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ownCredentials: OwnCredentialsRule,
  ) {}

  async execute({ accountId, context, caller }: UnlockAccountCommand): Promise<CommandOutcome<{ id: string }>> {
    await this.ownCredentials.check(accountId, caller);
    // wrong passwords racing the unlock append to the same stream: decide again rather than fail
    const result = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'UnlockAccount', data: { at: this.clock.now().toISOString() } }, context);
    return { value: { id: accountId }, position: result.position };
  }
}
