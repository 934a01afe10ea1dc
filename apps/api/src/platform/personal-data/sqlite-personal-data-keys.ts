import { randomBytes } from 'node:crypto';
import Database from '@rollcall/sqlite-driver';
import { KEY_BYTES, type PersonalDataKeys } from './personal-data-keys.port';

/**
 * Keys in the event store's SQLite file, on a connection of their own. `secure_delete` zeroes a
 * destroyed key's bytes in the file instead of leaving them in a free page, and `compact` truncates
 * the WAL, which still holds the page as it was before the delete.
 */
export class SqlitePersonalDataKeys implements PersonalDataKeys {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(`CREATE TABLE IF NOT EXISTS pd_keys (subject TEXT PRIMARY KEY, key BLOB, erased_at TEXT) WITHOUT ROWID`);
  }

  async load(subjects: readonly string[]): Promise<Map<string, Buffer | 'erased'>> {
    const found = new Map<string, Buffer | 'erased'>();
    // 500 a statement stays far below SQLite's bound-parameter limit
    for (let start = 0; start < subjects.length; start += 500) {
      const chunk = subjects.slice(start, start + 500);
      const rows = this.db.prepare(`SELECT subject, key FROM pd_keys WHERE subject IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as Array<{ subject: string; key: Buffer | null }>;
      for (const row of rows) found.set(row.subject, row.key ?? 'erased');
    }
    return found;
  }

  async obtain(subject: string): Promise<Buffer | null> {
    // another process may make the same subject's key at the same moment: the first insert wins, both read it
    this.db.prepare('INSERT OR IGNORE INTO pd_keys (subject, key) VALUES (?, ?)').run(subject, randomBytes(KEY_BYTES));
    const row = this.db.prepare('SELECT key FROM pd_keys WHERE subject = ?').get(subject) as { key: Buffer | null };
    return row.key;
  }

  async destroy(subject: string, at: string): Promise<void> {
    this.db.transaction(() => {
      // delete, then a new tombstone row: with secure_delete the old row's bytes are zeroed, not rewritten around
      this.db.prepare('DELETE FROM pd_keys WHERE subject = ? AND key IS NOT NULL').run(subject);
      this.db.prepare('INSERT OR IGNORE INTO pd_keys (subject, key, erased_at) VALUES (?, NULL, ?)').run(subject, at);
    })();
  }

  async compact(): Promise<void> {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
