import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TCalendarEvent } from '@rollcall/contracts';
import { daysInMonth } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { assertAccountExists } from '../../accounts/queries/assert-account-exists';
import { READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListCalendarEventsQuery {
  /** `from` and `to`: YYYY-MM-DD, both included */
  constructor(
    readonly accountId: string,
    readonly from: string,
    readonly to: string,
  ) {}
}

/** The days of an account's event groups that fall between two dates, in date and time order. */
@QueryHandler(ListCalendarEventsQuery)
export class ListCalendarEventsHandler implements IQueryHandler<ListCalendarEventsQuery, TCalendarEvent[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute({ accountId, from, to }: ListCalendarEventsQuery): Promise<TCalendarEvent[]> {
    await assertAccountExists(this.db, accountId);
    const rows = await this.db
      .selectFrom('calendar_events_v1 as e')
      .leftJoin('attendance_statuses_v1 as s', 's.id', 'e.attendance_status_id')
      .selectAll('e')
      .select('s.title as status_title')
      .where('e.account_id', '=', accountId)
      .where('e.date', '>=', from)
      .where('e.date', '<=', to)
      .orderBy('e.date')
      .orderBy('e.start_time')
      .orderBy('e.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      account_id: row.account_id,
      event_group_id: row.event_group_id,
      attendance_status_id: row.attendance_status_id,
      status_title: row.status_title ?? null,
      title: row.title,
      description: row.description,
      start_date: `${row.date} ${row.start_time}`,
      end_date: `${row.date} ${row.end_time}`,
      start_event: `${row.group_start_date} ${row.group_start_time}`,
      end_event: `${row.group_end_date} ${row.group_end_time}`,
    }));
  }
}

/** the first and last day of a YYYY-MM month */
export function monthRange(month: string): { from: string; to: string } {
  const [year, monthNumber] = month.split('-').map(Number);
  const last = daysInMonth(year, monthNumber); // not Date.UTC: it reads years 0-99 as 19xx
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}
