import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TAttendanceStatistics } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { Clock } from '../../../platform/runtime/clock';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { monthStatistics } from './month-statistics';

export class ListAttendanceStatisticsQuery {
  /** `month` YYYY-MM (this month in UTC when left out); `scope`: where the administrator may read attendance */
  constructor(
    readonly filter: { month?: string; organizationId?: string; page: number; limit: number },
    readonly scope: Scope,
  ) {}
}

/** The Statistics screen (`GET accounts/statistics/attendance`): a page of accounts, the month's summary and its days. */
@QueryHandler(ListAttendanceStatisticsQuery)
export class ListAttendanceStatisticsHandler implements IQueryHandler<ListAttendanceStatisticsQuery, TAttendanceStatistics> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ filter, scope }: ListAttendanceStatisticsQuery): Promise<TAttendanceStatistics> {
    const month = filter.month ?? this.clock.now().toISOString().slice(0, 7);
    const statistics = await monthStatistics(this.db, month, filter.organizationId, scope);
    const start = (filter.page - 1) * filter.limit;
    const page = toPage(statistics.rows.slice(start, start + filter.limit), statistics.rows.length, filter.page, filter.limit);
    return { ...page, month, summary: statistics.summary, days: statistics.days, statuses: statistics.statuses };
  }
}
