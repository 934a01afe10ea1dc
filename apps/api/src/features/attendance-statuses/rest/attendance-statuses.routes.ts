import { Body, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAttendanceStatusId, ZAttendanceStatusInput, type TAttendanceStatus } from '@rollcall/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestContext } from '../../../platform/commands/request-context';
import { Ctx } from '../../../platform/http/request-params';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { parseWith } from '../../../platform/http/zod-body';
import { CreateAttendanceStatusCommand } from '../commands/create-attendance-status.handler';
import { DeleteAttendanceStatusCommand } from '../commands/delete-attendance-status.handler';
import { UpdateAttendanceStatusCommand } from '../commands/update-attendance-status.handler';
import { GetAttendanceStatusQuery } from '../queries/get-attendance-status.query';
import { ListAttendanceStatusesQuery } from '../queries/list-attendance-statuses.query';
import { attendanceStatusDeletedMessage } from '../attendance-statuses.answers';
import { ZAttendanceStatus, ZMessageAnswer } from '@rollcall/contracts';
import { Documented } from '../../../platform/http/openapi/rest-description';

export const statusIdOf = (id: string) => parseWith(z.object({ id: ZAttendanceStatusId }), { id }).id;

/** `GET states/attendance`: the one status call the spec lists under v1 as well as v2. */
export abstract class AttendanceStatusReadRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  @Get('states/attendance')
  @Documented({ summary: 'Attendance statuses, oldest first: id, title, active (1 means selectable)', answer: ZAttendanceStatus.array() })
  @RequirePermission('attendance:read')
  async list() {
    return this.wrap(await this.queryBus.execute<ListAttendanceStatusesQuery, TAttendanceStatus[]>(new ListAttendanceStatusesQuery()));
  }
}

/** The status writes of the spec's v2 table (console-directory.md section 7): statuses belong to no organization. */
export abstract class AttendanceStatusRoutes extends AttendanceStatusReadRoutes {
  @Post('states/attendance')
  @Documented({ summary: 'Create an attendance status (title unique case-insensitively; active 1 by default)', answer: ZAttendanceStatus, body: ZAttendanceStatusInput })
  @RequirePermission('attendance:write', EVERYWHERE)
  @HttpCode(201)
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string }>(new CreateAttendanceStatusCommand(parseWith(ZAttendanceStatusInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAttendanceStatusQuery, TAttendanceStatus>(new GetAttendanceStatusQuery(outcome.value.id)));
  }

  @Patch('states/attendance/:id')
  @Documented({ summary: 'Change the title and active flag of an attendance status', answer: ZAttendanceStatus, body: ZAttendanceStatusInput })
  @RequirePermission('attendance:write', EVERYWHERE)
  async update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const statusId = statusIdOf(id);
    const outcome = await this.gateway.execute<{ id: string }>(new UpdateAttendanceStatusCommand(statusId, parseWith(ZAttendanceStatusInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap(await this.queryBus.execute<GetAttendanceStatusQuery, TAttendanceStatus>(new GetAttendanceStatusQuery(statusId)));
  }

  @Delete('states/attendance/:id')
  @Documented({ summary: 'Delete an attendance status (409 attendance_status.in_use while calendar events carry it)', answer: ZMessageAnswer })
  @RequirePermission('attendance:write', EVERYWHERE)
  async remove(@Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const outcome = await this.gateway.execute<{ id: string; title: string }>(new DeleteAttendanceStatusCommand(statusIdOf(id), context));
    writeConsistencyHeaders(response, outcome);
    return this.wrap({ message: attendanceStatusDeletedMessage(outcome.value.title) });
  }
}
