import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TIssuedReaderToken } from '@rollcall/contracts';
import { readerDecider, readerStream } from '@rollcall/domain';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import { hashReaderToken, newReaderToken, READER_TOKEN_DISPLAY_LENGTH } from '../reader-token';

export class IssueReaderTokenCommand {
  constructor(
    readonly readerId: string,
    readonly context: RequestContext,
  ) {}
}

/** A new token for the reader, answered once; only its hash is kept, and it replaces the reader's previous token. */
@CommandHandler(IssueReaderTokenCommand)
export class IssueReaderTokenHandler implements ICommandHandler<IssueReaderTokenCommand, CommandOutcome<TIssuedReaderToken>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ readerId, context }: IssueReaderTokenCommand): Promise<CommandOutcome<TIssuedReaderToken>> {
    const token = newReaderToken();
    const displayPrefix = token.slice(0, READER_TOKEN_DISPLAY_LENGTH);
    const result = await handleCommand(
      this.store,
      this.clock,
      readerDecider,
      readerStream(readerId),
      { type: 'IssueReaderToken', data: { tokenHash: hashReaderToken(token), displayPrefix, at: this.clock.now().toISOString() } },
      context,
    );
    return { value: { reader_id: readerId, token, token_prefix: displayPrefix }, position: result.position };
  }
}
