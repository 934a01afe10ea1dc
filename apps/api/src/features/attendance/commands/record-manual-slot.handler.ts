import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TManualSlotRecorded, TRecordManualSlotInput } from '@rollcall/contracts';
import { addDays, attendanceDayDecider, attendanceDayStream, DomainError, fold, manualSlotDay, type AttendanceDayEvent } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { eventMetadata, type RequestContext } from '../../../platform/commands/request-context';
import { retryingOnConflict } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { newAggregateId } from '../../../platform/runtime/ids';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { attendanceTimeZone } from '../attendance-time-zone';

export class RecordManualSlotCommand {
  constructor(
    readonly input: { account_id: string; arrived_at: string; departed_at: string | null; reason: string },
    /** asks whether the administrator may edit this account's attendance; false answers 'not found', as a correction's does */
    readonly mayWrite: (accountId: string) => Promise<boolean>,
    readonly context: RequestContext,
  ) {}
}

export type ManualSlotInput = Required<Pick<TRecordManualSlotInput, 'account_id' | 'arrived_at' | 'reason'>> & { departed_at: string | null };

/**
 * `POST logs/arrivals-departures` (ours): an administrator adds a slot no scan recorded, as
 * `ManualSlotRecorded` in the stream of its arrival's day (docs/adr/0013, 'Slots added by hand').
 * The day and the times are read in the account's zone, the one that draws its scans' days. The
 * decision sees the day before and the day after too (a night shift may reach into the day, the new
 * slot may run past midnight). The append checks the version of the arrival's day, so a scan landing
 * there meanwhile makes it decide again; a neighbour day's stream is not locked by it (the event
 * store checks versions only of streams it writes), a race with a scan after midnight that an
 * administrator would see in the log and correct.
 */
@CommandHandler(RecordManualSlotCommand)
export class RecordManualSlotHandler implements ICommandHandler<RecordManualSlotCommand, CommandOutcome<TManualSlotRecorded>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, mayWrite, context }: RecordManualSlotCommand): Promise<CommandOutcome<TManualSlotRecorded>> {
    const timeZone = await attendanceTimeZone(this.db, input.account_id);
    if (!timeZone || !(await mayWrite(input.account_id))) throw new DomainError('account.not_found', 'Account not found', 'account_id');
    const slotId = newAggregateId();
    return retryingOnConflict(async () => {
      const at = this.clock.now().toISOString();
      const command = { type: 'RecordManualSlot' as const, data: { accountId: input.account_id, slotId, arrivedAt: input.arrived_at, departedAt: input.departed_at, reason: input.reason, recordedBy: context.actor, timeZone, at } };
      const day = manualSlotDay(input.arrived_at, timeZone);
      if (day === null) {
        // an arrival that is no real time: the decider refuses it under its field
        attendanceDayDecider.decide(command, attendanceDayDecider.initialState());
        throw new Error('an arrival that is no real time was accepted');
      }
      const streams = [addDays(day, -1), day, addDays(day, 1)].map((date) => attendanceDayStream(input.account_id, date));
      const read = await Promise.all(streams.map((stream) => this.store.readStream(stream)));
      const state = fold(attendanceDayDecider, read.flat().map((stored) => ({ type: stored.type, data: stored.data }) as AttendanceDayEvent));
      const [event] = attendanceDayDecider.decide(command, state);
      if (event?.type !== 'ManualSlotRecorded') throw new Error('a slot added by hand records ManualSlotRecorded');
      const expectedVersion = (index: number) => (read[index].length === 0 ? ('no_stream' as const) : read[index][read[index].length - 1].streamVersion);
      const target = streams.indexOf(attendanceDayStream(input.account_id, event.data.day));
      const result = await this.store.appendToStream(streams[target], [{ type: event.type, data: event.data, metadata: eventMetadata(context, at) }], { expectedVersion: expectedVersion(target) });
      const { day: slotDay, arrivedAt, departedAt } = event.data;
      return { value: { id: slotId, account_id: input.account_id, day: slotDay, arrived_at: arrivedAt, departed_at: departedAt }, position: result.position };
    });
  }
}
