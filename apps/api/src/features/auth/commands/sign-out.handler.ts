import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { sessionDecider, sessionStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class SignOutCommand {
  constructor(
    readonly sessionId: string,
    readonly context: RequestContext,
  ) {}
}

/** Revokes the session on the server: the token stops working on the very next request. */
@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand, CommandOutcome<{ ok: true }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, context }: SignOutCommand): Promise<CommandOutcome<{ ok: true }>> {
    const result = await handleCommand(this.store, this.clock, sessionDecider, sessionStream(sessionId), { type: 'EndSession', data: { endedAt: this.clock.now().toISOString(), reason: 'logout' } }, context);
    return { value: { ok: true }, position: result.position };
  }
}
