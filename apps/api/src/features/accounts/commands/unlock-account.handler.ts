import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, accountStream } from '@rollcall/domain';
import { handleCommandRetrying } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class UnlockAccountCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

/** `POST account/{id}/unlock`: ends a lockout and forgets the failed sign-ins. */
@CommandHandler(UnlockAccountCommand)
export class UnlockAccountHandler implements ICommandHandler<UnlockAccountCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, context }: UnlockAccountCommand): Promise<CommandOutcome<{ id: string }>> {
    // wrong passwords racing the unlock append to the same stream: decide again rather than fail
    const result = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(accountId), { type: 'UnlockAccount', data: { at: this.clock.now().toISOString() } }, context);
    return { value: { id: accountId }, position: result.position };
  }
}
