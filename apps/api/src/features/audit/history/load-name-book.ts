import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { NameBook } from './entity-history';

/** ids per `in (...)` list: far below SQLite's and PostgreSQL's parameter limits */
const CHUNK = 500;

/** where a name lives for each kind of id; ids are unique across tables (UUIDv7), so one book serves all */
const SOURCES = [
  { table: 'accounts_v2', name: 'username' },
  { table: 'organizations_v1', name: 'title' },
  { table: 'organization_roles_v1', name: 'title' },
  { table: 'organization_permissions_v1', name: 'title' },
  { table: 'teams_v1', name: 'title' },
  { table: 'applications_v1', name: 'title' },
  { table: 'application_roles_v1', name: 'title' },
  { table: 'application_permissions_v1', name: 'slug' },
  { table: 'readers_v1', name: 'name' },
  { table: 'access_tokens_v1', name: 'title' },
  { table: 'attendance_statuses_v1', name: 'title' },
  { table: 'password_policies_v2', name: 'title' },
] as const;

/**
 * The current names of the given ids, from the read models. Something deleted since has no row and
 * keeps its id: the history still says exactly which one it was.
 */
export async function loadNameBook(db: Kysely<ReadDatabase>, ids: Iterable<string>): Promise<NameBook> {
  const wanted = [...new Set(ids)];
  const book = new Map<string, string>();
  // the sources differ only in table and column names: one loosely typed query serves them all
  const names = db as unknown as Kysely<Record<string, Record<string, string>>>;
  for (let start = 0; start < wanted.length; start += CHUNK) {
    const chunk = wanted.slice(start, start + CHUNK);
    for (const source of SOURCES) {
      const rows = await names.selectFrom(source.table).select(['id', `${source.name} as name`]).where('id', 'in', chunk).execute();
      for (const row of rows) book.set(row.id, row.name);
    }
  }
  return book;
}
