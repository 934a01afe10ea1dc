import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config';
import { replayReadModels } from '../../cli/replay-read-models';
import { openStorage } from '../../cli/open-storage';
import { readModels } from '../../../test/read-models';
import { ADMIN, createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';
import { backupSqlite } from './sqlite-backup';

/** the event head of an events.db and the furthest read-model checkpoint of a read.db (SQLite positions are rowids) */
function headAndFurthestCheckpoint(dir: string): { head: number; furthest: number } {
  const events = new Database(join(dir, 'events.db'), { readonly: true, fileMustExist: true });
  const read = new Database(join(dir, 'read.db'), { readonly: true, fileMustExist: true });
  try {
    const head = Number((events.prepare('SELECT max(position) AS head FROM es_events').get() as { head: number }).head);
    const furthest = Number((read.prepare('SELECT max(position_commit) AS furthest FROM projection_checkpoints').get() as { furthest: number }).furthest);
    return { head, furthest };
  } finally {
    events.close();
    read.close();
  }
}

/** the read models of a data directory, read while no API runs on it */
async function readModelsOf(dataDir: string) {
  const storage = await openStorage(configFor(dataDir));
  try {
    return await readModels(storage.db, 'sqlite', '');
  } finally {
    await storage.close();
  }
}

/** a restored read database holds secrets sealed with the original's key: the restore uses the same key file */
const sameSecretsKey = (app: TestApp) => ({ ROLLCALL_SECRETS_KEY_FILE: (app.config as { secrets?: { keyFile?: string } }).secrets?.keyFile ?? `${app.config.dataDir}.key` });

const configFor = (dataDir: string) => loadConfig({ ROLLCALL_DATA_DIR: dataDir, ROLLCALL_ADMIN_USERNAME: ADMIN.username, ROLLCALL_ADMIN_PASSWORD: ADMIN.password, ROLLCALL_LOG_LEVEL: 'error' });

/** `npm run backup` on the SQLite default: a consistent copy taken while the API writes, and a restore from it. */
describe('online backup of the SQLite default', () => {
  let app: TestApp;
  const others: TestApp[] = [];
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    for (const other of others) await other.destroy();
    await app?.destroy();
  });

  it('copies the event store and the read models while the API runs, and the copy of the events alone restores everything', async () => {
    const admin = http(app.url, await signIn(app.url));
    const before = await createAccount(admin);
    // writes keep landing while the backup runs
    const writing = Promise.all(Array.from({ length: 20 }, () => createAccount(admin)));
    const destination = mkdtempSync(join(tmpdir(), 'rollcall-backup-'));
    const copies = await backupSqlite(app.config, destination);
    await writing;
    // the read models first: they only lag the events, so copied before them they cannot run ahead (docs/adr/0020)
    expect(copies.map((copy) => copy.copy)).toEqual([join(destination, 'read.db'), join(destination, 'events.db')]);
    for (const copy of copies) expect(copy.integrity).toBe('ok');
    const after = await createAccount(admin);

    // restore: a fresh data directory holding only the copied event store; the read models are rebuilt from it
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-restore-'));
    copyFileSync(join(destination, 'events.db'), join(dataDir, 'events.db'));
    expect(existsSync(join(dataDir, 'read.db'))).toBe(false);
    const restored = await startTestApp('sqlite', { ROLLCALL_DATA_DIR: dataDir });
    others.push(restored);
    const again = http(restored.url, await signIn(restored.url));
    expect((await again.get(`/api/v2/account/${before.id}`)).body.data.account.username_readable).toBe(before.username);
    expect((await again.get(`/api/v2/account/${after.id}`)).status).toBe(404);
  });

  it('a backup taken under writes never has read models ahead of its events; restored as documented, they equal a rebuild and sign-in works', async () => {
    const admin = http(app.url, await signIn(app.url));
    let writing = true;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) await createAccount(admin);
    });
    const backups: string[] = [];
    try {
      await createAccount(admin);
      for (let i = 0; i < 3; i++) {
        const destination = mkdtempSync(join(tmpdir(), 'rollcall-backup-'));
        await backupSqlite(app.config, destination);
        backups.push(destination);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    for (const backup of backups) {
      const { head, furthest } = headAndFurthestCheckpoint(backup);
      expect(furthest, `read models at ${furthest}, events at ${head}`).toBeLessThanOrEqual(head);
    }

    // restored as docs/running-in-production.md says: both files into an empty data directory
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-restore-'));
    const backup = backups[backups.length - 1];
    for (const file of ['events.db', 'read.db']) copyFileSync(join(backup, file), join(dataDir, file));
    const restored = await startTestApp('sqlite', { ROLLCALL_DATA_DIR: dataDir, ...sameSecretsKey(app) });
    others.push(restored);
    const token = await signIn(restored.url);
    // the session the sign-in answered is accepted at once
    expect((await http(restored.url, token).get('/api/v2/accounts?limit=5')).status).toBe(200);
    await restored.stop();
    const served = await readModelsOf(dataDir);
    await replayReadModels(configFor(dataDir), () => undefined);
    expect(served).toEqual(await readModelsOf(dataDir));
  });

  it('a start that finds the read models ahead of the events rebuilds them instead of serving them', async () => {
    const admin = http(app.url, await signIn(app.url));
    const destination = mkdtempSync(join(tmpdir(), 'rollcall-backup-'));
    await backupSqlite(app.config, destination);
    // written after the backup: in the live read models, not in the backed-up events
    const later = await createAccount(admin);
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-ahead-'));
    copyFileSync(join(destination, 'events.db'), join(dataDir, 'events.db'));
    const live = new Database(app.config.readDb.kind === 'sqlite' ? app.config.readDb.file : '', { readonly: true });
    try {
      await live.backup(join(dataDir, 'read.db'));
    } finally {
      live.close();
    }
    expect(headAndFurthestCheckpoint(dataDir).furthest).toBeGreaterThan(headAndFurthestCheckpoint(dataDir).head);

    const restored = await startTestApp('sqlite', { ROLLCALL_DATA_DIR: dataDir, ...sameSecretsKey(app) });
    others.push(restored);
    const again = http(restored.url, await signIn(restored.url));
    // an account the events do not hold is not served
    expect((await again.get(`/api/v2/account/${later.id}`)).status).toBe(404);
    await restored.stop();
    const { head, furthest } = headAndFurthestCheckpoint(dataDir);
    expect(furthest).toBeLessThanOrEqual(head);
    const served = await readModelsOf(dataDir);
    await replayReadModels(configFor(dataDir), () => undefined);
    expect(served).toEqual(await readModelsOf(dataDir));
  });

  it('npm run replay on a data directory with events.db and no read.db builds every read model, as a start would', async () => {
    const destination = mkdtempSync(join(tmpdir(), 'rollcall-backup-'));
    await backupSqlite(app.config, destination);
    const replayed = mkdtempSync(join(tmpdir(), 'rollcall-replay-'));
    const started = mkdtempSync(join(tmpdir(), 'rollcall-replay-start-'));
    for (const dir of [replayed, started]) copyFileSync(join(destination, 'events.db'), join(dir, 'events.db'));

    const printed: string[] = [];
    await replayReadModels(configFor(replayed), (text) => printed.push(text));
    expect(printed.join('')).toMatch(/Done: .* read models at /);
    const { head, furthest } = headAndFurthestCheckpoint(replayed);
    expect(furthest).toBe(head);

    const byStart = await startTestApp('sqlite', { ROLLCALL_DATA_DIR: started });
    others.push(byStart);
    await byStart.stop();
    expect(await readModelsOf(replayed)).toEqual(await readModelsOf(started));
  });
});
