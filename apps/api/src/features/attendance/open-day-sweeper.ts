import { Inject, Injectable, Logger } from '@nestjs/common';
import { attendanceDayDecider, attendanceDayStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying } from '../../platform/commands/handle-command';
import type { Clock } from '../../platform/runtime/clock';
import { systemContext } from '../../platform/commands/request-context';
import { Sweeper } from '../../platform/runtime/sweeper';
import { CLOCK, EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from './attendance-rules.provider';

const HOUR_MS = 3_600_000;

type OpenDay = { account_id: string; day: string };

/**
 * Open days past the limit (16 h) are flagged even when the card is never scanned again: on an
 * interval, each day stream with a slot open for that long records `OpenDayFlagged` once (the decider
 * records nothing for a slot already flagged, so two sweeps at once are harmless). Nothing closes a
 * day by guessing a departure (ADR 0013): a correction does, with its reason.
 */
@Injectable()
export class OpenDaySweeper extends Sweeper<OpenDay> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {
    super(new Logger('OpenDaySweeper'), clock, settings.openDaySweepMs);
  }

  protected due(now: Date): Promise<OpenDay[]> {
    const openSince = new Date(now.getTime() - this.settings.rules.openDayLimitHours * HOUR_MS).toISOString();
    return this.db
      .selectFrom('attendance_slots_v1')
      .select(['account_id', 'day'])
      .distinct()
      .where('departed_at', 'is', null)
      .where('arrived_at', '<=', openSince)
      .where('flags', 'not like', '%open_day%')
      .execute();
  }

  protected async settle({ account_id: accountId, day }: OpenDay, now: Date): Promise<number> {
    const command = { type: 'FlagOpenDays' as const, data: { accountId, now: now.toISOString(), openDayLimitHours: this.settings.rules.openDayLimitHours } };
    return (await handleCommandRetrying(this.store, this.clock, attendanceDayDecider, attendanceDayStream(accountId, day), command, systemContext())).events.length;
  }

  protected describe({ account_id: accountId, day }: OpenDay): string {
    return `flag the open day ${day} of account ${accountId}`;
  }
}
