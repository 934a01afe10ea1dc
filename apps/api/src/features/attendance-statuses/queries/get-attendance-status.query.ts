import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAttendanceStatus } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { toAttendanceStatus } from './attendance-status-rows';

export class GetAttendanceStatusQuery {
  constructor(readonly statusId: string) {}
}

@QueryHandler(GetAttendanceStatusQuery)
export class GetAttendanceStatusHandler implements IQueryHandler<GetAttendanceStatusQuery, TAttendanceStatus> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ statusId }: GetAttendanceStatusQuery): Promise<TAttendanceStatus> {
    const row = await this.db.selectFrom('attendance_statuses_v1').selectAll().where('id', '=', statusId).executeTakeFirst();
    if (!row) throw new DomainError('attendance_status.not_found', 'Attendance status not found');
    return toAttendanceStatus(row);
  }
}
