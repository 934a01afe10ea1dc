import { Body, Controller, Get, Param, Put, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZOrganizationId } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { on } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { ChangeOrganizationTimeZoneCommand, ZOrganizationTimeZoneInput, type TOrganizationTimeZone } from '../commands/change-organization-time-zone.handler';
import { GetOrganizationTimeZoneQuery } from '../queries/get-organization-time-zone.query';
import { ZOrganizationTimeZone } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

const organizationIdOf = (id: string) => parseWith(z.object({ id: ZOrganizationId }), { id }).id;

/**
 * The organization's time zone (ours, not in the spec, so v2 only; also unprefixed under /api): it
 * draws the attendance days of members without a zone of their own. Same permissions as the
 * organization's details.
 */
@Controller(['api/v2', 'api'])
export class OrganizationTimeZoneV2Controller {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly queryBus: QueryBus,
  ) {}

  @Get('organization/:id/time-zone')
  @Documented({ summary: "Ours: the organization's own time zone (null: none), which draws the attendance days of members without a zone of their own", answer: ZOrganizationTimeZone })
  @RequirePermission('organizations:read', on('organization', 'param:id'))
  async read(@Param('id') id: string): Promise<{ data: TOrganizationTimeZone }> {
    return { data: await this.queryBus.execute<GetOrganizationTimeZoneQuery, TOrganizationTimeZone>(new GetOrganizationTimeZoneQuery(organizationIdOf(id))) };
  }

  @Put('organization/:id/time-zone')
  @Documented({ summary: "Ours: set (an IANA name of server/supported-time-zones; 400 organization.time_zone_invalid on time_zone) or clear (null) the organization's time zone", answer: ZOrganizationTimeZone, body: ZOrganizationTimeZoneInput })
  @RequirePermission('organizations:write', on('organization', 'param:id'))
  async change(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response): Promise<{ data: TOrganizationTimeZone }> {
    const outcome = await this.gateway.execute<TOrganizationTimeZone>(new ChangeOrganizationTimeZoneCommand(organizationIdOf(id), parseWith(ZOrganizationTimeZoneInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return { data: outcome.value };
  }
}
