import { Inject, Injectable, Logger } from '@nestjs/common';
import { readerDecider, readerStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import { systemContext } from '../../platform/commands/request-context';
import { Sweeper } from '../../platform/runtime/sweeper';
import { CLOCK, EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from './attendance-rules.provider';

/**
 * Register mode ends by itself: on an interval, every reader whose arming's time is up records
 * `RegisterModeEnded` (expired), so the console's 'Add a smartcard' dialog closes. The decider
 * records nothing for an arming still running or already ended, so two processes sweeping at once
 * (or a sweep racing a scan) are harmless.
 */
@Injectable()
export class RegisterModeSweeper extends Sweeper<string> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) settings: AttendanceSettings,
  ) {
    super(new Logger('RegisterModeSweeper'), clock, settings.registerModeSweepMs);
  }

  protected async due(now: Date): Promise<string[]> {
    const rows = await this.db.selectFrom('readers_v1').select('id').where('register_mode_expires_at', 'is not', null).where('register_mode_expires_at', '<=', now.toISOString()).execute();
    return rows.map((row) => row.id);
  }

  protected async settle(readerId: string, now: Date): Promise<number> {
    return (await handleCommand(this.store, this.clock, readerDecider, readerStream(readerId), { type: 'ExpireRegisterMode', data: { at: now.toISOString() } }, systemContext())).events.length;
  }

  protected describe(readerId: string): string {
    return `end register mode of reader ${readerId}`;
  }
}
