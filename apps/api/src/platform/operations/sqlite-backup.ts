import { basename, join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import type { AppConfig } from '../config/app-config';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';

export interface BackedUpFile {
  source: string;
  copy: string;
  bytes: number;
  integrity: string;
}

/**
 * An online backup of the SQLite default (docs/running-in-production.md, 'Backups and restore'):
 * SQLite's own backup API copies each file page by page while the API keeps writing, so the copy is
 * one consistent moment of the database; each copy is then checked with `integrity_check`. The event
 * store is the one that matters (read models can be rebuilt from it); the read database is copied
 * too, and first, so a restore starts without a replay and its read models never run ahead of its
 * events (docs/adr/0020).
 */
export async function backupSqlite(config: AppConfig, destination: string): Promise<BackedUpFile[]> {
  // the read models first, then the events: read models only ever lag the events, so a read.db copied
  // before the events.db can never be ahead of it, whatever is written meanwhile (docs/adr/0020)
  const files = [config.readDb, config.eventStore].filter((store) => store.kind === 'sqlite').map((store) => store.file);
  if (files.length === 0) throw new Error('Nothing here is on SQLite: back PostgreSQL up with pg_dump (docs/running-in-production.md)');
  // a backup holds what the data directory holds: readable by the service's user alone (0700, 0600)
  ensurePrivateDir(destination);
  const copies: BackedUpFile[] = [];
  for (const source of files) {
    const copy = join(destination, basename(source));
    const database = new Database(source, { readonly: true, fileMustExist: true });
    try {
      ensurePrivateFile(copy);
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
  if (config.readDb.kind === 'sqlite' && config.eventStore.kind === 'sqlite') assertReadModelsNotAhead(copies[0].copy, copies[1].copy);
  return copies;
}

/** a backup whose read models are ahead of its events would serve what the events do not hold: refused */
function assertReadModelsNotAhead(readCopy: string, eventsCopy: string): void {
  const read = new Database(readCopy, { readonly: true });
  const events = new Database(eventsCopy, { readonly: true });
  try {
    const hasCheckpoints = read.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projection_checkpoints'").get();
    if (!hasCheckpoints) return;
    // SQLite positions are the event's rowid (commit = sequence)
    const furthest = Number((read.prepare('SELECT max(position_commit) AS position FROM projection_checkpoints').get() as { position: number | null }).position ?? 0);
    const head = Number((events.prepare('SELECT max(position) AS position FROM es_events').get() as { position: number | null }).position ?? 0);
    if (furthest > head) throw new Error(`The copied read models (at ${furthest}) are ahead of the copied events (at ${head}): this backup is not consistent; run it again`);
  } finally {
    read.close();
    events.close();
  }
}
