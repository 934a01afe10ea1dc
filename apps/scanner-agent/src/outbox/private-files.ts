import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The agent's data directory holds the queued scans (card UIDs, times) of its door: it is readable by the
 * agent's own user alone (docs/security.md, 'data files are private'). Directories 0700, files 0600, set
 * with chmod after creation so the umask cannot widen them; existing ones are brought back at every
 * start. SQLite creates the outbox's -wal and -shm with the outbox file's own mode, so the file is
 * created first. (The API has the same rules for its data directory:
 * apps/api/src/platform/operations/private-files.ts.)
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const MODES_APPLY = process.platform !== 'win32';

/** the directory (and each parent this call creates) private, and what is already in it brought back to private modes */
export function ensurePrivateDataDir(directory: string): void {
  const target = resolve(directory);
  const firstCreated = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!MODES_APPLY) return;
  // the parents this call created (the target itself is visited below)
  if (firstCreated) {
    for (let level = dirname(target); level.length >= resolve(firstCreated).length && level !== dirname(level); level = dirname(level)) chmodSync(level, PRIVATE_DIR_MODE);
  }
  const visit = (path: string) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats || stats.isSymbolicLink()) return;
    if (stats.isDirectory()) {
      if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.isFile() && (stats.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  };
  visit(target);
}

/** a file only the agent's user can read, created empty when missing (its directory must exist) */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (MODES_APPLY) chmodSync(file, PRIVATE_FILE_MODE);
}
