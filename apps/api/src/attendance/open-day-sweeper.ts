import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { attendanceDayDecider, attendanceDayStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying } from '../application/aggregate-repository';
import type { Clock } from '../application/clock';
import { IntervalRunner } from '../application/interval-runner';
import { systemContext } from '../application/request-context';
import { CLOCK, EVENT_STORE, READ_DB } from '../core/tokens';
import type { EventStore } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from './attendance-rules.provider';

const HOUR_MS = 3_600_000;

/**
 * Open days past the limit (16 h) are flagged even when the card is never scanned again: on an
 * interval, each day stream with a slot open for that long records `OpenDayFlagged` once (the decider
 * records nothing for a slot already flagged, so two sweeps at once are harmless). Nothing closes a
 * day by guessing a departure (ADR 0013): a correction does, with its reason.
 */
@Injectable()
export class OpenDaySweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OpenDaySweeper');
  private readonly runner = new IntervalRunner<number>(this.logger);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {}

  onModuleInit(): void {
    this.runner.start(this.settings.openDaySweepMs, () => this.sweep());
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }

  /** flags the slots open for at least the limit at `now`; answers how many it flagged */
  sweep(now: Date = this.clock.now()): Promise<number> {
    return this.runner.exclusive(() => this.flag(now));
  }

  private async flag(now: Date): Promise<number> {
    const { openDayLimitHours } = this.settings.rules;
    const openSince = new Date(now.getTime() - openDayLimitHours * HOUR_MS).toISOString();
    const days = await this.db
      .selectFrom('attendance_slots_v1')
      .select(['account_id', 'day'])
      .distinct()
      .where('departed_at', 'is', null)
      .where('arrived_at', '<=', openSince)
      .where('flags', 'not like', '%open_day%')
      .execute();
    let flagged = 0;
    for (const { account_id: accountId, day } of days) {
      try {
        const result = await handleCommandRetrying(
          this.store,
          this.clock,
          attendanceDayDecider,
          attendanceDayStream(accountId, day),
          { type: 'FlagOpenDays', data: { accountId, now: now.toISOString(), openDayLimitHours } },
          systemContext(),
        );
        flagged += result.events.length;
      } catch (error) {
        this.logger.warn(`could not flag the open day ${day} of account ${accountId}: ${(error as Error).message}`);
      }
    }
    return flagged;
  }
}
