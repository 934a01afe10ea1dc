import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TRegisterReaderInput } from '@rollcall/contracts';
import { readerDecider, readerNameReservation, readerStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class RegisterReaderCommand {
  constructor(
    readonly input: TRegisterReaderInput,
    readonly context: RequestContext,
  ) {}
}

/** A new door or enrollment reader; its name is unique (case-insensitive). Its token is issued separately. */
@CommandHandler(RegisterReaderCommand)
export class RegisterReaderHandler implements ICommandHandler<RegisterReaderCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, context }: RegisterReaderCommand): Promise<CommandOutcome<{ id: string }>> {
    const readerId = newAggregateId();
    const result = await handleCommand(
      this.store,
      this.clock,
      readerDecider,
      readerStream(readerId),
      { type: 'RegisterReader', data: { readerId, name: input.name, door: input.door, role: input.role, at: this.clock.now().toISOString() } },
      context,
      { reservations: [readerNameReservation(input.name)] },
    );
    return { value: { id: readerId }, position: result.position };
  }
}
