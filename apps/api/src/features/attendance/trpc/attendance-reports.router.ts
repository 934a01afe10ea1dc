import type { QueryBus } from '@nestjs/cqrs';
import { ZAccountAttendanceInput, ZStatisticsListInput, type TAccountAttendance, type TAttendanceStatistics } from '@rollcall/contracts';
import { listScope } from '../../../platform/access/permissions';
import { on } from '../../../platform/access/resource-requirements';
import { permittedProcedure, router } from '../../../platform/trpc/trpc';
import { AccountAttendanceQuery } from '../queries/account-attendance.query';
import { ListAttendanceStatisticsQuery } from '../queries/list-attendance-statistics.query';

/**
 * `attendanceReports.*`: the account's Attendance tab and the Statistics screen, the same handlers
 * as REST v1 and v2. The screen's downloads are REST links (a file is not a tRPC answer).
 */
export function buildAttendanceReportsRouter({ queryBus }: { queryBus: QueryBus }) {
  return router({
    ofAccount: permittedProcedure('attendance:read', on('account', 'input:account_id'))
      .input(ZAccountAttendanceInput)
      .query(({ input }) => queryBus.execute<AccountAttendanceQuery, TAccountAttendance>(new AccountAttendanceQuery(input.account_id, input.selected, input.date_at))),
    statistics: permittedProcedure('attendance:read')
      .input(ZStatisticsListInput)
      .query(({ input, ctx }) =>
        queryBus.execute<ListAttendanceStatisticsQuery, TAttendanceStatistics>(
          new ListAttendanceStatisticsQuery({ month: input.date_at, organizationId: input.organization_id, page: input.page, limit: input.limit }, listScope(ctx.principal, 'attendance:read')),
        ),
      ),
  });
}
