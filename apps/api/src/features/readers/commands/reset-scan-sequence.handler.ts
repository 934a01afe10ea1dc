import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, readerDecider, readerStream, scanLedgerDecider, scanLedgerStream } from '@rollcall/domain';
import { handleCommand, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';

export class ResetScanSequenceCommand {
  constructor(
    readonly readerId: string,
    readonly reason: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * A reader whose queue was wiped numbers its scans from 1 again: an administrator records why
 * (`ScanSequenceReset`, with what the ledger had acknowledged). Without it, its scans go backwards.
 */
@CommandHandler(ResetScanSequenceCommand)
export class ResetScanSequenceHandler implements ICommandHandler<ResetScanSequenceCommand, CommandOutcome<{ id: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId, reason, context }: ResetScanSequenceCommand): Promise<CommandOutcome<{ id: string }>> {
    const reader = await loadState(this.store, readerDecider, readerStream(readerId));
    if (reader.status !== 'active') throw new DomainError('reader.not_found', 'This reader does not exist or was deleted');
    const result = await handleCommand(
      this.store,
      this.clock,
      scanLedgerDecider,
      scanLedgerStream(readerId),
      { type: 'ResetScanSequence', data: { readerId, reason, resetBy: context.actor, at: this.clock.now().toISOString() } },
      context,
    );
    return { value: { id: readerId }, position: result.position };
  }
}
