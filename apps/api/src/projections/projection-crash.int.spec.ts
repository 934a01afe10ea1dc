import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../event-store/create-event-store';
import type { EventStore, NewEvent } from '../event-store/event-store.port';
import { createReadDb } from '../read-db/create-read-db';
import { allProjections } from './all-projections';
import { rebuildProjections } from './projection-runner';

const apiRoot = resolve(__dirname, '../..');
const projectCli = join(apiRoot, 'dist/cli/project.js');

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

/** runs the projection CLI; kills it with SIGKILL after `killAfterMs` unless it finished first */
function runProjector(dataDir: string, killAfterMs: number): Promise<'finished' | 'killed'> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [projectCli], { env: { ...process.env, ROLLCALL_DATA_DIR: dataDir, ROLLCALL_EVENT_STORE: 'sqlite', ROLLCALL_READ_DB: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
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
    await appendAll(store, accountEvents(15_000));

    let kills = 0;
    let finished = false;
    for (let round = 0; round < 60 && !finished; round += 1) {
      // keep writing while the projector runs and dies, as the API would
      const writing = round < 10 ? appendAll(store, accountEvents(300)) : Promise.resolve();
      const killAfter = round < 12 ? 150 + Math.floor(Math.random() * 500) : 60_000;
      const outcome = await runProjector(dataDir, killAfter);
      await writing;
      if (outcome === 'killed') kills += 1;
      else finished = round >= 10;
    }
    expect(finished).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(5);

    const live = await createReadDb({ kind: 'sqlite', file: join(dataDir, 'read.db') });
    const rebuilt = await createReadDb({ kind: 'sqlite', file: join(dataDir, 'rebuilt.db') });
    const replayed = await rebuildProjections(store, rebuilt.db, allProjections());
    expect(replayed).toBe(2 * (15_000 + 10 * 300));
    const rows = (db: typeof live.db) => db.selectFrom('accounts_v1').selectAll().orderBy('id').execute();
    const [liveRows, rebuiltRows] = await Promise.all([rows(live.db), rows(rebuilt.db)]);
    expect(liveRows.length).toBe(15_000 + 10 * 300);
    expect(liveRows).toEqual(rebuiltRows);
    const checkpoints = await live.db.selectFrom('projection_checkpoints').select(['projection', 'position_sequence']).execute();
    const head = await store.headPosition();
    for (const checkpoint of checkpoints) expect(Number(checkpoint.position_sequence), checkpoint.projection).toBe(head.sequence);
    await Promise.all([live.close(), rebuilt.close(), store.close()]);
    console.log(`projection crash test: ${kills} SIGKILLs, ${replayed} events, read model equals rebuild`);
  }, 300_000);
});
