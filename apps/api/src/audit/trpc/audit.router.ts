import type { QueryBus } from '@nestjs/cqrs';
import { ZAuditEventsInput, type TAuditEventPage } from '@rollcall/contracts';
import { EVERYWHERE } from '../../auth/resource-requirements';
import { permittedProcedure, router } from '../../trpc/trpc';
import { cursorOf, ListAuditEventsQuery } from '../queries/list-audit-events.query';

/**
 * `audit.*` of the console's API: the same query as REST v2 `audit/events`. `audit:read` must be held
 * EVERYWHERE because the log spans every organization. The NDJSON export is REST only (a download).
 */
export function buildAuditRouter({ queryBus }: { queryBus: QueryBus }) {
  return router({
    events: permittedProcedure('audit:read', EVERYWHERE)
      .input(ZAuditEventsInput)
      .query(({ input: { before, limit, ...filter } }) => queryBus.execute<ListAuditEventsQuery, TAuditEventPage>(new ListAuditEventsQuery(filter, cursorOf(before), limit))),
  });
}
