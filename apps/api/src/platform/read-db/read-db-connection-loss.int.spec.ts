import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL } from '../../../test/test-app';
import { createReadDb, type ReadDb } from './create-read-db';

/**
 * The read database's own answer to a lost PostgreSQL connection (docs/security.md, 'Faults degrade
 * and heal'): a transaction whose connection PostgreSQL ends fails with the real cause (57P01), not
 * with the failed ROLLBACK that kysely sends after it on the dead connection, and the next query
 * gets a fresh connection.
 */
const skipReason = PG_URL ? null : 'ROLLCALL_TEST_PG_URL not set';
if (skipReason) console.log(`skipped: read database connection-loss test: ${skipReason}`);

describe.skipIf(!!skipReason)('the PostgreSQL read database when its connection is ended mid-transaction', () => {
  const schema = `t_readdb_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  let readDb: ReadDb;

  beforeAll(async () => {
    readDb = await createReadDb({ kind: 'postgres', url: PG_URL!, schema }, { onConnectionLost: () => undefined });
  });
  afterAll(async () => {
    await readDb?.close();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('fails the transaction with 57P01, then answers on a fresh connection', async () => {
    const failure = await readDb.db
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        // the transaction's own backend ended, as pg_terminate_backend from elsewhere would
        await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(trx);
      })
      .then(
        () => null,
        (error: unknown) => error as { code?: string; message?: string },
      );
    expect(failure?.code, failure?.message).toBe('57P01');
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(readDb.db)).rows[0].one).toBe(1);
  });
});
