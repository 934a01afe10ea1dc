import { Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAccountAttendanceInput, ZStatisticsDownloadInput, ZStatisticsListInput, type TAccountAttendance, type TAttendanceStatistics } from '@rollcall/contracts';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../../platform/http/request-params';
import { listScope, RequirePermission } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { on } from '../../../platform/access/resource-requirements';
import { parseWith } from '../../../platform/http/zod-body';
import { AccountAttendanceQuery } from '../queries/account-attendance.query';
import { DownloadAttendanceStatisticsQuery, type StatisticsFile } from '../queries/download-attendance-statistics.query';
import { ListAttendanceStatisticsQuery } from '../queries/list-attendance-statistics.query';
import { z } from 'zod';
import { ZAccountAttendance, ZAttendanceStatistics, ZAttendanceView } from '@rollcall/contracts';
import { Documented, fileAnswer } from '../../../platform/http/openapi/rest-description';

/**
 * The Attendance tab and the statistics (console-accounts.md tab 9, console-directory.md section 7),
 * shared by v1 and v2. Reads need attendance:read where the account is; the statistics hold only
 * the accounts where the administrator holds it (docs/adr/0011). The download is a file on both
 * versions, never wrapped.
 */
export abstract class AttendanceReportsRoutes {
  constructor(protected readonly queryBus: QueryBus) {}

  protected abstract wrap<T>(value: T): unknown;

  @Get('account/:id/attendance/:selected')
  @Documented({ summary: "An account's attendance, daily, weekly or monthly (query date_at YYYY-MM-DD, or YYYY-MM for monthly; default today in its zone): slots and days without data, time logged, and extra[0] the averages", answer: ZAccountAttendance, params: z.object({ selected: ZAttendanceView }) })
  @RequirePermission('attendance:read', on('account', 'param:id'))
  async attendance(@Param('id') id: string, @Param('selected') selected: string, @Query() query: Record<string, unknown>) {
    const input = parseWith(ZAccountAttendanceInput, { date_at: query.date_at, account_id: id, selected });
    return this.wrap(await this.queryBus.execute<AccountAttendanceQuery, TAccountAttendance>(new AccountAttendanceQuery(input.account_id, input.selected, input.date_at)));
  }

  @Get('accounts/statistics/attendance')
  @Documented({ summary: 'Attendance per account of a month (query date_at YYYY-MM, default this month; organization_id; page, limit), with the month summary and its days', answer: ZAttendanceStatistics, query: ZStatisticsListInput })
  @RequirePermission('attendance:read')
  async statistics(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const input = parseWith(ZStatisticsListInput, query);
    const filter = { month: input.date_at, organizationId: input.organization_id, page: input.page, limit: input.limit };
    return this.wrap(await this.queryBus.execute<ListAttendanceStatisticsQuery, TAttendanceStatistics>(new ListAttendanceStatisticsQuery(filter, listScope(principal, 'attendance:read'))));
  }

  @Get('accounts/statistics/attendance/download')
  @Documented({ summary: "The month's attendance per account as a file: CSV (default) or XLSX (format), the same filters as the list", answer: fileAnswer('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), query: ZStatisticsDownloadInput })
  @RequirePermission('attendance:read')
  async download(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZStatisticsDownloadInput, query);
    const filter = { month: input.date_at, organizationId: input.organization_id, format: input.format };
    const file = await this.queryBus.execute<DownloadAttendanceStatisticsQuery, StatisticsFile>(new DownloadAttendanceStatisticsQuery(filter, listScope(principal, 'attendance:read')));
    response.setHeader('Cache-Control', 'no-store');
    return new StreamableFile(file.body, { type: file.contentType, disposition: `attachment; filename="${file.filename}"`, length: file.body.length });
  }
}
