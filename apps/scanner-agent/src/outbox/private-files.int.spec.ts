import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTBOX_FILE_NAME } from '../commands/simulate-command';
import { DurableOutbox } from './durable-outbox';
import { ensurePrivateDataDir } from './private-files';

/** the entries under `root` whose modes are not 0700 (directories) or 0600 (files), as 'path mode' */
function widerThanPrivate(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if ((stats.mode & 0o777) !== (stats.isDirectory() ? 0o700 : 0o600)) found.push(`${path.slice(root.length) || '/'} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return found;
}

/**
 * docs/security.md, 'Nothing that grants access is written to disk': the door's queued scans are
 * readable by the agent's user alone, whatever the umask
 */
describe("the agent's data directory and outbox (real SQLite file)", () => {
  let parent: string;
  let umaskBefore = 0;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'rollcall-agent-modes-'));
    umaskBefore = process.umask(0o000);
  });

  afterEach(() => {
    process.umask(umaskBefore);
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates the directory 0700 and the outbox with its WAL 0600 under a umask of 000', () => {
    const dataDir = join(parent, 'agent', 'data');
    ensurePrivateDataDir(dataDir);
    const outbox = DurableOutbox.open(join(dataDir, OUTBOX_FILE_NAME));
    try {
      outbox.enqueue({ cardUid: '04A1B2C3', deviceTime: new Date() });
      expect(readdirSync(dataDir)).toEqual(expect.arrayContaining([OUTBOX_FILE_NAME, `${OUTBOX_FILE_NAME}-wal`]));
      expect(widerThanPrivate(join(parent, 'agent'))).toEqual([]);
    } finally {
      outbox.close();
    }
  });

  it('narrows what an older agent left world-readable', () => {
    const dataDir = join(parent, 'data');
    ensurePrivateDataDir(dataDir);
    DurableOutbox.open(join(dataDir, OUTBOX_FILE_NAME)).close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, OUTBOX_FILE_NAME), 0o644);
    writeFileSync(join(dataDir, `${OUTBOX_FILE_NAME}.corrupt-1`), 'x');
    chmodSync(join(dataDir, `${OUTBOX_FILE_NAME}.corrupt-1`), 0o666);
    expect(widerThanPrivate(dataDir)).toHaveLength(3);
    ensurePrivateDataDir(dataDir);
    expect(widerThanPrivate(dataDir)).toEqual([]);
  });
});
