import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, readerDecider, readerStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import { appendDecision, loadStream, type PlannedWrite } from '../../../platform/commands/multi-stream';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from '../attendance-rules.provider';

export class StartRegisterModeCommand {
  constructor(
    readonly accountId: string,
    readonly context: RequestContext,
  ) {}
}

export interface RegisterModeArmed {
  readers: string[];
  expires_at: string;
}

/**
 * `POST scanner/mode/register/{account}`: arms every free enrollment reader for the account (ADR
 * 0013); one armed by another administrator for another account is left alone. No enrollment reader
 * at all is `reader.no_enrollment_reader`; all of them busy is `reader.register_mode_busy`.
 */
@CommandHandler(StartRegisterModeCommand)
export class StartRegisterModeHandler implements ICommandHandler<StartRegisterModeCommand, CommandOutcome<RegisterModeArmed>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {}

  async execute({ accountId, context }: StartRegisterModeCommand): Promise<CommandOutcome<RegisterModeArmed>> {
    const account = await this.db.selectFrom('accounts_v2').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new DomainError('account.not_found', 'This account does not exist', 'account_id');
    const candidates = await this.db.selectFrom('readers_v1').select('id').where('role', '=', 'enrollment').orderBy('name').execute();
    if (!candidates.length) throw new DomainError('reader.no_enrollment_reader', 'No enrollment reader is free to take a card');
    return retryingOnConflict(async () => {
      const at = this.clock.now().toISOString();
      const writes: PlannedWrite[] = [];
      let busy: DomainError | null = null;
      let expiresAt = at;
      for (const { id } of candidates) {
        const reader = await loadStream(this.store, readerDecider, readerStream(id));
        if (reader.state.status !== 'active') continue;
        try {
          const events = readerDecider.decide({ type: 'StartRegisterMode', data: { accountId, startedBy: context.actor, timeoutSeconds: this.settings.registerModeTimeoutSeconds, at } }, reader.state);
          writes.push({ stream: reader, events });
          for (const event of events) if (event.type === 'RegisterModeStarted') expiresAt = event.data.expiresAt;
        } catch (error) {
          if (error instanceof DomainError && error.code === 'reader.register_mode_busy') busy = error;
          else throw error;
        }
      }
      if (!writes.length) throw busy ?? new DomainError('reader.no_enrollment_reader', 'No enrollment reader is free to take a card');
      const position = await appendDecision(this.store, this.clock, context, writes);
      return { value: { readers: writes.map((write) => write.stream.streamId.slice('reader-'.length)), expires_at: expiresAt }, position };
    });
  }
}
