import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { readerDecider, readerNameReservation, readerStream, type ReaderEvent } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class DeleteReaderCommand {
  constructor(
    readonly readerId: string,
    readonly context: RequestContext,
  ) {}
}

/** The reader goes with its token (and its register mode); its name is free again. Its scans stay in the log. */
@CommandHandler(DeleteReaderCommand)
export class DeleteReaderHandler implements ICommandHandler<DeleteReaderCommand, CommandOutcome<{ id: string; name: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId, context }: DeleteReaderCommand): Promise<CommandOutcome<{ id: string; name: string }>> {
    const result = await handleCommand(this.store, this.clock, readerDecider, readerStream(readerId), { type: 'DeleteReader', data: { at: this.clock.now().toISOString() } }, context, (_state, events) => {
      const deleted = events.find((event): event is Extract<ReaderEvent, { type: 'DoorReaderDeleted' }> => event.type === 'DoorReaderDeleted');
      return deleted ? { releases: [readerNameReservation(deleted.data.name)] } : {};
    });
    const deleted = result.events.find((event) => event.type === 'DoorReaderDeleted') as Extract<ReaderEvent, { type: 'DoorReaderDeleted' }>;
    return { value: { id: readerId, name: deleted.data.name }, position: result.position };
  }
}
