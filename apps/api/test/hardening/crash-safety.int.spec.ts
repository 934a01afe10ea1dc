import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TProjectionsAnswer } from '@rollcall/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltApi, integrityCheck, listedAccountIds, sleep } from '../built-api';
import { readModels } from '../read-models';
import { http, newAccount, signIn } from '../test-app';
import { openSealedEventStore } from '../../src/platform/personal-data/open-sealed-event-store';
import { allProjections } from '../../src/all-projections';
import { rebuildProjections } from '../../src/platform/projections/projection-runner';
import { createReadDb } from '../../src/platform/read-db/create-read-db';

/**
 * Crash safety (docs/security.md, "2. Crash safety"): the real, built API on SQLite files is
 * put under an HTTP write load (WRITERS concurrent clients creating accounts), killed with SIGKILL
 * at a random moment of that load, and started again on the same files, ROUNDS times. Then:
 * every account whose creation was answered 2xx is listed and readable, `PRAGMA integrity_check` is
 * `ok` on every SQLite file (after every kill, as the kill left them, and at the end), and the read
 * models equal a rebuild from zero, table by table.
 *
 * A SIGKILL is a process crash, not a power cut: what the kernel already holds survives it. Power loss
 * is what `synchronous = FULL` on the event log is for; the failing-fsync test covers the fsync side.
 *
 * ROLLCALL_CRASH_ROUNDS (default 50, the count docs/security.md gives) sets the number of kills: a
 * restart of the built API takes about 3 s on two cores, so 50 rounds are most of this file's time.
 */
const ROUNDS = Number(process.env.ROLLCALL_CRASH_ROUNDS ?? 50);
const WRITERS = 4;
/** the kill lands this long (random, ms) after the round's first acknowledged write */
const KILL_WITHIN_MS = 400;

describe('the API survives SIGKILL under a write load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-crash-api-'));
  const api = new BuiltApi(dataDir);
  afterAll(async () => {
    await api.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sqliteFiles = () => readdirSync(dataDir).filter((name) => name.endsWith('.db'));

  it(`loses no acknowledged write in ${ROUNDS} SIGKILLs, keeps the files intact and the read models equal to a rebuild`, async () => {
    const acknowledged: string[] = [];
    let cutOff = 0; // requests in flight when a kill landed (no answer: may or may not be stored)
    let roundsWithCutOff = 0;
    let token = '';
    for (let round = 0; round < ROUNDS; round++) {
      await api.start();
      // sessions are events: the token of the first round still works after every restart
      token ||= await signIn(api.url);
      const client = http(api.url, token);
      let killing: Promise<void> | null = null;
      let cutThisRound = 0;
      const writer = async () => {
        while (!killing || api.running) {
          const created = await client.post('/api/v2/account', newAccount()).catch(() => null);
          if (!created) {
            // the connection died with the process; only a kill explains that
            if (!killing) throw new Error(`round ${round}: a request failed before the kill: ${api.output}`);
            cutThisRound++;
            return;
          }
          if (created.status !== 201) throw new Error(`round ${round}: create answered ${created.status} ${JSON.stringify(created.body)}`);
          acknowledged.push(created.body.data.id as string);
          // the first answer of the round arms the kill, a random moment into the load
          killing ??= sleep(Math.random() * KILL_WITHIN_MS).then(() => api.kill());
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, writer));
      await killing;
      cutOff += cutThisRound;
      if (cutThisRound > 0) roundsWithCutOff++;
      // the files exactly as the kill left them (a hot WAL included) are sound
      for (const file of sqliteFiles()) expect(integrityCheck(join(dataDir, file)), `${file} after kill ${round + 1}`).toBe('ok');
    }
    console.log(`crash safety: ${ROUNDS} SIGKILLs, ${acknowledged.length} acknowledged creates, ${cutOff} requests cut off by a kill (in ${roundsWithCutOff} rounds)`);
    // the kills landed in the middle of the load, not between requests
    expect(roundsWithCutOff).toBeGreaterThanOrEqual(Math.ceil(ROUNDS / 2));

    await api.start();
    const admin = http(api.url, token);
    // every acknowledged account is listed and readable
    const listed = await listedAccountIds(api.url, token);
    expect(acknowledged.filter((id) => !listed.has(id)), 'acknowledged accounts not listed').toEqual([]);
    const unreadable: string[] = [];
    for (const id of acknowledged) if ((await admin.get(`/api/v2/account/${id}`)).status !== 200) unreadable.push(id);
    expect(unreadable, 'acknowledged accounts not readable').toEqual([]);
    // a write after all the kills is still acknowledged and readable
    const after = await admin.post('/api/v2/account', newAccount());
    expect(after.status).toBe(201);
    // every projection catches up with the head before the orderly stop
    await expect
      .poll(async () => ((await admin.get('/api/v2/projections')).body.data as TProjectionsAnswer).projections.filter((projection) => projection.lag > 0 || projection.lag_more || projection.state !== 'running').map((projection) => projection.name), { timeout: 30_000, interval: 200 })
      .toEqual([]);
    await api.stop();

    for (const file of sqliteFiles()) expect(integrityCheck(join(dataDir, file)), file).toBe('ok');
    expect(sqliteFiles()).toEqual(expect.arrayContaining(['events.db', 'read.db']));

    // the read models the crashes left equal a replay of the event log from zero into a fresh file
    const eventStore = { kind: 'sqlite' as const, file: join(dataDir, 'events.db') };
    const readDb = { kind: 'sqlite' as const, file: join(dataDir, 'read.db') };
    const store = await openSealedEventStore({ eventStore, readDb });
    const live = await createReadDb(readDb);
    const rebuilt = await createReadDb({ kind: 'sqlite', file: join(dataDir, 'rebuilt', 'read.db') });
    try {
      const replayed = await rebuildProjections(store, rebuilt.db, allProjections());
      const [liveModels, rebuiltModels] = await Promise.all([readModels(live.db, 'sqlite', ''), readModels(rebuilt.db, 'sqlite', '')]);
      expect(Object.keys(liveModels)).toEqual(Object.keys(rebuiltModels));
      for (const table of Object.keys(rebuiltModels)) expect(liveModels[table], table).toEqual(rebuiltModels[table]);
      // nothing doubled: one row per account listed before, plus the one created after the listing
      expect(liveModels.accounts_v2.length).toBe(listed.size + 1);
      console.log(`crash safety: ${replayed} events replayed, ${Object.keys(rebuiltModels).length} read-model tables equal to the rebuild`);
    } finally {
      await Promise.all([live.close(), rebuilt.close(), store.close()]);
    }
  }, Math.max(120_000, ROUNDS * 20_000));
});
