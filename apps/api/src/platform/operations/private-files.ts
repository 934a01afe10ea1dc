import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';

/**
 * The data directory holds password hashes, the personal-data keys, the OpenID Connect keys and, in
 * its backups, all of them again: it is readable by the service's own user alone (docs/security.md,
 * 'Nothing that grants access is written to disk; data files are private'). Directories are 0700
 * and files 0600, set with chmod after creation so the process's umask cannot widen them, and
 * existing files are brought back to these modes at every start. SQLite creates a database's -wal,
 * -shm and -journal files with the database file's own mode, which is why the database files are
 * created here, empty and 0600, before SQLite opens them.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** POSIX modes mean nothing on Windows; there the directory's ACL is the operator's business */
const MODES_APPLY = process.platform !== 'win32';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/**
 * A directory that only the service's user can enter, with every parent this call had to create.
 * One that existed already is left as it is (an operator's choice; tightenTree is for our own).
 */
export function ensurePrivateDir(directory: string): void {
  const target = resolve(directory);
  const firstCreated = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!MODES_APPLY || !firstCreated) return;
  for (let level = target; ; level = dirname(level)) {
    chmodSync(level, PRIVATE_DIR_MODE);
    if (level === resolve(firstCreated) || dirname(level) === level) break;
  }
}

/** a file that only the service's user can read, created empty when missing (its directory must exist) */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (MODES_APPLY) chmodSync(file, PRIVATE_FILE_MODE);
}

/** brings an existing tree back to 0700 directories and 0600 files; symbolic links are left alone */
export function tightenTree(directory: string): void {
  if (!MODES_APPLY) return;
  const visit = (path: string) => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    if (stats.isSymbolicLink()) return;
    if (stats.isDirectory()) {
      if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.isFile() && (stats.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  };
  visit(directory);
}

const inside = (directory: string, file: string) => {
  const path = relative(resolve(directory), resolve(file));
  return path !== '' && !path.startsWith('..');
};

/**
 * At start, before any store opens: the data directory private (created if missing), everything
 * already in it brought back to private modes, and the SQLite files created private so the files
 * SQLite makes beside them are too. SQLite files configured outside the data directory, with their
 * -wal and -shm, get the same treatment; so does the log mailer's file.
 */
export function preparePrivateDataDir(config: AppConfig): void {
  ensurePrivateDir(config.dataDir);
  tightenTree(config.dataDir);
  const sqliteFiles = [config.eventStore, config.readDb].flatMap((store) => (store.kind === 'sqlite' ? [store.file] : []));
  for (const file of sqliteFiles) {
    // a directory chosen outside the data directory is the operator's: only the files are made private
    if (!inside(config.dataDir, file) && !existsSync(dirname(file))) continue;
    ensurePrivateFile(file);
    for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(companion)) ensurePrivateFile(companion);
  }
  if (config.mail.logFile && existsSync(config.mail.logFile)) ensurePrivateFile(config.mail.logFile);
}
