import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { Pool, types } from 'pg';
import type { ReadDatabase } from './read-database';

// BIGINT (positions, counts) as numbers: our values stay far below 2^53.
types.setTypeParser(20, (value) => Number(value));

export type ReadDbConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

export interface ReadDb {
  db: Kysely<ReadDatabase>;
  kind: ReadDbConfig['kind'];
  close(): Promise<void>;
}

const STATEMENT_CACHE_LIMIT = 1000;

/**
 * Kysely's SQLite driver prepares every query anew; preparing is a quarter of the cost of a simple
 * query. Queries repeat (the same SQL with new parameters), so the prepared statements are kept.
 * Safe because kysely runs one query at a time on this connection and never leaves one iterating.
 */
function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => void database.close(),
    prepare: (query: string) => {
      let statement = statements.get(query);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = database.prepare(query);
        statements.set(query, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

export interface ReadDbOptions {
  /**
   * A file that is thrown away unless it is finished, and read by no one meanwhile: the fresh tables of
   * a rebuild (rebuild-with-swap.ts deletes the file before it starts and after it swaps). Each page is
   * then written once, straight into the file, with no WAL to copy it from and no fsync: a crash
   * loses only a rebuild that starts again. The rollback journal stays (in memory), so a batch that
   * fails still rolls back, as set-aside.ts needs.
   */
  scratch?: boolean;
}

export async function createReadDb(config: ReadDbConfig, options: ReadDbOptions = {}): Promise<ReadDb> {
  if (config.kind === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true });
    const database = new Database(config.file);
    if (options.scratch) {
      database.pragma('journal_mode = MEMORY');
      database.pragma('synchronous = OFF');
    } else {
      database.pragma('journal_mode = WAL');
      // Read models are rebuildable and their checkpoint commits with their rows, so a lost tail after
      // power loss is replayed, never skipped: NORMAL is enough here (the event log itself uses FULL).
      database.pragma('synchronous = NORMAL');
    }
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -65536');
    // deleted and rewritten rows are zeroed, not left readable in free space: an erased account's
    // rows must be gone from the file (docs/adr/0015)
    database.pragma('secure_delete = ON');
    const db = new Kysely<ReadDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const pool = new Pool({ connectionString: config.url, max: 10, options: `-c search_path=${config.schema}` });
  const bootstrap = await pool.connect();
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`).catch((error: { code?: string }) => {
      // the event store may create the same schema at the same moment: IF NOT EXISTS still races
      if (error.code !== '23505' && error.code !== '42P06') throw error;
    });
  } finally {
    bootstrap.release();
  }
  const db = new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool }) });
  await sql`select 1`.execute(db);
  return { db, kind: 'postgres', close: () => db.destroy() };
}
