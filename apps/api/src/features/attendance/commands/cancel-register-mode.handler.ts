import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { readerDecider, readerStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, loadStream, type PlannedWrite } from '../../../platform/commands/multi-stream';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class CancelRegisterModeCommand {
  constructor(readonly context: RequestContext) {}
}

/**
 * `POST scanner/cancel`: ends the register modes this administrator started (ADR 0013); another
 * administrator's stays. Nothing armed (already ended, expired) is fine: the dialog just closes.
 */
@CommandHandler(CancelRegisterModeCommand)
export class CancelRegisterModeHandler implements ICommandHandler<CancelRegisterModeCommand, CommandOutcome<{ readers: string[] }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context }: CancelRegisterModeCommand): Promise<CommandOutcome<{ readers: string[] }>> {
    const candidates = await this.db.selectFrom('readers_v1').select('id').where('role', '=', 'enrollment').execute();
    return retryingOnConflict(async () => {
      const at = this.clock.now().toISOString();
      const writes: PlannedWrite[] = [];
      for (const { id } of candidates) {
        const reader = await loadStream(this.store, readerDecider, readerStream(id));
        // the stream, not the read model, says who armed it: a just-started arming is cancelled too
        if (reader.state.status !== 'active' || reader.state.registerMode?.startedBy !== context.actor) continue;
        writes.push({ stream: reader, events: readerDecider.decide({ type: 'CancelRegisterMode', data: { at } }, reader.state) });
      }
      const position = await appendDecision(this.store, this.clock, context, writes);
      return { value: { readers: writes.filter((write) => write.events.length).map((write) => write.stream.streamId.slice('reader-'.length)) }, position };
    });
  }
}
