import type { TAttendanceAbsence } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { membersOfSubtree } from './list-arrivals-departures.query';

export type AccountAbsence = TAttendanceAbsence & { account_id: string };

/**
 * Absences: the days of the accounts' calendars with an attendance status (vacation, sick leave,
 * ...) from `from` to `to` (local days, both included), as the calendar read model holds them (one
 * row per live day of an event group, days edited alone included). Either one account's, or every
 * account's within a scope and optionally an organization's subtree. A status deleted since keeps its
 * id, without a title.
 */
export async function absencesBetween(
  db: Kysely<ReadDatabase>,
  from: string,
  to: string,
  of: { accountId: string } | { scope: Scope; organizationId?: string },
): Promise<AccountAbsence[]> {
  let query = db
    .selectFrom('calendar_events_v1 as event')
    .leftJoin('attendance_statuses_v1 as status', 'status.id', 'event.attendance_status_id')
    .select(['event.account_id', 'event.date as day', 'event.attendance_status_id as status_id', 'status.title as status', 'event.title'])
    .where('event.date', '>=', from)
    .where('event.date', '<=', to);
  if ('accountId' in of) query = query.where('event.account_id', '=', of.accountId);
  else {
    const withinScope = accountsWithin(of.scope, 'event.account_id');
    if (withinScope) query = query.where(withinScope);
    if (of.organizationId) query = query.where(membersOfSubtree(of.organizationId, 'event.account_id'));
  }
  const rows = await query.orderBy('event.date').orderBy('event.id').execute();
  return rows.map((row) => ({ account_id: row.account_id, day: row.day, status_id: row.status_id, status: row.status ?? null, title: row.title }));
}
