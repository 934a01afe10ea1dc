import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAttendanceStatus } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { toAttendanceStatus } from './attendance-status-rows';

export class ListAttendanceStatusesQuery {}

/**
 * Every status, oldest first, active or not: the statuses screen and the calendar's select (which
 * offers the active ones). Not paged: an installation has a handful, and `GET states/attendance`
 * takes no query.
 */
@QueryHandler(ListAttendanceStatusesQuery)
export class ListAttendanceStatusesHandler implements IQueryHandler<ListAttendanceStatusesQuery, TAttendanceStatus[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute(): Promise<TAttendanceStatus[]> {
    const rows = await this.db.selectFrom('attendance_statuses_v1').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toAttendanceStatus);
  }
}
