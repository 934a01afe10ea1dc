import { Module } from '@nestjs/common';
import { EntityAsOfHandler } from './queries/entity-as-of.query';
import { EntityHistoryHandler } from './queries/entity-history.query';
import { ListAuditEventsHandler } from './queries/list-audit-events.query';
import { AuditV2Controller } from './rest/audit.v2.controller';
import { HistoryV2Controller } from './rest/history.v2.controller';

/**
 * The event log, history tabs and time travel (issue 8): projection `event_log_v1`; REST v2 and
 * (trpc/audit.router.ts) tRPC over the same queries.
 */
@Module({
  controllers: [AuditV2Controller, HistoryV2Controller],
  providers: [ListAuditEventsHandler, EntityHistoryHandler, EntityAsOfHandler],
})
export class AuditModule {}
