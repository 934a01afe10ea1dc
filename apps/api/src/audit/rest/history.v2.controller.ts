import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAsOfQueryInput, ZHistoryPageInput, type TAsOfAnswer, type THistoryKind, type THistoryPage, type TTimeTravelKind } from '@rollcall/contracts';
import { RequirePermission } from '../../auth/permissions';
import { EVERYWHERE, on } from '../../auth/resource-requirements';
import { parsePosition } from '../../event-store/event-store.port';
import { parseWith } from '../../http/zod-body';
import { EntityAsOfQuery } from '../queries/entity-as-of.query';
import { EntityHistoryQuery } from '../queries/entity-history.query';
import { cursorOf } from '../queries/list-audit-events.query';

/**
 * History tabs and time travel (issue 8, ours: not in the spec), v2 only, `{data}` answers. Reading
 * an entity's history takes `audit:read` where the entity is: an organization administrator sees the
 * history of what is within their organizations; applications and readers belong to none.
 */
@Controller(['api/v2', 'api'])
export class HistoryV2Controller {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('account/:id/history')
  @RequirePermission('audit:read', on('account', 'param:id'))
  account(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.history('account', id, query);
  }

  @Get('organization/:id/history')
  @RequirePermission('audit:read', on('organization', 'param:id'))
  organization(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.history('organization', id, query);
  }

  @Get('team/:id/history')
  @RequirePermission('audit:read', on('team', 'param:id'))
  team(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.history('team', id, query);
  }

  @Get('application/:id/history')
  @RequirePermission('audit:read', EVERYWHERE)
  application(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.history('application', id, query);
  }

  @Get('readers/:id/history')
  @RequirePermission('audit:read', EVERYWHERE)
  reader(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.history('reader', id, query);
  }

  @Get('account/:id/as-of')
  @RequirePermission('audit:read', on('account', 'param:id'))
  accountAsOf(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.asOf('account', id, query);
  }

  @Get('organization/:id/as-of')
  @RequirePermission('audit:read', on('organization', 'param:id'))
  organizationAsOf(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.asOf('organization', id, query);
  }

  private async history(kind: THistoryKind, id: string, query: Record<string, unknown>) {
    const { before, limit } = parseWith(ZHistoryPageInput, query);
    return { data: await this.queryBus.execute<EntityHistoryQuery, THistoryPage>(new EntityHistoryQuery(kind, id, cursorOf(before), limit)) };
  }

  private async asOf(kind: TTimeTravelKind, id: string, query: Record<string, unknown>) {
    return { data: await this.queryBus.execute<EntityAsOfQuery, TAsOfAnswer>(asOfQuery(kind, id, parseWith(ZAsOfQueryInput, query))) };
  }
}

/** the contracts made sure exactly one of `at` and `position` is there, and well formed */
export function asOfQuery(kind: TTimeTravelKind, id: string, moment: { at?: string; position?: string }): EntityAsOfQuery {
  const position = moment.position ? parsePosition(moment.position) : null;
  return new EntityAsOfQuery(kind, id, position ? { position } : { at: moment.at ?? '' });
}
