import { Module } from '@nestjs/common';
import { CreateAttendanceStatusHandler } from './commands/create-attendance-status.handler';
import { DeleteAttendanceStatusHandler } from './commands/delete-attendance-status.handler';
import { UpdateAttendanceStatusHandler } from './commands/update-attendance-status.handler';
import { GetAttendanceStatusHandler } from './queries/get-attendance-status.query';
import { ListAttendanceStatusesHandler } from './queries/list-attendance-statuses.query';
import { AttendanceStatusesV1Controller } from './rest/attendance-statuses.v1.controller';
import { AttendanceStatusesV2Controller } from './rest/attendance-statuses.v2.controller';

/** Attendance statuses (docs/adr/0013): REST v1/v2 and (trpc/attendance-statuses.router.ts) tRPC over the same handlers. */
@Module({
  controllers: [AttendanceStatusesV1Controller, AttendanceStatusesV2Controller],
  providers: [CreateAttendanceStatusHandler, UpdateAttendanceStatusHandler, DeleteAttendanceStatusHandler, ListAttendanceStatusesHandler, GetAttendanceStatusHandler],
})
export class AttendanceStatusesModule {}
