import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { readerDecider, readerNameReservation, readerStream, type ReaderEvent } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class ChangeReaderCommand {
  constructor(
    readonly readerId: string,
    readonly change: { name: string } | { door: string },
    readonly context: RequestContext,
  ) {}
}

/** Rename a reader (the old name is freed, the new one taken, in the same append) or move it to another door. */
@CommandHandler(ChangeReaderCommand)
export class ChangeReaderHandler implements ICommandHandler<ChangeReaderCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId, change, context }: ChangeReaderCommand): Promise<CommandOutcome<{ id: string }>> {
    const at = this.clock.now().toISOString();
    const command = 'name' in change ? { type: 'RenameReader' as const, data: { name: change.name, at } } : { type: 'MoveReader' as const, data: { door: change.door, at } };
    const result = await handleCommand(this.store, this.clock, readerDecider, readerStream(readerId), command, context, (_state, events: ReaderEvent[]) => {
      const renamed = events.find((event): event is Extract<ReaderEvent, { type: 'DoorReaderRenamed' }> => event.type === 'DoorReaderRenamed');
      if (!renamed) return {};
      const [before, after] = [readerNameReservation(renamed.data.previousName), readerNameReservation(renamed.data.name)];
      // a change of case only keeps the reservation it has
      return before.value === after.value ? {} : { releases: [before], reservations: [after] };
    });
    return { value: { id: readerId }, position: result.position };
  }
}
