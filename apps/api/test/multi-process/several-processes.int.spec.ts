import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TLiveMessage } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltApi, listedAccountIds, sleep } from '../built-api';
import { http, liveClient, newAccount, signIn } from '../test-app';
import { PROJECTIONS_ROLE_HEADER } from '../../src/platform/operations/health.controller';

/**
 * Several API processes on one PostgreSQL (docs/adr/0017-several-api-processes.md):
 * three REAL, built API processes (`apps/api/dist/main.js`: run `npm run build` first) share one
 * fresh schema. Writes go to all three; the projection leader is killed with SIGKILL in the middle
 * of them; the writes go on. Every acknowledged account must then be listed by every surviving
 * process, a write through one process must be readable at once through another, and a console
 * subscribed to one process must get the live push of a write made through another.
 */
const PG_URL = process.env.ROLLCALL_TEST_PG_URL;
if (!PG_URL) console.log('skipped: several API processes need PostgreSQL (ROLLCALL_TEST_PG_URL not set)');

const BEFORE_KILL = 30;
const AFTER_KILL = 30;
const CONCURRENCY = 6;

/** one built API process (`apps/api/dist/main.js`: run `npm run build` first) sharing the schema with the others */
class ApiProcess {
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'rollcall-multi-'));
  private readonly api: BuiltApi;

  constructor(
    readonly name: string,
    schema: string,
    secretsKey: string,
  ) {
    this.api = new BuiltApi(this.dataDir, { env: { ROLLCALL_EVENT_STORE: PG_URL ?? '', ROLLCALL_READ_DB: PG_URL ?? '', ROLLCALL_PG_SCHEMA: schema, ROLLCALL_SECRETS_KEY: secretsKey } });
  }

  get url(): string {
    return this.api.url;
  }

  start(): Promise<void> {
    return this.api.start();
  }

  /** 'leader' or 'follower', as its /readyz says */
  async role(): Promise<string | null> {
    const answer = await fetch(`${this.url}/readyz`);
    return answer.headers.get(PROJECTIONS_ROLE_HEADER);
  }

  /** SIGKILL: no shutdown hook runs, the lock goes with the connection */
  kill(): Promise<void> {
    return this.api.kill();
  }

  async destroy(): Promise<void> {
    await this.api.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

describe.skipIf(!PG_URL)('several API processes on one PostgreSQL', () => {
  const schema = `t_multi_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  // one deployment, one secrets key (the OpenID Connect keys in the shared read database are sealed
  // with it; docs/running-in-production.md, "Secrets key"): each process's own key file would differ
  const secretsKey = randomBytes(32).toString('base64');
  const processes = ['A', 'B', 'C'].map((name) => new ApiProcess(name, schema, secretsKey));
  let token: string;

  beforeAll(async () => {
    // the first start on an empty store creates the first administrator; the other two join it
    await processes[0].start();
    await Promise.all(processes.slice(1).map((api) => api.start()));
    token = await signIn(processes[1].url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((api) => api.destroy()));
    if (!PG_URL) return;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${schema}_rebuild" CASCADE`);
    await client.end();
  }, 60_000);

  it('runs the projections in one process; the others follow and refuse a rebuild', async () => {
    const roles = await Promise.all(processes.map((api) => api.role()));
    expect(roles.filter((role) => role === 'leader')).toHaveLength(1);
    expect(roles.filter((role) => role === 'follower')).toHaveLength(2);
    const follower = processes[roles.indexOf('follower')];
    const refused = await http(follower.url, token).post('/api/v2/projections/rebuild');
    expect(refused.body.error.code).toBe('projection.rebuild_not_leader');
  });

  it('loses nothing when the leader is killed in the middle of the writes', async () => {
    const roles = await Promise.all(processes.map((api) => api.role()));
    const leader = processes[roles.indexOf('leader')];
    let alive = [...processes];
    const acknowledged: string[] = [];
    let sent = 0;
    let killed: Promise<void> | null = null;
    const writer = async () => {
      while (acknowledged.length < BEFORE_KILL + AFTER_KILL) {
        const target = alive[sent++ % alive.length];
        const created = await http(target.url, token)
          .post('/api/v2/account', newAccount())
          .catch(() => null);
        // a request cut off by the kill may or may not have been appended: only answers count
        if (created?.status === 201) acknowledged.push(created.body.data.id as string);
        else if (target !== leader || !killed) throw new Error(`create through ${target.name}: ${created?.status} ${JSON.stringify(created?.body)}`);
        if (acknowledged.length >= BEFORE_KILL && !killed) {
          alive = processes.filter((api) => api !== leader);
          killed = leader.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    await killed;

    // one survivor takes the lock over within seconds
    await expect.poll(async () => (await Promise.all(alive.map((api) => api.role()))).sort(), { timeout: 15_000, interval: 250 }).toEqual(['follower', 'leader']);
    for (const survivor of alive) {
      const listed = await pollListed(survivor.url, token, acknowledged);
      expect(acknowledged.filter((id) => !listed.has(id)), `accounts missing through ${survivor.name}`).toEqual([]);
    }
  });

  it('reads a write through another process at once, and pushes it live to a console on another process', async () => {
    const survivors = [];
    for (const api of processes) if ((await fetch(`${api.url}/healthz`).catch(() => null))?.status === 200) survivors.push(api);
    expect(survivors).toHaveLength(2);
    for (const [writeThrough, readThrough] of [survivors, [...survivors].reverse()]) {
      const { client, close } = liveClient(readThrough.url, token);
      const received: TLiveMessage[] = [];
      await new Promise<void>((resolve) => client.live.accounts.subscribe(undefined, { onStarted: () => resolve(), onData: (message) => received.push(message) }));
      const created = await http(writeThrough.url, token).post('/api/v2/account', newAccount());
      expect(created.status).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const id = created.body.data.id as string;
      // read your writes across processes: the answer came once the shared read model held it
      expect((await http(readThrough.url, token).get(`/api/v2/account/${id}`)).status).toBe(200);
      await expect.poll(() => received.map((message) => message.kind === 'account.changed' && message.accountId), { timeout: 10_000 }).toContain(id);
      close();
    }
  });
});

/** what a process lists once it holds every acknowledged account (or after the bound, for the assertion) */
async function pollListed(base: string, token: string, expected: string[]): Promise<Set<string>> {
  let listed = new Set<string>();
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(250)) {
    listed = await listedAccountIds(base, token);
    if (expected.every((id) => listed.has(id))) break;
  }
  return listed;
}
