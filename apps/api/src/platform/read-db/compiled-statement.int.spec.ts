import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttendanceSlotsProjection } from '../../features/attendance/projections/attendance-slots.projection';
import { compiledStatement } from './compiled-statement';
import { createReadDb, type ReadDb, type ReadDbConfig } from './create-read-db';

const PG_URL = process.env.ROLLCALL_TEST_PG_URL;
const dir = mkdtempSync(join(tmpdir(), 'rollcall-compiled-statement-'));

const insertSlot = compiledStatement<[id: string, accountId: string, day: string, flags: string]>(4, (db, id, accountId, day, flags) =>
  db
    .insertInto('attendance_slots_v1')
    .values({ id, account_id: accountId, day, arrived_at: '2026-11-26T08:00:00.000Z', departed_at: null, arrival_reader_id: 'r', arrival_door: 'd', departure_reader_id: null, departure_door: null, flags, corrected: 0, uncounted_scans: 0 })
    .onConflict((oc) => oc.column('id').doNothing()),
);
const bump = compiledStatement<[id: string]>(1, (db, id) =>
  db
    .updateTable('attendance_slots_v1')
    .set((eb) => ({ uncounted_scans: eb(eb.ref('uncounted_scans'), '+', 2) }))
    .where('id', '=', id),
);
const slotOf = compiledStatement<[id: string]>(1, (db, id) => db.selectFrom('attendance_slots_v1').selectAll().where('id', '=', id));

const targets: Array<[string, () => ReadDbConfig]> = [['SQLite', () => ({ kind: 'sqlite', file: join(dir, 'read.sqlite') })]];
if (PG_URL) targets.push(['PostgreSQL', () => ({ kind: 'postgres', url: PG_URL, schema: `compiled_statement_${process.pid}` })]);
else console.log('skipped: compiledStatement on PostgreSQL (ROLLCALL_TEST_PG_URL is not set)');

describe.each(targets)('compiledStatement on %s', (_name, config) => {
  let readDb: ReadDb;
  beforeAll(async () => {
    readDb = await createReadDb(config());
    // the table of the statements' first user, as its projection makes it
    await new AttendanceSlotsProjection().setup(readDb.db);
  });
  afterAll(async () => {
    if (config().kind === 'postgres') await readDb.db.schema.dropTable('attendance_slots_v1').ifExists().execute();
    await readDb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds each call its own arguments, in their places, and keeps the literals the builder fixed', async () => {
    await insertSlot(readDb.db, 'slot-1', 'account-1', '2026-11-26', '["clock_skew"]');
    await insertSlot(readDb.db, 'slot-2', 'account-2', '2026-11-27', '[]');
    // conflict: nothing changes
    await insertSlot(readDb.db, 'slot-1', 'account-9', '2026-01-01', '["x"]');
    await readDb.db.transaction().execute(async (trx) => {
      await bump(trx, 'slot-2');
      await bump(trx, 'slot-2');
    });
    expect((await slotOf(readDb.db, 'slot-1')).rows).toEqual([expect.objectContaining({ id: 'slot-1', account_id: 'account-1', day: '2026-11-26', flags: '["clock_skew"]', uncounted_scans: 0, departed_at: null })]);
    expect((await slotOf(readDb.db, 'slot-2')).rows).toEqual([expect.objectContaining({ id: 'slot-2', account_id: 'account-2', day: '2026-11-27', flags: '[]', uncounted_scans: 4 })]);
    expect((await slotOf(readDb.db, 'slot-3')).rows).toEqual([]);
  });

  it('refuses at its first use a statement that binds an argument twice or leaves one out', async () => {
    const twice = compiledStatement<[id: string]>(1, (db, id) => db.selectFrom('attendance_slots_v1').select('id').where('id', '=', id).where('account_id', '=', id));
    const missing = compiledStatement<[id: string, day: string]>(2, (db, id) => db.selectFrom('attendance_slots_v1').select('id').where('id', '=', id));
    await expect(twice(readDb.db, 'slot-1')).rejects.toThrow(/used twice/);
    await expect(missing(readDb.db, 'slot-1', '2026-11-26')).rejects.toThrow(/each of the 2 arguments/);
  });
});
