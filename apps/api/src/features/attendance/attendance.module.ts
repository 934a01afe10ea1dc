import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { attendanceSettingsProvider } from './attendance-rules.provider';
import { CorrectAttendanceSlotHandler } from './commands/correct-attendance-slot.handler';
import { RecordManualSlotHandler } from './commands/record-manual-slot.handler';
import { AssignSmartCardHandler } from './commands/assign-smart-card.handler';
import { DismissUnknownCardHandler } from './commands/dismiss-unknown-card.handler';
import { CancelRegisterModeHandler } from './commands/cancel-register-mode.handler';
import { RecordReaderScansHandler } from './commands/record-reader-scans.handler';
import { RemoveSmartCardHandler } from './commands/remove-smart-card.handler';
import { StartRegisterModeHandler } from './commands/start-register-mode.handler';
import { ListArrivalsDeparturesHandler } from './queries/list-arrivals-departures.query';
import { PresenceNowHandler } from './queries/presence-now.query';
import { ArrivalsDeparturesV2Controller } from './rest/arrivals-departures.v2.controller';
import { ListAttendanceSlotsHandler } from './queries/list-attendance-slots.query';
import { ListSmartCardsHandler } from './queries/list-smart-cards.query';
import { ListUnknownCardsHandler } from './queries/list-unknown-cards.query';
import { OpenDaySweeper } from './open-day-sweeper';
import { RegisterModeSweeper } from './register-mode-sweeper';
import { SmartCardsV1Controller } from './rest/smart-cards.v1.controller';
import { SmartCardsV2Controller } from './rest/smart-cards.v2.controller';
import { AccountAttendanceHandler } from './queries/account-attendance.query';
import { DownloadAttendanceStatisticsHandler } from './queries/download-attendance-statistics.query';
import { ListAttendanceStatisticsHandler } from './queries/list-attendance-statistics.query';
import { AttendanceReportsV1Controller } from './rest/attendance-reports.v1.controller';
import { AttendanceReportsV2Controller } from './rest/attendance-reports.v2.controller';

/**
 * Scans to attendance, smart cards and register mode (docs/adr/0013): REST v1/v2 and
 * (trpc/attendance.router.ts) tRPC over the same handlers; the scan handler serves the reader protocol.
 */
@Module({
  imports: [AuthModule],
  controllers: [SmartCardsV1Controller, SmartCardsV2Controller, ArrivalsDeparturesV2Controller, AttendanceReportsV1Controller, AttendanceReportsV2Controller],
  providers: [
    attendanceSettingsProvider,
    RecordReaderScansHandler,
    StartRegisterModeHandler,
    CancelRegisterModeHandler,
    RemoveSmartCardHandler,
    AssignSmartCardHandler,
    DismissUnknownCardHandler,
    ListSmartCardsHandler,
    ListUnknownCardsHandler,
    ListAttendanceSlotsHandler,
    CorrectAttendanceSlotHandler,
    RecordManualSlotHandler,
    ListArrivalsDeparturesHandler,
    PresenceNowHandler,
    AccountAttendanceHandler,
    ListAttendanceStatisticsHandler,
    DownloadAttendanceStatisticsHandler,
    RegisterModeSweeper,
    OpenDaySweeper,
  ],
})
export class AttendanceModule {}
