import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../test/test-app';
import { backupSqlite } from './sqlite-backup';

/** `npm run backup` on the SQLite default: a consistent copy taken while the API writes, and a restore from it. */
describe('online backup of the SQLite default', () => {
  let app: TestApp;
  let restored: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await restored?.destroy();
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
    expect(copies.map((copy) => copy.copy)).toEqual([join(destination, 'events.db'), join(destination, 'read.db')]);
    for (const copy of copies) expect(copy.integrity).toBe('ok');
    const after = await createAccount(admin);

    // restore: a fresh data directory holding only the copied event store; the read models are rebuilt from it
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-restore-'));
    copyFileSync(join(destination, 'events.db'), join(dataDir, 'events.db'));
    expect(existsSync(join(dataDir, 'read.db'))).toBe(false);
    restored = await startTestApp('sqlite', { ROLLCALL_DATA_DIR: dataDir });
    const again = http(restored.url, await signIn(restored.url));
    expect((await again.get(`/api/v2/account/${before.id}`)).body.data.account.username_readable).toBe(before.username);
    expect((await again.get(`/api/v2/account/${after.id}`)).status).toBe(404);
  });
});
