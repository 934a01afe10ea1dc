import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTIONS_ROLE_HEADER } from '../operations/health.controller';
import { http, newAccount, PG_URL, signIn, startTestApp, type TestApp } from '../../../test/test-app';

/**
 * Lost connections (docs/security.md, 'Faults degrade and heal'), for real: PostgreSQL ends the API's own
 * connections (`pg_terminate_backend`, SQLSTATE 57P01, as a restart, a failover or an operator would)
 * again and again while accounts are being created. The process survives every one (no unhandled 'error'
 * event), a request that met a dead connection answers 503 server.unavailable and nothing else, the pools
 * connect again by themselves, the projection leader takes its advisory lock again, the read models catch
 * up (/readyz 200) and every creation answered 201 is there afterwards. The API's connections are found
 * by their application_name, which names the test's own schema (event-store/postgres-connections.ts).
 */
const skipReason = PG_URL ? null : 'ROLLCALL_TEST_PG_URL not set';
if (skipReason) console.log(`skipped: lost PostgreSQL connections test: ${skipReason}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ROUNDS = 20;

describe.skipIf(!!skipReason)('the API when PostgreSQL ends its connections (pg_terminate_backend)', () => {
  let app: TestApp;
  let terminator: pg.Client;
  let schema = '';
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    app = await startTestApp('postgres', { ROLLCALL_CONSISTENCY_WAIT_MS: '500' });
    schema = app.config.readDb.kind === 'postgres' ? app.config.readDb.schema : '';
    terminator = new pg.Client({ connectionString: PG_URL });
    await terminator.connect();
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    await terminator?.end();
    await app?.destroy();
  });

  /** ends every backend of this app (its pools, LISTEN connections and the leader's lock connection), or all but the lock connections */
  const terminateAll = async (sparing = 'none'): Promise<string[]> =>
    (
      await terminator.query<{ application_name: string }>(
        // chosen first, ended after (MATERIALIZED): the planner may order the conditions of one WHERE as it likes,
        // and pg_terminate_backend must never run on another session's row
        `WITH chosen AS MATERIALIZED (
           SELECT pid, application_name FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND application_name LIKE 'rollcall-%' AND application_name LIKE '% ' || $1 AND application_name NOT LIKE $2 || ' %')
         SELECT application_name FROM chosen WHERE pg_terminate_backend(pid)`,
        [schema, sparing],
      )
    ).rows.map((row) => row.application_name);

  const leaderHoldsTheLock = async () =>
    (
      await terminator.query(
        `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1`,
        [`rollcall-projection-leadership ${schema}`],
      )
    ).rowCount === 1;

  /** waits (bounded) until the process answers /readyz 200 in that role; false if it never does */
  const readyAs = async (process: TestApp, role: 'leader' | 'follower' | 'any'): Promise<boolean> => {
    // each not-ready answer may take /readyz's own 2 s: 25 attempts stay inside the test's timeout
    for (let attempt = 0; attempt < 25; attempt++) {
      const answer = await http(process.url).get('/readyz');
      if (answer.status === 200 && (role === 'any' || answer.headers.get(PROJECTIONS_ROLE_HEADER) === role)) return true;
      await sleep(200);
    }
    console.log(`not ready as ${role}: ${JSON.stringify((await http(process.url).get('/readyz')).body)}`);
    return false;
  };

  it('survives every terminated connection under writes: 503 meanwhile, then healed by itself with every 201 write present', async () => {
    const admin = http(app.url, await signIn(app.url));
    expect(await leaderHoldsTheLock()).toBe(true);
    const acknowledged: string[] = [];
    const refused: number[] = [];
    let writing = true;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) {
        const answer = await admin.post('/api/v2/account', newAccount());
        if (answer.status === 201) acknowledged.push(answer.body.data.id as string);
        else {
          // a write that met a dead connection (its session's lookup included) is 'not confirmed': never a 500, never a 401
          expect(answer.status, JSON.stringify(answer.body)).toBe(503);
          expect(answer.body.error.code).toBe('server.unavailable');
          refused.push(answer.status);
        }
      }
    });
    const terminated = new Set<string>();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(60);
        for (const name of await terminateAll()) terminated.add(name.split(' ')[0]);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    // every kind of connection the API holds was cut at least once
    expect([...terminated].sort()).toEqual(expect.arrayContaining(['rollcall-event-store', 'rollcall-event-store-listen', 'rollcall-projection-leadership', 'rollcall-read-db']));

    expect(await readyAs(app, 'leader')).toBe(true);
    expect(await leaderHoldsTheLock()).toBe(true);
    expect(uncaught).toEqual([]);

    // the session survives (its row is in the read models), and every 201 write is there
    const again = http(app.url, await signIn(app.url));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) expect((await again.get(`/api/v2/account/${id}`)).status, id).toBe(200);
    // and the API writes as before
    expect((await again.post('/api/v2/account', newAccount())).status).toBe(201);
  });

  it('a leader whose lock connection died and whose read database fails while it takes the lead again lets the lock go and tries again', async () => {
    const admin = http(app.url, await signIn(app.url));
    expect(await readyAs(app, 'leader')).toBe(true);
    // the read database's checkpoints held by another session: the takeover's reads wait on it, and are then cut
    const blocker = new pg.Client({ connectionString: PG_URL });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${schema}".projection_checkpoints IN ACCESS EXCLUSIVE MODE`);
      await terminator.query(`WITH chosen AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE application_name = $1) SELECT pg_terminate_backend(pid) FROM chosen`, [`rollcall-projection-leadership ${schema}`]);
      // every read of the checkpoints that waits for the lock dies: following, then leading again, fail
      let cut = 0;
      for (let round = 0; round < 40 && cut < 3; round++) {
        await sleep(100);
        cut += (
          await terminator.query(
            `WITH chosen AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock') SELECT pid FROM chosen WHERE pg_terminate_backend(pid)`,
            [`rollcall-read-db ${schema}`],
          )
        ).rowCount ?? 0;
      }
      expect(cut).toBeGreaterThan(1);
    } finally {
      await blocker.query('COMMIT');
      await blocker.end();
    }
    // a write the read models must reach: a leader that never runs its projections again would stay behind
    expect([201, 503]).toContain((await admin.post('/api/v2/account', newAccount())).status);
    const created = await admin.post('/api/v2/account', newAccount());
    expect(created.status).toBe(201);
    expect(await readyAs(app, 'leader')).toBe(true);
    expect(await leaderHoldsTheLock()).toBe(true);
    expect((await admin.get(`/api/v2/account/${created.body.data.id}`)).status).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it('a process that follows the projection leader heals too: its subscription starts again once its connections are back', async () => {
    const follower = await startTestApp('postgres', { ROLLCALL_CONSISTENCY_WAIT_MS: '500' }, app.config);
    try {
      expect(await readyAs(follower, 'follower')).toBe(true);
      const throughFollower = http(follower.url, await signIn(follower.url));
      const acknowledged: string[] = [];
      let writing = true;
      const writer = (async () => {
        while (writing) {
          const answer = await throughFollower.post('/api/v2/account', newAccount());
          if (answer.status === 201) acknowledged.push(answer.body.data.id as string);
          else expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        }
      })();
      try {
        // the lock connections are spared: the roles stay, and the follower's own subscription must heal
        for (let round = 0; round < 10; round++) {
          await sleep(60);
          await terminateAll('rollcall-projection-leadership');
        }
      } finally {
        writing = false;
        await writer;
      }
      expect(await readyAs(follower, 'follower')).toBe(true);
      expect(await readyAs(app, 'leader')).toBe(true);
      expect(uncaught).toEqual([]);
      // what was written through the follower is read through the other process, and the other way round
      const throughLeader = http(app.url, await signIn(app.url));
      for (const id of acknowledged) expect((await throughLeader.get(`/api/v2/account/${id}`)).status, id).toBe(200);
      const created = await throughLeader.post('/api/v2/account', newAccount());
      expect(created.status).toBe(201);
      const again = http(follower.url, await signIn(follower.url));
      let seen = 0;
      for (let attempt = 0; attempt < 50 && seen !== 200; attempt++) {
        seen = (await again.get(`/api/v2/account/${created.body.data.id}`)).status;
        if (seen !== 200) await sleep(100);
      }
      expect(seen).toBe(200);
    } finally {
      await follower.stop();
    }
  });
});
