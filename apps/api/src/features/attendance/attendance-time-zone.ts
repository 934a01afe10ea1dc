import { isValidTimeZone } from '@rollcall/domain';
import { sql, type Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';

/** how far up the tree a member's organization is searched for a zone (the tree refuses cycles; this only bounds a damaged one) */
const MAX_TREE_DEPTH = 64;
/** accounts per query, well under SQLite's and PostgreSQL's bound parameter limits */
const CHUNK = 500;

/**
 * The zone that draws each account's attendance days (docs/adr/0013-attendance-model.md, 'Time zones'):
 * the account's own profile zone; else the zone of the first of its organizations in joining order that
 * has one, found on the organization itself or, when it names none, on its nearest ancestor; else UTC.
 * The scan handler, a slot's correction, the Attendance tab and the statistics all ask here, so a day
 * is drawn the same way wherever it is read.
 *
 * Answers only for accounts that exist (a deleted account has no row, and no answer).
 */
export async function attendanceTimeZones(db: Kysely<ReadDatabase>, accountIds: readonly string[]): Promise<Map<string, string>> {
  const zones = new Map<string, string>();
  const unique = [...new Set(accountIds)];
  for (let start = 0; start < unique.length; start += CHUNK) {
    const chunk = unique.slice(start, start + CHUNK);
    const accounts = await db.selectFrom('accounts_v2').select(['id', 'additional']).where('id', 'in', chunk).execute();
    const withoutOwn: string[] = [];
    for (const account of accounts) {
      const own = profileTimeZone(account.additional, isValidTimeZone);
      if (own) zones.set(account.id, own);
      else withoutOwn.push(account.id);
    }
    const inherited = withoutOwn.length ? await organizationZones(db, withoutOwn) : new Map<string, string>();
    for (const accountId of withoutOwn) zones.set(accountId, inherited.get(accountId) ?? 'UTC');
  }
  return zones;
}

/** one account's zone; null when the account does not exist */
export async function attendanceTimeZone(db: Kysely<ReadDatabase>, accountId: string): Promise<string | null> {
  return (await attendanceTimeZones(db, [accountId])).get(accountId) ?? null;
}

interface ZoneCandidate {
  account_id: string;
  joined_at: string;
  member_of: string;
  depth: number | string;
  time_zone: string;
}

/**
 * Each account's zone through its organizations, in one query: every membership walks up the tree,
 * and of the organizations on the way that name a zone, the account takes the one of its earliest
 * membership, nearest to that membership's organization.
 */
async function organizationZones(db: Kysely<ReadDatabase>, accountIds: string[]): Promise<Map<string, string>> {
  const { rows } = await sql<ZoneCandidate>`
    with recursive chain(account_id, joined_at, member_of, organization_id, depth) as (
      select member.account_id, member.created_at, member.organization_id, member.organization_id, 0
      from organization_members_v1 member
      where member.account_id in (${sql.join(accountIds)})
      union all
      select chain.account_id, chain.joined_at, chain.member_of, organization.parent_id, chain.depth + 1
      from chain join organizations_v1 organization on organization.id = chain.organization_id
      where organization.parent_id is not null and chain.depth < ${MAX_TREE_DEPTH}
    )
    select chain.account_id, chain.joined_at, chain.member_of, chain.depth, zone.time_zone
    from chain join organization_time_zones_v1 zone on zone.organization_id = chain.organization_id`.execute(db);
  const best = new Map<string, ZoneCandidate>();
  for (const row of rows) {
    // a zone this runtime does not know (the data moved to another build) is passed over
    if (!isValidTimeZone(row.time_zone)) continue;
    const current = best.get(row.account_id);
    if (!current || before(row, current)) best.set(row.account_id, row);
  }
  return new Map([...best].map(([accountId, row]) => [accountId, row.time_zone]));
}

/** joining order first (ties by organization id, so the answer is stable), then the nearest organization up the tree */
function before(left: ZoneCandidate, right: ZoneCandidate): boolean {
  if (left.joined_at !== right.joined_at) return left.joined_at < right.joined_at;
  if (left.member_of !== right.member_of) return left.member_of < right.member_of;
  return Number(left.depth) < Number(right.depth);
}

/**
 * The zone named in an account's profile (`additional.time_zone`), null when it names none or an
 * unknown one: its organizations' zone or UTC then draws its days (attendanceTimeZones above).
 */
export function profileTimeZone(additional: string | null | undefined, isValid: (zone: string) => boolean): string | null {
  try {
    const zone = (JSON.parse(additional ?? '{}') as { time_zone?: unknown }).time_zone;
    if (typeof zone === 'string' && isValid(zone)) return zone;
  } catch {
    // an unreadable profile names no zone
  }
  return null;
}
