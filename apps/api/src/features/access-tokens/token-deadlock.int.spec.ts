import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, PG_URL, signIn, startTestApp, type TestApp } from '../../../test/test-app';

/**
 * Found by the fuzzer (seed 1675557010 on PostgreSQL; docs/security.md, 'transient PostgreSQL
 * errors'): `deadlock detected` from ResolveAccessTokenHandler answered 500. A join locks its tables
 * one after the other (access_tokens_v1, then accounts_v2); a transaction that locks both exclusively
 * in the other order (the read-model swap of `POST projections/rebuild` drops and replaces tables one
 * by one) deadlocks with it, and PostgreSQL aborts the read. Made deterministic here: a second
 * connection holds accounts_v2, the request's read takes access_tokens_v1 and waits, then the
 * connection asks for access_tokens_v1. Its own deadlock_timeout is long, so the request's backend
 * (1 s) is the one that detects the cycle and is aborted.
 */
describe.skipIf(!PG_URL)('a deadlocked read never answers 500 (postgres)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let adminId: string;
  let schema: string;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
    schema = app.config.readDb.kind === 'postgres' ? app.config.readDb.schema : '';
  }, 60_000);
  afterAll(async () => {
    await app?.destroy();
  });

  const issue = async () => {
    const created = await admin.post('/api/v1/token', { title: 'Door export', forever: true, permissions: ['accounts:read', 'tokens:read'], restrictions: [], account_id: adminId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.token as string;
  };

  /**
   * Runs `request` while a second connection makes the cycle: it holds accounts_v2, waits until a
   * backend that holds access_tokens_v1 waits for accounts_v2, then asks for access_tokens_v1.
   */
  async function deadlocked<T>(request: () => Promise<T>): Promise<T> {
    const locker = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await locker.connect();
    try {
      await locker.query("SET deadlock_timeout = '60s'");
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE accounts_v2 IN ACCESS EXCLUSIVE MODE');
      const answer = request();
      for (let waited = 0; ; waited += 1) {
        const { rows } = await locker.query(
          `SELECT 1 FROM pg_locks waiting JOIN pg_locks holding ON holding.pid = waiting.pid
           WHERE NOT waiting.granted AND waiting.relation = 'accounts_v2'::regclass
             AND holding.granted AND holding.relation = 'access_tokens_v1'::regclass`,
        );
        if (rows.length) break;
        if (waited > 500) throw new Error('the request never waited for accounts_v2 while holding access_tokens_v1');
        await sleep(10);
      }
      // granted once PostgreSQL has aborted the request's read (the other end of the cycle)
      await locker.query('LOCK TABLE access_tokens_v1 IN ACCESS EXCLUSIVE MODE');
      await locker.query('ROLLBACK');
      return await answer;
    } finally {
      await locker.end();
    }
  }

  it('resolves an access token again after its read was chosen as a deadlock victim (200, not 500)', async () => {
    const token = await issue();
    const answer = await deadlocked(() => http(app.url, token).get('/api/v2/accounts?limit=1'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // the same token goes on working, from the cache now
    expect((await http(app.url, token).get('/api/v1/account/' + adminId)).status).toBe(200);
  }, 30_000);

  it('answers 503 server.unavailable, not 500, when any other read is a deadlock victim', async () => {
    const token = await issue();
    const client = http(app.url, token);
    // resolved and cached now: the only read left on the deadlocked call is the list's own join
    expect((await client.get('/api/v2/accounts?limit=1')).status).toBe(200);
    const answer = await deadlocked(() => client.get('/api/v1/tokens?limit=5'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body.error).toMatchObject({ code: 'server.unavailable' });
    expect((await client.get('/api/v1/tokens?limit=5')).status).toBe(200);
  }, 30_000);
});
