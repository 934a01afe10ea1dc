import { Module } from '@nestjs/common';
import { RetrySetAsideHandler } from './commands/retry-set-aside.handler';
import { EntityAsOfHandler } from './queries/entity-as-of.query';
import { EntityHistoryHandler } from './queries/entity-history.query';
import { ListAuditEventsHandler } from './queries/list-audit-events.query';
import { ProjectionsStatusHandler, SetAsideEventsHandler } from './queries/projections-status.query';
import { AuditV2Controller } from './rest/audit.v2.controller';
import { HistoryV2Controller } from './rest/history.v2.controller';
import { ProjectionsV2Controller } from './rest/projections.v2.controller';

/**
 * The event log, history tabs, time travel and the projections screen (docs/api/compat.md, 'Event log'
 * and the sections below it): projection `event_log_v1`; REST v2 and (trpc/audit.router.ts) tRPC over
 * the same queries.
 */
@Module({
  controllers: [AuditV2Controller, HistoryV2Controller, ProjectionsV2Controller],
  providers: [ListAuditEventsHandler, EntityHistoryHandler, EntityAsOfHandler, ProjectionsStatusHandler, SetAsideEventsHandler, RetrySetAsideHandler],
})
export class AuditModule {}
