import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZArrivalsDeparturesQuery, ZCorrectSlotInput, ZManualSlotRecorded, ZRecordManualSlotInput, type TManualSlotRecorded, ZPresenceQuery, ZSlotId, type TArrivalDeparture, type TPage, type TPresence } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { AccessPolicy } from '../../auth/access-policy';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { CorrectAttendanceSlotCommand, type SlotCorrected } from '../commands/correct-attendance-slot.handler';
import { RecordManualSlotCommand } from '../commands/record-manual-slot.handler';
import { ListArrivalsDeparturesQuery } from '../queries/list-arrivals-departures.query';
import { PresenceNowQuery } from '../queries/presence-now.query';
import { ZArrivalDeparture, ZPage, ZPresence, ZSlotCorrected } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const slotIdOf = (id: string) => parseWith(z.object({ id: ZSlotId }), { id }).id;

/**
 * The Arrivals / Departures calls (console-directory.md section 7, v2 'Logs'), answers wrapped in
 * `{data}`, also served unprefixed; the presence board is ours. Lists are filtered to where the
 * administrator holds attendance:read; a slot out of reach is 'not found'.
 */
@Controller(['api/v2', 'api'])
export class ArrivalsDeparturesV2Controller {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly queryBus: QueryBus,
    private readonly access: AccessPolicy,
  ) {}

  @Get('logs/arrivals-departures')
  @Documented({ summary: 'The Arrivals / Departures log: attendance slots, newest first, paged, filtered by days, organization, account, reader and flags', answer: ZPage(ZArrivalDeparture), query: ZArrivalsDeparturesQuery })
  @RequirePermission('attendance:read')
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const page = await this.queryBus.execute<ListArrivalsDeparturesQuery, TPage<TArrivalDeparture>>(new ListArrivalsDeparturesQuery(parseWith(ZArrivalsDeparturesQuery, query), listScope(principal, 'attendance:read')));
    return { data: page };
  }

  /** ours: who is in right now */
  @Get('logs/arrivals-departures/presence')
  @Documented({ summary: 'Who is in right now (ours), optionally within an organization or a team', answer: ZPresence, query: ZPresenceQuery })
  @RequirePermission('attendance:read')
  async presence(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    return { data: await this.queryBus.execute<PresenceNowQuery, TPresence>(new PresenceNowQuery(parseWith(ZPresenceQuery, query), listScope(principal, 'attendance:read'))) };
  }

  /** the slot model: new times and the reason, recorded as a correction; the scans stay */
  @Patch('logs/arrivals-departures/edit/:id')
  @Documented({ summary: 'Correct a slot: new times and the reason, recorded as a correction (the scans stay)', answer: ZSlotCorrected, body: ZCorrectSlotInput })
  @RequirePermission('attendance:write')
  async correct(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const slotId = slotIdOf(id);
    const input = parseWith(ZCorrectSlotInput, body);
    const mayWrite = (accountId: string) => this.access.permits(principal, 'attendance:write', 'account', accountId);
    const outcome = await this.gateway.execute<SlotCorrected>(new CorrectAttendanceSlotCommand(slotId, input, mayWrite, context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }

  /** ours: a slot no scan recorded, added by hand with a reason (docs/adr/0013, 'Slots added by hand') */
  @Post('logs/arrivals-departures')
  @Documented({
    summary: "Add a slot by hand (ours): an arrival and a departure, or an open arrival, for an account, with the reason; times without a zone are in the account's zone",
    answer: ZManualSlotRecorded,
    body: ZRecordManualSlotInput,
  })
  @RequirePermission('attendance:write')
  async record(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZRecordManualSlotInput, body);
    const mayWrite = (accountId: string) => this.access.permits(principal, 'attendance:write', 'account', accountId);
    const outcome = await this.gateway.execute<TManualSlotRecorded>(new RecordManualSlotCommand(input, mayWrite, context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }
}
