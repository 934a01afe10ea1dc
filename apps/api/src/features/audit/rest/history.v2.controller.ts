import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAsOfQueryInput, ZHistoryPageInput, type TAsOfAnswer, type THistoryKind, type THistoryPage, type TTimeTravelKind } from '@rollcall/contracts';
import { CurrentPrincipal } from '../../../platform/http/request-params';
import type { Scope } from '../../../platform/access/grants';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { EVERYWHERE, on } from '../../../platform/access/resource-requirements';
import { parseWith } from '../../../platform/http/zod-body';
import { EntityAsOfQuery } from '../queries/entity-as-of.query';
import { EntityHistoryQuery } from '../queries/entity-history.query';
import { cursorOf } from '../queries/list-audit-events.query';
import { asOfQuery } from '../queries/entity-as-of.query';
import { ZAsOfAnswer, ZHistoryPage } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * History tabs and time travel (ours: not in the spec; docs/api/compat.md, 'History and time
 * travel'), v2 only, `{data}` answers. Reading an entity's history takes `audit:read` where the
 * entity is: an organization administrator sees the history of what is within their organizations;
 * applications and readers belong to none.
 */
@Controller(['api/v2', 'api'])
export class HistoryV2Controller {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('account/:id/history')
  @Documented({ summary: "The account's events, newest first, each with a plain-words summary and the fields it changed", answer: ZHistoryPage, query: ZHistoryPageInput })
  @RequirePermission('audit:read', on('account', 'param:id'))
  account(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.history('account', id, query, listScope(principal, 'audit:read'));
  }

  @Get('organization/:id/history')
  @Documented({ summary: "The organization's events, newest first, each with a plain-words summary and the fields it changed", answer: ZHistoryPage, query: ZHistoryPageInput })
  @RequirePermission('audit:read', on('organization', 'param:id'))
  organization(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.history('organization', id, query, listScope(principal, 'audit:read'));
  }

  @Get('team/:id/history')
  @Documented({ summary: "The team's events, newest first, each with a plain-words summary and the fields it changed", answer: ZHistoryPage, query: ZHistoryPageInput })
  @RequirePermission('audit:read', on('team', 'param:id'))
  team(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.history('team', id, query, listScope(principal, 'audit:read'));
  }

  @Get('application/:id/history')
  @Documented({ summary: "The application's events, newest first, each with a plain-words summary and the fields it changed", answer: ZHistoryPage, query: ZHistoryPageInput })
  @RequirePermission('audit:read', EVERYWHERE)
  application(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.history('application', id, query, listScope(principal, 'audit:read'));
  }

  @Get('readers/:id/history')
  @Documented({ summary: "The door reader's events, newest first, each with a plain-words summary and the fields it changed", answer: ZHistoryPage, query: ZHistoryPageInput })
  @RequirePermission('audit:read', EVERYWHERE)
  reader(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.history('reader', id, query, listScope(principal, 'audit:read'));
  }

  @Get('account/:id/as-of')
  @Documented({ summary: 'The account as it was at a time (at) or position, folded from its stream', answer: ZAsOfAnswer, query: ZAsOfQueryInput })
  @RequirePermission('audit:read', on('account', 'param:id'))
  accountAsOf(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.asOf('account', id, query, listScope(principal, 'audit:read'));
  }

  @Get('organization/:id/as-of')
  @Documented({ summary: 'The organization as it was at a time (at) or position, folded from its stream', answer: ZAsOfAnswer, query: ZAsOfQueryInput })
  @RequirePermission('audit:read', on('organization', 'param:id'))
  organizationAsOf(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return this.asOf('organization', id, query, listScope(principal, 'audit:read'));
  }

  private async history(kind: THistoryKind, id: string, query: Record<string, unknown>, scope: Scope) {
    const { before, limit } = parseWith(ZHistoryPageInput, query);
    return { data: await this.queryBus.execute<EntityHistoryQuery, THistoryPage>(new EntityHistoryQuery(kind, id, cursorOf(before), limit, scope)) };
  }

  private async asOf(kind: TTimeTravelKind, id: string, query: Record<string, unknown>, scope: Scope) {
    return { data: await this.queryBus.execute<EntityAsOfQuery, TAsOfAnswer>(asOfQuery(kind, id, parseWith(ZAsOfQueryInput, query), scope)) };
  }
}
