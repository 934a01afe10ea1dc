import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import type { AppConfig } from '../config/app-config';

export interface BackedUpFile {
  source: string;
  copy: string;
  bytes: number;
  integrity: string;
}

/**
 * An online backup of the SQLite default (issue 9): SQLite's own backup API copies each file page by
 * page while the API keeps writing, so the copy is one consistent moment of the database; each copy
 * is then checked with `integrity_check`. The event store is the one that matters (read models can
 * be rebuilt from it); the read database is copied too so a restore starts without a replay.
 */
export async function backupSqlite(config: AppConfig, destination: string): Promise<BackedUpFile[]> {
  const files = [config.eventStore, config.readDb].filter((store) => store.kind === 'sqlite').map((store) => store.file);
  if (files.length === 0) throw new Error('Nothing here is on SQLite: back PostgreSQL up with pg_dump (docs/running-in-production.md)');
  mkdirSync(destination, { recursive: true });
  const copies: BackedUpFile[] = [];
  for (const source of files) {
    const copy = join(destination, basename(source));
    const database = new Database(source, { readonly: true, fileMustExist: true });
    try {
      const { totalPages } = await database.backup(copy);
      const check = new Database(copy, { readonly: true });
      try {
        const integrity = String(check.pragma('integrity_check', { simple: true }));
        if (integrity !== 'ok') throw new Error(`The copy of ${source} fails its integrity check: ${integrity}`);
        copies.push({ source, copy, bytes: totalPages * Number(check.pragma('page_size', { simple: true })), integrity });
      } finally {
        check.close();
      }
    } finally {
      database.close();
    }
  }
  return copies;
}
