import type { TTeam } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/** a team row with its organization's title; a deleted organization's team shows none (docs/adr/0010) */
export const teamsWithOrganization = (db: Kysely<ReadDatabase>) => db.selectFrom('teams_v1 as t').leftJoin('organizations_v1 as o', 'o.id', 't.organization_id');

export const TEAM_COLUMNS = ['t.id', 't.title', 't.description', 't.interorg', 't.is_protected', 't.created_at', 't.updated_at', 'o.id as organization_id', 'o.title as organization_title'] as const;

interface TeamRow {
  id: string;
  title: string;
  description: string;
  interorg: number;
  is_protected: number;
  created_at: string;
  updated_at: string;
  organization_id: string | null;
  organization_title: string | null;
}

/** members per team: one grouped count per page over the primary key's leading column */
export async function countTeamMembers(db: Kysely<ReadDatabase>, teamIds: string[]): Promise<Map<string, number>> {
  if (!teamIds.length) return new Map();
  const rows = await db
    .selectFrom('team_members_v1')
    .select(['team_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('team_id', 'in', teamIds)
    .groupBy('team_id')
    .execute();
  return new Map(rows.map((row) => [row.team_id, Number(row.count)]));
}

export async function toTeams(db: Kysely<ReadDatabase>, rows: TeamRow[]): Promise<TTeam[]> {
  const members = await countTeamMembers(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    interorg: Boolean(row.interorg),
    organization: row.organization_id,
    organization_title: row.organization_title,
    num_members: members.get(row.id) ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
    protected: Boolean(row.is_protected),
  }));
}

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
export const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
