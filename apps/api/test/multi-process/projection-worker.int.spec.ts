import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLiveMessage, TProjectionsAnswer } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltApi, listedAccountIds } from '../built-api';
import { http, liveClient, newAccount, signIn } from '../test-app';
import { PROJECTIONS_ROLE_HEADER } from '../../src/platform/operations/health.controller';

/**
 * The projections on a worker thread (ROLLCALL_PROJECTIONS_THREAD=worker, docs/adr/0026), in the REAL
 * built API (`apps/api/dist/main.js` and its `projection-worker.js`: run `npm run build` first): the
 * worker writes the read models, the main thread answers. A write must still be answered once its read
 * models hold it (read your writes), pushed live, kept across a SIGKILL, and a rebuild must swap the
 * worker's tables like the main thread's.
 */
describe('projections on a worker thread', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-worker-'));
  const api = new BuiltApi(dataDir, { env: { ROLLCALL_PROJECTIONS_THREAD: 'worker' } });
  let token = '';
  const created: string[] = [];

  beforeAll(async () => {
    await api.start();
    token = await signIn(api.url);
  }, 90_000);

  afterAll(async () => {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function createAccounts(count: number): Promise<string[]> {
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (ids.length < count) {
          ids.push('');
          const answer = await http(api.url, token).post('/api/v2/account', newAccount());
          expect(answer.status).toBe(201);
          // answered once the worker's read models held the account, not on a timeout
          expect(answer.headers.get('x-rollcall-consistency')).toBe('consistent');
          const id = answer.body.data.id as string;
          ids[ids.indexOf('')] = id;
          expect((await http(api.url, token).get(`/api/v2/account/${id}`)).status).toBe(200);
        }
      }),
    );
    created.push(...ids);
    return ids;
  }

  async function projectionsAtHead(): Promise<TProjectionsAnswer> {
    const answer = await http(api.url, token).get('/api/v2/projections');
    expect(answer.status).toBe(200);
    return answer.body.data as TProjectionsAnswer;
  }

  it('says a worker thread runs the projections', async () => {
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get(PROJECTIONS_ROLE_HEADER)).toBe('worker');
    // the read models' tables exist before anything beside the start (the sweepers) reads them
    expect(api.output).not.toMatch(/no such table/);
  });

  it('answers each write once the worker projected it, and pushes it live from the main thread', async () => {
    const { client, close } = liveClient(api.url, token);
    const received: TLiveMessage[] = [];
    await new Promise<void>((resolve) => client.live.accounts.subscribe(undefined, { onStarted: () => resolve(), onData: (message) => received.push(message) }));
    const ids = await createAccounts(30);
    await expect.poll(() => received.filter((message) => message.kind === 'account.changed').map((message) => message.kind === 'account.changed' && message.accountId), { timeout: 10_000 }).toEqual(expect.arrayContaining(ids));
    close();
    const status = await projectionsAtHead();
    for (const projection of status.projections) expect({ name: projection.name, state: projection.state, lag: projection.lag }).toEqual({ name: projection.name, state: 'running', lag: 0 });
  });

  it('keeps every acknowledged write across a SIGKILL, and rebuilds into the worker tables', async () => {
    await createAccounts(20);
    await api.kill();
    await api.start();
    token = await signIn(api.url);
    const listed = await listedAccountIds(api.url, token);
    expect(created.filter((id) => !listed.has(id))).toEqual([]);

    const rebuild = await http(api.url, token).post('/api/v2/projections/rebuild');
    expect(rebuild.status).toBe(202);
    await expect.poll(async () => (await projectionsAtHead()).rebuild.status, { timeout: 60_000, interval: 250 }).toBe('done');
    // the worker writes again after the swap: a new write is answered consistent and listed with the rest
    const [after] = await createAccounts(1);
    const relisted = await listedAccountIds(api.url, token);
    expect(created.filter((id) => !relisted.has(id))).toEqual([]);
    expect(relisted.has(after)).toBe(true);
  }, 120_000);
});
