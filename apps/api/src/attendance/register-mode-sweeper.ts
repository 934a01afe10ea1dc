import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { readerDecider, readerStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../application/aggregate-repository';
import type { Clock } from '../application/clock';
import { IntervalRunner } from '../application/interval-runner';
import { systemContext } from '../application/request-context';
import { CLOCK, EVENT_STORE, READ_DB } from '../core/tokens';
import type { EventStore } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from './attendance-rules.provider';

/**
 * Register mode ends by itself: on an interval, every reader whose arming's time is up records
 * `RegisterModeEnded` (expired), so the console's 'Add a smartcard' dialog closes. The decider
 * records nothing for an arming still running or already ended, so two processes sweeping at once
 * (or a sweep racing a scan) are harmless.
 */
@Injectable()
export class RegisterModeSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RegisterModeSweeper');
  private readonly runner = new IntervalRunner<number>(this.logger);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {}

  onModuleInit(): void {
    this.runner.start(this.settings.registerModeSweepMs, () => this.sweep());
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }

  /** ends the armings whose time is up at `now`; answers how many it ended */
  sweep(now: Date = this.clock.now()): Promise<number> {
    return this.runner.exclusive(() => this.expire(now.toISOString()));
  }

  private async expire(at: string): Promise<number> {
    const due = await this.db.selectFrom('readers_v1').select('id').where('register_mode_expires_at', 'is not', null).where('register_mode_expires_at', '<=', at).execute();
    let ended = 0;
    for (const { id } of due) {
      try {
        const result = await handleCommand(this.store, this.clock, readerDecider, readerStream(id), { type: 'ExpireRegisterMode', data: { at } }, systemContext());
        ended += result.events.length;
      } catch (error) {
        this.logger.warn(`could not end register mode of reader ${id}: ${(error as Error).message}`);
      }
    }
    return ended;
  }
}
