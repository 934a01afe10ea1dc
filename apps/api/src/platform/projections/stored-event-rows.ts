import { existsSync } from 'node:fs';
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { EventStoreConfig } from '../event-store/create-event-store';
import type { EventStore } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { ReadDatabase } from '../read-db/read-database';

/** the name the events file is attached under on the read database's connection */
const ATTACHED_AS = 'rebuild_events';

/**
 * The event store's own rows, readable by SQL on the read database's connection while a rebuild runs,
 * so a projection can write its rows with one `INSERT ... SELECT` instead of binding every value from
 * JavaScript (`Projection.copyBatch`). Only SQLite: the events file is attached to the read database's
 * connection. The table is laid out as sqlite-event-store.ts writes it: one row per event, `position`
 * (the rowid: the event's position is { commit: position, sequence: position }), `stream_id`,
 * `stream_version`, `type`, `data` and `metadata` (the text JSON.stringify wrote, so
 * JSON.stringify(JSON.parse(text)) gives it back unchanged), `schema_version`.
 *
 * The rows are as stored, not as the store serves them: the personal data vault (docs/adr/0015) opens
 * the personal fields of some event types on the way out. A projection that copies rows must take those
 * events' payloads from the events it is given.
 *
 * PostgreSQL has none: its events are `jsonb`, whose text form (spaces, key order, number forms) is not
 * the text JSON.stringify writes, so a copy could not give the rows the JavaScript path gives.
 */
export interface StoredEventRows {
  readonly dialect: 'sqlite';
  /** the schema the events table is attached under */
  readonly schema: string;
  /** the table of events inside it */
  readonly table: 'es_events';
}

/**
 * The events file of `store`: the one its configuration names, or the store's own when it is the SQLite
 * adapter itself (the bench and tests hand it over bare). A store behind a decorator (the personal data
 * vault) is found only through its configuration.
 */
export function eventsFileOf(store: EventStore, config?: EventStoreConfig): string | null {
  if (config) return config.kind === 'sqlite' ? config.file : null;
  return store instanceof SqliteEventStore ? store.file : null;
}

/**
 * Runs `work` with the events file attached to the read database's connection, or with null where that
 * is not possible (a PostgreSQL read database, no events file, a file that is gone); detaches after.
 * SQLite attaches on one connection, so `db` must be a SQLite read database (kysely keeps one
 * connection for it). The rebuild only reads the attached rows.
 */
export async function withStoredEventRows<T>(db: Kysely<ReadDatabase>, eventsFile: string | null, work: (rows: StoredEventRows | null) => Promise<T>): Promise<T> {
  // ATTACH would create a missing file: an empty one, and rows that silently are not there
  if (eventsFile === null || !isSqlite(db) || !existsSync(eventsFile)) return work(null);
  await sql`ATTACH DATABASE ${eventsFile} AS ${sql.id(ATTACHED_AS)}`.execute(db);
  try {
    return await work({ dialect: 'sqlite', schema: ATTACHED_AS, table: 'es_events' });
  } finally {
    await sql`DETACH DATABASE ${sql.id(ATTACHED_AS)}`.execute(db);
  }
}

function isSqlite(db: Kysely<ReadDatabase>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
