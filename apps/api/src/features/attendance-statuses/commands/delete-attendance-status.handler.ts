import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { attendanceStatusDecider, attendanceStatusStream, attendanceStatusTitleReservation, DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class DeleteAttendanceStatusCommand {
  constructor(
    readonly statusId: string,
    readonly context: RequestContext,
  ) {}
}

/**
 * Refuses (409 attendance_status.in_use) while calendar events carry the status, as policies do
 * while accounts use them: an administrator makes it inactive instead, which keeps it on those
 * events and out of the select for new ones. The count comes from the calendar read model (see
 * docs/api/compat.md for the race with another process). The title is released with the append.
 */
@CommandHandler(DeleteAttendanceStatusCommand)
export class DeleteAttendanceStatusHandler implements ICommandHandler<DeleteAttendanceStatusCommand, CommandOutcome<{ id: string; title: string }>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ statusId, context }: DeleteAttendanceStatusCommand): Promise<CommandOutcome<{ id: string; title: string }>> {
    const usage = await this.db.selectFrom('calendar_events_v1').select((eb) => eb.fn.countAll<number>().as('count')).where('attendance_status_id', '=', statusId).executeTakeFirst();
    const inUse = Number(usage?.count ?? 0);
    if (inUse > 0) {
      throw new DomainError('attendance_status.in_use', `This status is used by ${inUse} calendar ${inUse === 1 ? 'event' : 'events'}; make it inactive instead`);
    }
    let title = '';
    const result = await handleCommand(
      this.store,
      this.clock,
      attendanceStatusDecider,
      attendanceStatusStream(statusId),
      { type: 'DeleteAttendanceStatus', data: { deletedAt: this.clock.now().toISOString() } },
      context,
      (state) => {
        if (state.status !== 'active') return {};
        title = state.title;
        return { releases: [attendanceStatusTitleReservation(state.title)] };
      },
    );
    return { value: { id: statusId, title }, position: result.position };
  }
}
