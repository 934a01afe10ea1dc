import { Inject } from '@nestjs/common';
import { attendanceTimeZones } from '../attendance-time-zone';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toPage, type TArrivalDeparture, type TArrivalsDeparturesQuery, type TPage, type TManualSlotOrigin, type TSlotCorrection } from '@rollcall/contracts';
import { attendanceDayStream, type AttendanceSlotCorrected, type ManualSlotRecorded } from '@rollcall/domain';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import { EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

export class ListArrivalsDeparturesQuery {
  /** `scope`: where the asking administrator may read attendance (docs/adr/0011) */
  constructor(
    readonly input: TArrivalsDeparturesQuery,
    readonly scope: Scope,
  ) {}
}

/** the accounts of an organization and of every organization below it */
export const membersOfSubtree = (organizationId: string, accountColumn: string) => sql<SqlBool>`exists (
  with recursive subtree(id) as (
    select id from organizations_v1 where id = ${organizationId}
    union all
    select child.id from organizations_v1 child join subtree on child.parent_id = subtree.id
  )
  select 1 from organization_members_v1 member join subtree on subtree.id = member.organization_id
  where member.account_id = ${sql.ref(accountColumn)})`;

const SORT_COLUMNS = {
  arrived_at: 'slot.arrived_at',
  departed_at: 'slot.departed_at',
  account: 'account.last_name',
} as const;

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/**
 * The Arrivals / Departures log (`GET logs/arrivals-departures`): slots as they stand now, newest
 * arrival first, filtered by local day range, organization (its subtree), account and reader, and
 * to the administrator's scope. A corrected slot carries its corrections, read from its day's
 * stream: the read model holds the times now, the events what they were.
 */
@QueryHandler(ListArrivalsDeparturesQuery)
export class ListArrivalsDeparturesHandler implements IQueryHandler<ListArrivalsDeparturesQuery, TPage<TArrivalDeparture>> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ input, scope }: ListArrivalsDeparturesQuery): Promise<TPage<TArrivalDeparture>> {
    let filtered = this.db.selectFrom('attendance_slots_v1 as slot');
    const withinScope = accountsWithin(scope, 'slot.account_id');
    if (withinScope) filtered = filtered.where(withinScope);
    if (input.date_from) filtered = filtered.where('slot.day', '>=', input.date_from);
    if (input.date_to) filtered = filtered.where('slot.day', '<=', input.date_to);
    if (input.account_id) filtered = filtered.where('slot.account_id', '=', input.account_id);
    if (input.organization_id) filtered = filtered.where(membersOfSubtree(input.organization_id, 'slot.account_id'));
    if (input.reader_id) {
      const readerId = input.reader_id;
      filtered = filtered.where((eb) => eb.or([eb('slot.arrival_reader_id', '=', readerId), eb('slot.departure_reader_id', '=', readerId)]));
    }
    if (input.flagged) filtered = filtered.where((eb) => eb.or([eb('slot.flags', '!=', '[]'), eb('slot.corrected', '=', 1)]));
    const direction = input.desc ? 'desc' : 'asc';
    const [rows, count] = await Promise.all([
      filtered
        .leftJoin('accounts_v2 as account', 'account.id', 'slot.account_id')
        .leftJoin('readers_v1 as arrival_reader', 'arrival_reader.id', 'slot.arrival_reader_id')
        .leftJoin('readers_v1 as departure_reader', 'departure_reader.id', 'slot.departure_reader_id')
        .selectAll('slot')
        .select(['account.first_name', 'account.last_name', 'account.username', 'arrival_reader.name as arrival_reader_name', 'departure_reader.name as departure_reader_name'])
        .orderBy(SORT_COLUMNS[input.sortBy], direction)
        .orderBy('slot.id', direction)
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const { corrections, manual } = await this.historyOf(rows.filter((row) => Number(row.corrected) === 1 || row.flags.includes('"manual"')));
    const zones = await attendanceTimeZones(this.db, rows.map((row) => row.account_id));
    const entries = rows.map(
      (row): TArrivalDeparture => ({
        id: row.id,
        account_id: row.account_id,
        account_name: fullName(row.first_name, row.last_name),
        username_readable: row.username,
        day: row.day,
        arrived_at: row.arrived_at,
        departed_at: row.departed_at,
        arrival: row.arrival_reader_id === '' ? null : { reader_id: row.arrival_reader_id, reader_name: row.arrival_reader_name, door: row.arrival_door },
        departure: row.departure_reader_id === null ? null : { reader_id: row.departure_reader_id, reader_name: row.departure_reader_name, door: row.departure_door ?? '' },
        flags: JSON.parse(row.flags) as string[],
        uncounted_scans: Number(row.uncounted_scans),
        corrected: Number(row.corrected) === 1,
        corrections: corrections.get(row.id) ?? [],
        manual: manual.get(row.id) ?? null,
        // a deleted account has no zone any more: its day was drawn in UTC or its old zone; UTC is what the server falls back to
        time_zone: zones.get(row.account_id) ?? 'UTC',
      }),
    );
    return toPage(entries, Number(count.total), input.page, input.limit);
  }

  /**
   * The corrections of the page's corrected slots and the origin of those added by hand, from their
   * days' streams (a page reads at most `limit` small streams)
   */
  private async historyOf(rows: Array<{ id: string; account_id: string; day: string }>): Promise<{ corrections: Map<string, TSlotCorrection[]>; manual: Map<string, TManualSlotOrigin> }> {
    const found = new Map<string, TSlotCorrection[]>();
    const manual = new Map<string, TManualSlotOrigin>();
    if (rows.length === 0) return { corrections: found, manual };
    const streams = [...new Set(rows.map((row) => attendanceDayStream(row.account_id, row.day)))];
    const read = (await Promise.all(streams.map((stream) => this.store.readStream(stream)))).flat();
    const events = read.filter((event) => event.type === 'AttendanceSlotCorrected');
    const added = read.filter((event) => event.type === 'ManualSlotRecorded').map((event) => event.data as ManualSlotRecorded['data']);
    const actors = [...new Set([...events.map((event) => (event.data as AttendanceSlotCorrected['data']).correctedBy), ...added.map((data) => data.recordedBy)])];
    const names = new Map<string, string>();
    if (actors.length) {
      for (const actor of await this.db.selectFrom('accounts_v2').select(['id', 'first_name', 'last_name', 'username']).where('id', 'in', actors).execute()) {
        names.set(actor.id, fullName(actor.first_name, actor.last_name) || actor.username);
      }
    }
    for (const event of events) {
      const data = event.data as AttendanceSlotCorrected['data'];
      const list = found.get(data.slotId) ?? [];
      list.push({
        arrived_at: data.arrivedAt,
        departed_at: data.departedAt,
        previous: { arrived_at: data.previous.arrivedAt, departed_at: data.previous.departedAt },
        reason: data.reason,
        corrected_by: data.correctedBy,
        corrected_by_name: names.get(data.correctedBy) ?? null,
        corrected_at: data.correctedAt,
      });
      found.set(data.slotId, list);
    }
    for (const data of added) manual.set(data.slotId, { reason: data.reason, recorded_by: data.recordedBy, recorded_by_name: names.get(data.recordedBy) ?? null, recorded_at: data.recordedAt });
    return { corrections: found, manual };
  }
}
