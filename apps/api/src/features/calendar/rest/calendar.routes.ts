import { Body, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAccountId, ZCalendarQuery, ZCreateTrackingStatusInput, ZRemoveTrackingStatusInput, ZUpdateTrackingStatusInput, type TCalendarEvent } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { on } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { CreateTrackingStatusCommand } from '../commands/create-tracking-status.handler';
import { RemoveTrackingStatusCommand } from '../commands/remove-tracking-status.handler';
import { UpdateTrackingStatusCommand } from '../commands/update-tracking-status.handler';
import { ListCalendarEventsQuery, monthRange } from '../queries/list-calendar-events.query';
import { EVENT_REMOVED_MESSAGE, EVENT_SAVED_MESSAGE } from '../calendar.answers';
import { ZCalendarEvent, ZMessageAnswer, ZTrackingStatusSaved } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const accountIdOf = (id: string) => parseWith(z.object({ id: ZAccountId }), { id }).id;

/**
 * The calendar's calls (console-accounts.md section 7: the same account calls under v1 and v2):
 * the month's events and the tracking-status create, update and remove.
 */
export abstract class CalendarRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
    protected readonly clock: Clock,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  /** `date` (YYYY-MM) defaults to the current month (the v1 table sends none) */
  @Get('account/:id/calendar')
  @Documented({ summary: "An account's calendar events of a month (query date YYYY-MM, default the current month), one per day of each event group", answer: ZCalendarEvent.array(), query: ZCalendarQuery.partial() })
  @RequirePermission('attendance:read', on('account', 'param:id'))
  async month(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const accountId = accountIdOf(id);
    const { date } = parseWith(ZCalendarQuery, { date: this.clock.now().toISOString().slice(0, 7), ...query });
    const { from, to } = monthRange(date);
    return this.wrap(await this.queryBus.execute<ListCalendarEventsQuery, TCalendarEvent[]>(new ListCalendarEventsQuery(accountId, from, to)));
  }

  @Post('account/:id/tracking-status')
  @Documented({ summary: 'Create a calendar event group: one event per day from start_date to end_date with an attendance status', answer: ZTrackingStatusSaved, body: ZCreateTrackingStatusInput })
  @RequirePermission('attendance:write', on('account', 'param:id'))
  @HttpCode(201)
  async create(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ event_group_id: string }>(new CreateTrackingStatusCommand(accountId, parseWith(ZCreateTrackingStatusInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: EVENT_SAVED_MESSAGE, event_group_id: outcome.value.event_group_id });
  }

  @Put('account/:id/tracking-status')
  @Documented({ summary: 'Change a calendar event: that day alone (single) or its whole group', answer: ZTrackingStatusSaved, body: ZUpdateTrackingStatusInput })
  @RequirePermission('attendance:write', on('account', 'param:id'))
  async update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const outcome = await this.gateway.execute<{ event_group_id: string }>(new UpdateTrackingStatusCommand(accountId, parseWith(ZUpdateTrackingStatusInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: EVENT_SAVED_MESSAGE, event_group_id: outcome.value.event_group_id });
  }

  /** the fields come in the query (as axios sends a DELETE's params) or in a JSON body */
  @Delete('account/:id/tracking-status')
  @Documented({ summary: 'Remove a calendar event (single) or its whole group; the fields in the query or a JSON body', answer: ZMessageAnswer, query: ZRemoveTrackingStatusInput })
  @RequirePermission('attendance:write', on('account', 'param:id'))
  async remove(@Param('id') id: string, @Query() query: Record<string, unknown>, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const accountId = accountIdOf(id);
    const fields = { ...query, ...(body && typeof body === 'object' ? body : {}) };
    const outcome = await this.gateway.execute<{ event_group_id: string }>(new RemoveTrackingStatusCommand(accountId, parseWith(ZRemoveTrackingStatusInput, fields), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: EVENT_REMOVED_MESSAGE });
  }
}
