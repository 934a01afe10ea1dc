#!/usr/bin/env node
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../platform/config/app-config';
import { backupSqlite } from '../platform/operations/sqlite-backup';

/**
 * `npm run backup [-- <directory>]`: an online backup of the SQLite files while the API runs, into
 * the directory given or `<data dir>/backups/<UTC time>`. Restore: docs/running-in-production.md.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const destination = process.argv[2] ?? join(config.dataDir, 'backups', new Date().toISOString().replace(/[:.]/g, '-'));
  const copies = await backupSqlite(config, destination);
  for (const copy of copies) process.stdout.write(`${copy.source} -> ${copy.copy} (${(copy.bytes / 1024 / 1024).toFixed(1)} MiB, integrity ${copy.integrity})\n`);
  process.stdout.write(`Backup done in ${destination}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `backup failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
  process.exit(1);
});
