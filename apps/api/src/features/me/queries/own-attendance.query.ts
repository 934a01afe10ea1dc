import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import type { TAccountAttendance, TCalendarEvent, TOwnAttendance, TPage, TSmartCard } from '@rollcall/contracts';
import { DomainError, localDateOf } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { attendanceTimeZone } from '../../attendance/attendance-time-zone';
import { AccountAttendanceQuery } from '../../attendance/queries/account-attendance.query';
import { monthWindow } from '../../attendance/queries/attendance-summary';
import { ListSmartCardsQuery } from '../../attendance/queries/list-smart-cards.query';
import { ListCalendarEventsQuery } from '../../calendar/queries/list-calendar-events.query';

export class OwnAttendanceQuery {
  constructor(
    /** the signed-in account: the only one whose attendance is read */
    readonly accountId: string,
    /** a day in the account's zone; today there when left out */
    readonly date: string | undefined,
  ) {}
}

/** an account holds a handful of cards; more than this is a list for the administrator's tab */
const CARDS_SHOWN = 50;

/**
 * One's own attendance: the day, its week and its month as the account's Attendance tab reads them
 * (the attendance feature's own query, so totals and 'No data' days agree with what an administrator
 * sees), the calendar's absences of the month and the cards registered to the account. Days and times
 * are in the zone that draws the account's days (its own, else its organization's, else UTC).
 */
@QueryHandler(OwnAttendanceQuery)
export class OwnAttendanceHandler implements IQueryHandler<OwnAttendanceQuery, TOwnAttendance> {
  constructor(
    private readonly queryBus: QueryBus,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, date }: OwnAttendanceQuery): Promise<TOwnAttendance> {
    const timeZone = await attendanceTimeZone(this.db, accountId);
    if (!timeZone) throw new DomainError('account.not_found', 'Account not found');
    const day = date ?? localDateOf(this.clock.now().getTime(), timeZone);
    const month = monthWindow(day.slice(0, 7));
    const view = (selected: 'daily' | 'weekly' | 'monthly') => this.queryBus.execute<AccountAttendanceQuery, TAccountAttendance>(new AccountAttendanceQuery(accountId, selected, day));
    const [today, week, monthly, absences, cards] = await Promise.all([
      view('daily'),
      view('weekly'),
      view('monthly'),
      this.queryBus.execute<ListCalendarEventsQuery, TCalendarEvent[]>(new ListCalendarEventsQuery(accountId, month.from, month.to)),
      this.queryBus.execute<ListSmartCardsQuery, TPage<TSmartCard>>(new ListSmartCardsQuery(accountId, { page: 1, limit: CARDS_SHOWN, sortBy: 'created_at', desc: true })),
    ]);
    return { time_zone: timeZone, date: day, today, week, month: monthly, absences, cards: cards.data };
  }
}
