import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TPresence, TPresenceQuery, TPresentAccount } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { Scope } from '../../../platform/access/grants';
import { accountsWithin } from '../../../platform/access/scope-filters';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { ATTENDANCE_SETTINGS, type AttendanceSettings } from '../attendance-rules.provider';
import { membersOfSubtree } from './list-arrivals-departures.query';
import { attendanceTimeZones } from '../attendance-time-zone';

export class PresenceNowQuery {
  constructor(
    readonly input: TPresenceQuery,
    readonly scope: Scope,
  ) {}
}

/**
 * The presence board: who is in right now. In means an open slot that still counts: younger than
 * the open-day limit (past it the next scan is an arrival again, docs/adr/0013) and not flagged.
 * Each person comes with their organizations and teams, so the board can group them.
 */
@QueryHandler(PresenceNowQuery)
export class PresenceNowHandler implements IQueryHandler<PresenceNowQuery, TPresence> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ATTENDANCE_SETTINGS) private readonly settings: AttendanceSettings,
  ) {}

  async execute({ input, scope }: PresenceNowQuery): Promise<TPresence> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.settings.rules.openDayLimitHours * 3_600_000).toISOString();
    let open = this.db
      .selectFrom('attendance_slots_v1 as slot')
      .where('slot.departed_at', 'is', null)
      .where('slot.arrived_at', '>=', since)
      .where('slot.flags', 'not like', '%open_day%');
    const withinScope = accountsWithin(scope, 'slot.account_id');
    if (withinScope) open = open.where(withinScope);
    if (input.organization_id) open = open.where(membersOfSubtree(input.organization_id, 'slot.account_id'));
    if (input.team_id) {
      const teamId = input.team_id;
      open = open.where((eb) => eb.exists(eb.selectFrom('team_members_v1').select('team_members_v1.account_id').where('team_members_v1.team_id', '=', teamId).whereRef('team_members_v1.account_id', '=', 'slot.account_id')));
    }
    const rows = await open
      .innerJoin('accounts_v2 as account', 'account.id', 'slot.account_id')
      .leftJoin('readers_v1 as reader', 'reader.id', 'slot.arrival_reader_id')
      .select(['slot.id', 'slot.account_id', 'slot.arrived_at', 'slot.arrival_door', 'reader.name as reader_name', 'account.first_name', 'account.last_name', 'account.username'])
      .orderBy('slot.arrived_at', 'desc')
      .execute();
    // one line per person: their latest open slot
    const latest = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (!latest.has(row.account_id)) latest.set(row.account_id, row);
    const accountIds = [...latest.keys()];
    const organizations = new Map<string, Array<{ id: string; title: string }>>();
    const teams = new Map<string, Array<{ id: string; title: string }>>();
    if (accountIds.length) {
      const [memberships, teamMemberships] = await Promise.all([
        this.db
          .selectFrom('organization_members_v1 as member')
          .innerJoin('organizations_v1 as organization', 'organization.id', 'member.organization_id')
          .select(['member.account_id', 'organization.id', 'organization.title'])
          .where('member.account_id', 'in', accountIds)
          .orderBy('organization.title')
          .execute(),
        this.db
          .selectFrom('team_members_v1 as member')
          .innerJoin('teams_v1 as team', 'team.id', 'member.team_id')
          .select(['member.account_id', 'team.id', 'team.title'])
          .where('member.account_id', 'in', accountIds)
          .orderBy('team.title')
          .execute(),
      ]);
      for (const row of memberships) organizations.set(row.account_id, [...(organizations.get(row.account_id) ?? []), { id: row.id, title: row.title }]);
      for (const row of teamMemberships) teams.set(row.account_id, [...(teams.get(row.account_id) ?? []), { id: row.id, title: row.title }]);
    }
    const zones = await attendanceTimeZones(this.db, accountIds);
    const present = [...latest.values()].map(
      (row): TPresentAccount => ({
        account_id: row.account_id,
        account_name: [row.first_name, row.last_name].filter(Boolean).join(' '),
        username_readable: row.username,
        slot_id: row.id,
        arrived_at: row.arrived_at,
        door: row.arrival_door,
        reader_name: row.reader_name,
        organizations: organizations.get(row.account_id) ?? [],
        teams: teams.get(row.account_id) ?? [],
        time_zone: zones.get(row.account_id) ?? 'UTC',
      }),
    );
    return { at: now.toISOString(), total: present.length, present };
  }
}
