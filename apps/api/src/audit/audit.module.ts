import { Module } from '@nestjs/common';
import { ListAuditEventsHandler } from './queries/list-audit-events.query';
import { AuditV2Controller } from './rest/audit.v2.controller';

/** The event log (issue 8): projection `event_log_v1`, REST v2 and (trpc/audit.router.ts) tRPC over one query. */
@Module({
  controllers: [AuditV2Controller],
  providers: [ListAuditEventsHandler],
})
export class AuditModule {}
