import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, postgresApplicationName, survivingConnectionLoss } from '../event-store/postgres-connections';
import { KEY_BYTES, type PersonalDataKeys } from './personal-data-keys.port';

/**
 * Keys in the event store's PostgreSQL schema. PostgreSQL keeps a deleted row's old version until a
 * vacuum, so `compact` runs VACUUM FULL on this small table after an erasure; WAL archives and base
 * backups keep the key until they expire (docs/adr/0015 says what that means).
 */
export class PostgresPersonalDataKeys implements PersonalDataKeys {
  private readonly pool: pg.Pool;
  private readonly table: string;

  private constructor(url: string, schema: string) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name '${schema}'`);
    this.table = `"${schema}".pd_keys`;
    // a lost connection is dropped by the pool, never an unhandled 'error' (postgres-connections.ts)
    this.pool = survivingConnectionLoss(new pg.Pool({ connectionString: url, max: 2, application_name: postgresApplicationName('personal-data-keys', schema), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true }));
  }

  /** the schema exists already: the event store made it */
  static async connect(url: string, schema: string): Promise<PostgresPersonalDataKeys> {
    const keys = new PostgresPersonalDataKeys(url, schema);
    try {
      await keys.pool.query(`CREATE TABLE IF NOT EXISTS ${keys.table} (subject text PRIMARY KEY, key bytea, erased_at timestamptz)`);
    } catch (error) {
      // two processes starting together race on CREATE TABLE IF NOT EXISTS; the loser finds the table made
      if ((error as { code?: string }).code !== '23505') {
        await keys.pool.end().catch(() => undefined);
        throw error;
      }
    }
    return keys;
  }

  async load(subjects: readonly string[]): Promise<Map<string, Buffer | 'erased'>> {
    const found = new Map<string, Buffer | 'erased'>();
    if (subjects.length === 0) return found;
    const { rows } = await this.pool.query<{ subject: string; key: Buffer | null }>(`SELECT subject, key FROM ${this.table} WHERE subject = ANY($1)`, [subjects]);
    for (const row of rows) found.set(row.subject, row.key ?? 'erased');
    return found;
  }

  async obtain(subject: string): Promise<Buffer | null> {
    await this.pool.query(`INSERT INTO ${this.table} (subject, key) VALUES ($1, $2) ON CONFLICT (subject) DO NOTHING`, [subject, randomBytes(KEY_BYTES)]);
    const { rows } = await this.pool.query<{ key: Buffer | null }>(`SELECT key FROM ${this.table} WHERE subject = $1`, [subject]);
    return rows[0].key;
  }

  async destroy(subject: string, at: string): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.table} (subject, key, erased_at) VALUES ($1, NULL, $2) ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = COALESCE(${this.table}.erased_at, EXCLUDED.erased_at)`, [subject, at]);
  }

  async compact(): Promise<void> {
    await this.pool.query(`VACUUM FULL ${this.table}`);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
