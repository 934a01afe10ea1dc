import type { QueryBus } from '@nestjs/cqrs';
import {
  ZAuditEventsInput,
  ZEntityAsOfInput,
  ZEntityHistoryInput,
  ZRetrySetAsideInput,
  ZSetAsideInput,
  type TAsOfAnswer,
  type TAuditEventPage,
  type THistoryPage,
  type TProjectionsAnswer,
  type TRetryAnswer,
  type TSetAsideEvent,
} from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { listScope } from '../../../platform/access/permissions';
import { EVERYWHERE, on, type ResourceKind, type ResourceRequirement } from '../../../platform/access/resource-requirements';
import { permittedByInputProcedure, permittedProcedure, router } from '../../../platform/trpc/trpc';
import { EntityAsOfQuery } from '../queries/entity-as-of.query';
import { EntityHistoryQuery } from '../queries/entity-history.query';
import { cursorOf, ListAuditEventsQuery } from '../queries/list-audit-events.query';
import { ProjectionsStatusQuery, SetAsideEventsQuery } from '../queries/projections-status.query';
import type { ProjectionsService } from '../../../platform/projections/projections.service';
import { retryCommand } from '../commands/retry-set-aside.handler';
import { asOfQuery } from '../queries/entity-as-of.query';

/** the kinds an organization grant reaches; anything else (applications, readers, an unknown kind) needs it everywhere */
const WITHIN_ORGANIZATIONS = new Set<string>(['account', 'organization', 'team']);

/** `audit:read` where the entity the input names is, as REST's history routes */
const whereTheEntityIs = (input: unknown): ResourceRequirement[] => {
  const kind = (input as { kind?: unknown } | undefined)?.kind;
  return [typeof kind === 'string' && WITHIN_ORGANIZATIONS.has(kind) ? on(kind as ResourceKind, 'input:id') : EVERYWHERE];
};

/**
 * `audit.*` of the console's API: the same queries as REST v2. The log needs `audit:read` EVERYWHERE
 * because it spans every organization; an entity's history and time travel need it where the entity
 * is. The NDJSON export is REST only (a download). The projections screen needs `projections:manage`
 * everywhere.
 */
export function buildAuditRouter({ gateway, queryBus, projectionsService }: { gateway: CommandGateway; queryBus: QueryBus; projectionsService: ProjectionsService }) {
  return router({
    events: permittedProcedure('audit:read', EVERYWHERE)
      .input(ZAuditEventsInput)
      .query(({ input: { before, limit, ...filter } }) => queryBus.execute<ListAuditEventsQuery, TAuditEventPage>(new ListAuditEventsQuery(filter, cursorOf(before), limit))),
    history: permittedByInputProcedure('audit:read', whereTheEntityIs)
      .input(ZEntityHistoryInput)
      .query(({ input, ctx }) => queryBus.execute<EntityHistoryQuery, THistoryPage>(new EntityHistoryQuery(input.kind, input.id, cursorOf(input.before), input.limit, listScope(ctx.principal, 'audit:read')))),
    asOf: permittedByInputProcedure('audit:read', whereTheEntityIs)
      .input(ZEntityAsOfInput)
      .query(({ input, ctx }) => queryBus.execute<EntityAsOfQuery, TAsOfAnswer>(asOfQuery(input.kind, input.id, input, listScope(ctx.principal, 'audit:read')))),
    projections: permittedProcedure('projections:manage', EVERYWHERE).query(() => queryBus.execute<ProjectionsStatusQuery, TProjectionsAnswer>(new ProjectionsStatusQuery())),
    setAside: permittedProcedure('projections:manage', EVERYWHERE)
      .input(ZSetAsideInput)
      .query(({ input }) => queryBus.execute<SetAsideEventsQuery, TSetAsideEvent[]>(new SetAsideEventsQuery(input.projection))),
    rebuildProjections: permittedProcedure('projections:manage', EVERYWHERE).mutation(() => projectionsService.startRebuild()),
    retrySetAside: permittedProcedure('projections:manage', EVERYWHERE)
      .input(ZRetrySetAsideInput)
      .mutation(async ({ input }) => (await gateway.execute<TRetryAnswer>(retryCommand(input.projection, input.position))).value),
  });
}
