import { Module } from '@nestjs/common';
import { CreateTrackingStatusHandler } from './commands/create-tracking-status.handler';
import { RemoveTrackingStatusHandler } from './commands/remove-tracking-status.handler';
import { UpdateTrackingStatusHandler } from './commands/update-tracking-status.handler';
import { DaysChangedAloneHandler } from './queries/days-changed-alone.query';
import { ListCalendarEventsHandler } from './queries/list-calendar-events.query';
import { CalendarV1Controller } from './rest/calendar.v1.controller';
import { CalendarV2Controller } from './rest/calendar.v2.controller';

/** An account's calendar: tracking-status event groups (docs/adr/0013), REST v1/v2 and (trpc/calendar.router.ts) tRPC. */
@Module({
  controllers: [CalendarV1Controller, CalendarV2Controller],
  providers: [CreateTrackingStatusHandler, UpdateTrackingStatusHandler, RemoveTrackingStatusHandler, ListCalendarEventsHandler, DaysChangedAloneHandler],
})
export class CalendarModule {}
