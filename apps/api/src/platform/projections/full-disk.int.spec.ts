import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, newAccount, signIn, startTestApp, type TestApp } from '../../../test/test-app';

/**
 * A full disk (docs/security.md, 'Faults degrade and heal'), for real: the read database sits on a
 * small tmpfs that fills up. The projections stop with SQLITE_FULL (named in the log and /readyz, not
 * masked by a failed rollback); once space is freed they start again by themselves (backoff) and catch
 * up, /readyz answers 200 again and every account whose creation was answered 201 is listed. The event
 * log stays on the ordinary disk (a symlink: SQLite puts its WAL beside the real file), so every write
 * while the disk is full reaches the events and only the read models fail: the fault is the
 * projections', deterministically.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function mountTmpfs(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `cannot mount a tmpfs (${(error as Error).message.split('\n')[0]}): needs root`;
  }
}

const root = mkdtempSync(join(tmpdir(), 'rollcall-full-disk-'));
const dataDir = join(root, 'data');
mkdirSync(dataDir);
const skipReason = mountTmpfs(dataDir);
if (skipReason) console.log(`skipped: full-disk test: ${skipReason}`);

describe.skipIf(!!skipReason)('a full data disk under the read models (tmpfs)', () => {
  let app: TestApp;
  const logs: string[] = [];
  const filler = join(dataDir, 'filler');

  beforeAll(async () => {
    // the events on the ordinary disk, beside the tmpfs
    const eventsDir = join(root, 'events');
    mkdirSync(eventsDir);
    symlinkSync(join(eventsDir, 'events.db'), join(dataDir, 'events.db'));
    app = await startTestApp(
      'sqlite',
      { ROLLCALL_DATA_DIR: dataDir, ROLLCALL_SECRETS_KEY_FILE: join(root, 'secrets.key'), ROLLCALL_LOG_FORMAT: 'json', ROLLCALL_LOG_LEVEL: 'info', ROLLCALL_CONSISTENCY_WAIT_MS: '300' },
      undefined,
      { write: (line: string) => void logs.push(line) },
    );
    expect(existsSync(join(eventsDir, 'events.db-wal'))).toBe(true);
  });
  afterAll(async () => {
    await app?.destroy().catch(() => undefined);
    try {
      execFileSync('umount', [dataDir]);
    } catch {
      // left mounted: nothing else to do
    }
    rmSync(root, { recursive: true, force: true });
  });

  const fillTheDisk = () => {
    const fd = openSync(filler, 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  };
  const ready = async () => http(app.url).get('/readyz');

  it('stops the projections with SQLITE_FULL while the disk is full, then they catch up by themselves once space is freed', async () => {
    const admin = http(app.url, await signIn(app.url));
    const acknowledged: string[] = [];
    const create = async () => {
      const answer = await admin.post('/api/v2/account', newAccount());
      if (answer.status === 201) acknowledged.push(answer.body.data.id as string);
      else expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      return answer;
    };
    await create();
    expect(acknowledged).toHaveLength(1);

    fillTheDisk();
    let notReady: { status: number; body: { checks: { projections: { error?: string } } } } | null = null;
    for (let attempt = 0; attempt < 100 && !notReady; attempt++) {
      await create();
      const readiness = await ready();
      if (readiness.status === 503 && /stopped/.test(readiness.body.checks.projections.error ?? '')) notReady = readiness;
    }
    expect(notReady, 'the projections never stopped on the full disk').not.toBeNull();
    // the real cause, not the failed rollback that followed it
    expect(notReady!.body.checks.projections.error).toMatch(/SQLITE_FULL/);
    const stopped = logs.filter((line) => /projection .* stopped/.test(line));
    expect(stopped.join('\n')).toMatch(/SQLITE_FULL/);
    expect(logs.join('\n')).not.toMatch(/cannot rollback/);
    // writes still reach the event log meanwhile
    await create();
    expect(acknowledged.length).toBeGreaterThan(1);

    unlinkSync(filler);
    let readyAgain = false;
    for (let attempt = 0; attempt < 100 && !readyAgain; attempt++) {
      readyAgain = (await ready()).status === 200;
      if (!readyAgain) await sleep(200);
    }
    expect(readyAgain, `not ready after the space was freed: ${JSON.stringify((await ready()).body)}`).toBe(true);
    // every write answered 201, before, during and after the full disk, is in the read models
    await create();
    for (const id of acknowledged) expect((await admin.get(`/api/v2/account/${id}`)).status, id).toBe(200);
  });
});
