import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../event-store/create-event-store';
import type { EventStore, NewEvent } from '../event-store/event-store.port';
import { createReadDb } from '../read-db/create-read-db';
import { allProjections } from '../../all-projections';
import { rebuildProjections } from './projection-runner';

const apiRoot = resolve(__dirname, '../../..');
const projectCli = join(apiRoot, 'dist/cli/project.js');
const INITIAL_ACCOUNTS = 40_000;
const ACCOUNTS_PER_ROUND = 300;
const KILLS = 8;

function accountEvents(count: number): Array<{ stream: string; events: NewEvent[] }> {
  return Array.from({ length: count }, (_, i) => {
    const accountId = randomUUID();
    const metadata = { eventId: randomUUID(), actor: 'system', actorKind: 'system' as const, sourceIp: null, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() };
    const created = { accountId, username: `crash.${accountId}`, email: `${accountId}@example.com`, firstName: `First${i}`, lastName: `Last${i}`, passwordHash: null, statusId: 4, policyId: null, expiresAt: null, organizationId: null, sendActivation: false, isProtected: false, createdAt: new Date(1_700_000_000_000 + i).toISOString() };
    return {
      stream: `account-${accountId}`,
      events: [
        { type: 'AccountCreated', data: created, metadata },
        { type: 'AccountSignedIn', data: { accountId, sessionId: randomUUID(), at: new Date(1_700_000_500_000 + i).toISOString() }, metadata: { ...metadata, eventId: randomUUID() } },
      ],
    };
  });
}

async function appendAll(store: EventStore, batch: Array<{ stream: string; events: NewEvent[] }>): Promise<void> {
  await Promise.all(batch.map(({ stream, events }) => store.appendToStream(stream, events, { expectedVersion: 'no_stream' })));
}

function accountsCheckpoint(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE name = 'projection_checkpoints'").get();
    const row = table ? (db.prepare("SELECT position_sequence AS p FROM projection_checkpoints WHERE projection = 'accounts_v2'").get() as { p: number } | undefined) : undefined;
    return row ? Number(row.p) : 0;
  } finally {
    db.close();
  }
}

/**
 * Runs the projection CLI. With `killAfterProgressBeyond`, it is killed with SIGKILL a random moment
 * (0-300 ms) after its accounts checkpoint first passes that position, so the kill lands while it is
 * working whatever this machine's speed or load; `timeoutMs` kills it in any case.
 */
function runProjector(dataDir: string, timeoutMs: number, killAfterProgressBeyond?: number): Promise<'finished' | 'killed'> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [projectCli], { env: { ...process.env, ROLLCALL_DATA_DIR: dataDir, ROLLCALL_EVENT_STORE: 'sqlite', ROLLCALL_READ_DB: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, timeoutMs);
    const watcher =
      killAfterProgressBeyond === undefined
        ? null
        : setInterval(() => {
            if (accountsCheckpoint(join(dataDir, 'read.db')) <= killAfterProgressBeyond) return;
            clearInterval(watcher ?? undefined);
            setTimeout(kill, Math.floor(Math.random() * 300));
          }, 20);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (watcher) clearInterval(watcher);
      if (signal === 'SIGKILL') return resolvePromise('killed');
      if (code === 0) return resolvePromise('finished');
      reject(new Error(`projector exited with ${code}: ${stderr}`));
    });
  });
}

describe('projections survive SIGKILL at random points', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('ends with read models equal to a rebuild from zero, nothing lost or doubled', async () => {
    if (!existsSync(projectCli)) execFileSync('npx', ['tsc', '-b', apiRoot], { stdio: 'inherit' });
    const store = await createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.db') });
    await appendAll(store, accountEvents(INITIAL_ACCOUNTS));

    // kill the projector at random points after it has made progress, while writes continue, until it
    // has died often enough; the backlog is large enough that most kills land mid-batch
    let kills = 0;
    let midRunKills = 0;
    let lastCheckpoint = 0;
    let appended = INITIAL_ACCOUNTS;
    for (let round = 0; kills < KILLS && round < 60; round += 1) {
      const writing = appendAll(store, accountEvents(ACCOUNTS_PER_ROUND));
      appended += ACCOUNTS_PER_ROUND;
      const outcome = await runProjector(dataDir, 30_000, lastCheckpoint);
      await writing;
      if (outcome === 'killed') {
        kills += 1;
        const checkpoint = accountsCheckpoint(join(dataDir, 'read.db'));
        if (checkpoint > lastCheckpoint && checkpoint < (await store.headPosition()).sequence) midRunKills += 1;
        lastCheckpoint = Math.max(lastCheckpoint, checkpoint);
      }
    }
    expect(kills).toBe(KILLS);
    // the projector had made progress and was not done when it died: the kills did hit mid-run
    expect(midRunKills).toBeGreaterThanOrEqual(3);
    expect(await runProjector(dataDir, 120_000)).toBe('finished');

    const live = await createReadDb({ kind: 'sqlite', file: join(dataDir, 'read.db') });
    const rebuilt = await createReadDb({ kind: 'sqlite', file: join(dataDir, 'rebuilt.db') });
    const replayed = await rebuildProjections(store, rebuilt.db, allProjections());
    expect(replayed).toBe(2 * appended);
    const rows = (db: typeof live.db) => db.selectFrom('accounts_v2').selectAll().orderBy('id').execute();
    const [liveRows, rebuiltRows] = await Promise.all([rows(live.db), rows(rebuilt.db)]);
    expect(liveRows.length).toBe(appended);
    expect(liveRows).toEqual(rebuiltRows);
    const checkpoints = await live.db.selectFrom('projection_checkpoints').select(['projection', 'position_sequence']).execute();
    const head = await store.headPosition();
    for (const checkpoint of checkpoints) expect(Number(checkpoint.position_sequence), checkpoint.projection).toBe(head.sequence);
    await Promise.all([live.close(), rebuilt.close(), store.close()]);
    console.log(`projection crash test: ${kills} SIGKILLs (${midRunKills} mid-run), ${replayed} events, read model equals rebuild`);
  }, 300_000);
});
