import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { readerDecider, readerStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class RevokeReaderTokenCommand {
  constructor(
    readonly readerId: string,
    readonly context: RequestContext,
  ) {}
}

/** The reader's token stops working on its very next request (the scan path checks the reader's stream). */
@CommandHandler(RevokeReaderTokenCommand)
export class RevokeReaderTokenHandler implements ICommandHandler<RevokeReaderTokenCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId, context }: RevokeReaderTokenCommand): Promise<CommandOutcome<{ id: string }>> {
    const result = await handleCommand(this.store, this.clock, readerDecider, readerStream(readerId), { type: 'RevokeReaderToken', data: { at: this.clock.now().toISOString() } }, context);
    return { value: { id: readerId }, position: result.position };
  }
}
