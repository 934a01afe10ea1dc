import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { Kysely, PostgresDialect, PostgresDriver, SqliteDialect, SqliteDriver, sql, type PostgresDialectConfig, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement } from 'kysely';
import { Logger } from '@nestjs/common';
import { Pool, types } from 'pg';
import { CONNECT_TIMEOUT_MS, isPostgresUnavailable, postgresApplicationName, survivingConnectionLoss } from '../event-store/postgres-connections';
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
const logger = new Logger('ReadDatabase');

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

/**
 * SQLite rolls a transaction back by itself when a statement or the COMMIT fails with SQLITE_FULL,
 * SQLITE_IOERR, SQLITE_BUSY or SQLITE_NOMEM. Kysely then sends its own ROLLBACK, which fails with
 * "cannot rollback - no transaction is active", and throws that instead of the real error: a full disk
 * was logged as a rollback bug (docs/security.md, 'Faults degrade and heal'). The ROLLBACK is sent
 * only while a transaction is open, so the caller sees SQLITE_FULL.
 */
class TransactionAwareSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly database: Database.Database,
  ) {
    super(config);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class TransactionAwareSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly database: Database.Database,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new TransactionAwareSqliteDriver(this.config, this.database);
  }
}

/**
 * The same masking on PostgreSQL: when PostgreSQL ends a connection inside a transaction (57P01, a
 * restart, a cut network), kysely's ROLLBACK on the dead connection fails with "Connection terminated
 * unexpectedly" and is thrown instead of the real cause. A ROLLBACK that fails because the connection
 * is gone is not needed (the server ends the transaction with the session, the pool drops the client),
 * so that failure is left out and the caller sees the real one.
 */
class ConnectionAwarePostgresDriver extends PostgresDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!isPostgresUnavailable(error)) throw error;
    }
  }
}

class ConnectionAwarePostgresDialect extends PostgresDialect {
  constructor(private readonly config: PostgresDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ConnectionAwarePostgresDriver(this.config);
  }
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
  /** PostgreSQL: a connection of the pool was lost (it is dropped; the next query connects again) */
  onConnectionLost?: (error: Error) => void;
}

export async function createReadDb(config: ReadDbConfig, options: ReadDbOptions = {}): Promise<ReadDb> {
  if (config.kind === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true });
    const database = new Database(config.file);
    if (options.scratch) {
      // larger pages for a file written in one go and read whole (each index of a rebuild scans every
      // table it indexes): about 15 % less time copying the event log and indexing it than at 4 KiB.
      // Only a new, empty file takes it; the swap copies rows into the live file whatever its pages.
      database.pragma('page_size = 16384');
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
    const db = new Kysely<ReadDatabase>({ dialect: new TransactionAwareSqliteDialect({ database: withStatementCache(database) }, database) });
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const pool = survivingConnectionLoss(
    new Pool({
      connectionString: config.url,
      max: 10,
      options: `-c search_path=${config.schema}`,
      application_name: postgresApplicationName('read-db', config.schema),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    }),
    options.onConnectionLost ?? ((error) => logger.warn(`read database connection lost: ${error.message}`)),
  );
  const bootstrap = await pool.connect();
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`).catch((error: { code?: string }) => {
      // the event store may create the same schema at the same moment: IF NOT EXISTS still races
      if (error.code !== '23505' && error.code !== '42P06') throw error;
    });
  } finally {
    bootstrap.release();
  }
  const db = new Kysely<ReadDatabase>({ dialect: new ConnectionAwarePostgresDialect({ pool }) });
  await sql`select 1`.execute(db);
  return { db, kind: 'postgres', close: () => db.destroy() };
}
