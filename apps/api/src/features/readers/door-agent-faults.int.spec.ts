import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanLedgerStream } from '@rollcall/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_MAIN, AgentProcess, agentEnv, cardUids, freePort, findLibfaketime, waitFor } from '../../../../scanner-agent/src/test-support/harness.spec';
import { FaultProxy } from '../../../../scanner-agent/src/test-support/fault-proxy.spec';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import { START, type EventStore } from '../../platform/event-store/event-store.port';

const LIBFAKETIME = findLibfaketime();
if (!LIBFAKETIME) console.log('skipped: agent clock-corrected test: libfaketime.so.1 not found (apt-get install faketime)');
const HOUR = 3_600_000;

/**
 * The door agent heals by itself and never loses or blocks scans (docs/security.md, 'Door agent
 * faults'): the BUILT agent (`npx tsc -b apps/scanner-agent`) as a child process against this API,
 * in process, with its faults injected for real: a full tmpfs under the outbox, an outbox file
 * rolled back to an older copy, a scan the server fails on (500) every time, a device time in
 * year 1. What landed is read from the reader's ledger stream: every scan acknowledged to the reader
 * ('ok' on the simulator's socket) must be there exactly once.
 */
const built = existsSync(AGENT_MAIN);
if (!built) console.log('skipped: door agent faults: the agent is not built (npx tsc -b apps/scanner-agent)');

describe.skipIf(!built)('door agent faults (docs/security.md)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let work: string;
  const agents: AgentProcess[] = [];
  const mounts: string[] = [];

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    admin = http(app.url, await signIn(app.url));
    work = mkdtempSync(join(tmpdir(), 'rollcall-agent-faults-'));
  });
  afterAll(async () => {
    for (const agent of agents) if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    for (const mount of mounts) {
      try {
        execFileSync('umount', [mount]);
      } catch {
        // already gone
      }
    }
    rmSync(work, { recursive: true, force: true });
    await app?.destroy();
  });

  const registerReader = async (name: string) => {
    const created = await admin.post('/api/v2/readers', { name: `${name} ${Date.now().toString(36)}`, door: `${name} door`, role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    return { id: created.body.data.id as string, token: issued.body.data.token as string };
  };
  const startAgent = (reader: { id: string; token: string }, dataDir: string, socketPath: string, extra: Record<string, string> = {}, url = app.url) => {
    const agent = new AgentProcess(agentEnv({ url }, reader, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: `unix:${socketPath}`, ...extra }));
    agents.push(agent);
    return agent;
  };
  /** one scan line on the simulator's socket; resolves with the agent's answer ('ok' once it is on disk) */
  const scan = (socketPath: string, line: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath, () => socket.write(`${line}\n`));
      socket.once('data', (data) => (resolve(data.toString().trim()), socket.end()));
      socket.once('error', reject);
    });
  /** the card UIDs the server recorded for this reader (unknown cards), in log order */
  const recorded = async (readerId: string) => {
    const store = app.app.get<EventStore>(EVENT_STORE);
    const events = await store.readStream(scanLedgerStream(readerId));
    return events.filter((event) => event.type === 'UnknownCardScanned').map((event) => (event.data as { scan: { cardUid: string } }).scan.cardUid);
  };
  const expectExactlyOnce = async (readerId: string, uids: string[]) => {
    const found = await waitFor(`${uids.length} scans recorded`, async () => {
      const got = await recorded(readerId);
      return got.length >= uids.length ? got : undefined;
    }, 30_000, 100);
    expect([...found].sort()).toEqual([...uids].sort());
  };

  it('(4) a full disk under the outbox holds scans, reports it, and takes them once space is back; unrecoverable, it exits 75', { timeout: 90_000 }, async (context) => {
    const mount = join(work, 'tmpfs');
    mkdirSync(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=400k', 'tmpfs', mount], { stdio: 'pipe' });
      mounts.push(mount);
    } catch (error) {
      console.log(`skipped: agent disk-full test: cannot mount a tmpfs (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      context.skip();
      return;
    }
    const reader = await registerReader('Full disk');
    const socketPath = join(work, 'full.sock');
    const dataDir = join(mount, 'agent');
    const agent = startAgent(reader, dataDir, socketPath, { ROLLCALL_AGENT_INTAKE_GIVE_UP_SECONDS: '60' });
    await agent.waitForLog('command channel connected');
    const uids = cardUids(7, 0xd4);
    for (const uid of uids.slice(0, 2)) expect(await scan(socketPath, uid)).toBe('ok');
    await waitFor('the first scans sent', async () => (await recorded(reader.id)).length === 2);

    // fill the file system to the last byte
    const filler = join(mount, 'filler');
    const fd = openSync(filler, 'w');
    try {
      for (;;) writeSync(fd, Buffer.alloc(4096));
    } catch {
      // ENOSPC: full
    } finally {
      closeSync(fd);
    }
    let answered: string | null = null;
    const held = scan(socketPath, uids[2]).then((answer) => (answered = answer));
    const failed = await agent.waitForLog(/^could not write the scan to the outbox/);
    expect(String(failed.error)).toMatch(/SQLITE_FULL|full/i);
    // the server sees it in the reader's health, and the person at the door got no 'ok'
    await waitFor('intake storage_failed in the readers list', async () => {
      const listed = await admin.get(`/api/v2/readers/${reader.id}`);
      return listed.body.data.intake?.state === 'storage_failed' ? listed.body.data : undefined;
    }, 15_000);
    expect(answered).toBeNull();

    unlinkSync(filler);
    expect(await held).toBe('ok');
    await agent.waitForLog(/^the outbox is writable again/);
    for (const uid of uids.slice(3, 5)) expect(await scan(socketPath, uid)).toBe('ok');
    await expectExactlyOnce(reader.id, uids.slice(0, 5));
    await waitFor('intake ok in the readers list', async () => (await admin.get(`/api/v2/readers/${reader.id}`)).body.data.intake?.state === 'ok', 15_000);
    expect(await agent.stop()).toBe(0);

    // cannot heal within its limit: the reader is told 'not taken', the process exits 75 for systemd
    const again = startAgent(reader, dataDir, socketPath, { ROLLCALL_AGENT_INTAKE_GIVE_UP_SECONDS: '2' });
    await again.waitForLog('command channel connected');
    const fd2 = openSync(filler, 'w');
    try {
      for (;;) writeSync(fd2, Buffer.alloc(4096));
    } catch {
      // full again
    } finally {
      closeSync(fd2);
    }
    expect(await scan(socketPath, uids[5])).toMatch(/^not_taken /);
    expect(await again.exited).toBe(75);
    unlinkSync(filler);
    // the scan refused at the door never arrives; the others are there once
    const restarted = startAgent(reader, dataDir, socketPath);
    await restarted.waitForLog('command channel connected');
    expect(await scan(socketPath, uids[6])).toBe('ok');
    await expectExactlyOnce(reader.id, [...uids.slice(0, 5), uids[6]]);
    expect(await restarted.stop()).toBe(0);
  });
  it('(5) an outbox rolled back to an older copy: new scans under reused sequences are refused as reused, renumbered under a new outbox id, none lost', { timeout: 90_000 }, async () => {
    const reader = await registerReader('Rolled back');
    const dataDir = join(work, 'rollback');
    const socketPath = join(work, 'rollback.sock');
    const uids = cardUids(9, 0xe5);
    const sendAll = async (agent: AgentProcess, batch: string[], total: number) => {
      for (const uid of batch) expect(await scan(socketPath, uid)).toBe('ok');
      await waitFor(`${total} scans acknowledged`, () => agent.all('scans acknowledged').reduce((sum, line) => sum + Number(line.accepted) + Number(line.already_accepted), 0) >= batch.length);
    };
    const first = startAgent(reader, dataDir, socketPath);
    await first.waitForLog('command channel connected');
    await sendAll(first, uids.slice(0, 3), 3);
    expect(await first.stop()).toBe(0);
    // the disk image taken here: a closed outbox is one file (the WAL is checkpointed on close)
    const backup = join(work, 'outbox-backup.db');
    copyFileSync(join(dataDir, 'outbox.db'), backup);

    const second = startAgent(reader, dataDir, socketPath);
    await second.waitForLog('command channel connected');
    await sendAll(second, uids.slice(3, 6), 6);
    expect(await second.stop()).toBe(0);

    // restored: the counter is back at 3, sequences 4-6 are handed out again to new scans
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `outbox.db${suffix}`), { force: true });
    copyFileSync(backup, join(dataDir, 'outbox.db'));
    const third = startAgent(reader, dataDir, socketPath);
    await third.waitForLog('command channel connected');
    for (const uid of uids.slice(6, 9)) expect(await scan(socketPath, uid)).toBe('ok');
    const rotated = await third.waitForLog(/^the server already has another scan under this sequence/);
    expect(rotated.renumbered).toBeGreaterThanOrEqual(1);
    await expectExactlyOnce(reader.id, uids);
    expect(third.find(/dead-letter/)).toBeUndefined();
    expect(await third.stop()).toBe(0);
  });

  it('(6) an impossible device time is refused per scan (never 500), alone; through the agent a scan the server fails on (500) is set aside and the 20 behind it go on', { timeout: 90_000 }, async () => {
    const reader = await registerReader('Impossible');
    const client = http(app.url, reader.token);
    const account = await createAccount(admin);
    const known = '0A1B2C3D';
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: known, account_id: account.id })).status).toBe(201);
    const now = new Date().toISOString();
    const answer = await client.post('/api/v2/reader/scans', {
      sent_at: now,
      scans: [
        { card_uid: known, sequence: 1, device_time: '0001-01-01T00:00:00.000Z' },
        { card_uid: '0A1B2C3E', sequence: 2, device_time: '0001-01-01T00:00:00.000Z' },
        { card_uid: known, sequence: 3, device_time: now },
      ],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.acks.map((ack: { status: string; error?: { code: string } }) => ack.error?.code ?? ack.status)).toEqual(['scan.device_time_impossible', 'scan.device_time_impossible', 'accepted']);
    expect(answer.body.acks[0].error.message).toMatch(/device_time 0001-01-01/);
    // with the scan's monotonic age the server can place it: counted at its own time, flagged
    const aged = await client.post('/api/v2/reader/scans', { sent_at: now, scans: [{ card_uid: '0A1B2C3F', sequence: 4, device_time: '0001-01-01T00:00:00.000Z', age_ms: 1000 }] });
    expect(aged.body.acks[0]).toMatchObject({ status: 'accepted', flags: ['clock_skew'] });

    // through the agent: the server fails (500) on one scan every time
    const proxy = new FaultProxy(Number(new URL(app.url).port));
    const port = await freePort();
    await proxy.listen(port);
    try {
      const poisoned = await registerReader('Poisoned');
      const socketPath = join(work, 'poison.sock');
      const uids = cardUids(22, 0xf6);
      const poison = uids[1];
      proxy.failScanPostsWith500 = (body) => body.includes(poison);
      const agent = startAgent(poisoned, join(work, 'poison'), socketPath, {}, `http://127.0.0.1:${port}`);
      await agent.waitForLog('command channel connected');
      for (const uid of uids) expect(await scan(socketPath, uid)).toBe('ok');
      const setAside = await agent.waitForLog(/^the server fails on this one scan every time/, () => true, 60_000);
      expect(setAside.card_uid).toBe(poison);
      await expectExactlyOnce(poisoned.id, uids.filter((uid) => uid !== poison));
      expect(proxy.failedWith500).toBeGreaterThanOrEqual(5);
      // the console's Door readers screen sees the dead letter in the reader's health
      await waitFor('the dead letter in the readers list', async () => {
        const listed = (await admin.get(`/api/v2/readers/${poisoned.id}`)).body.data;
        return listed.dead_letters === 1 && listed.last_dead_letter?.card_uid === poison ? listed : undefined;
      }, 40_000);
      expect(await agent.stop()).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it.skipIf(!LIBFAKETIME)('(7) scans queued while the box clock was 3 h behind, sent after it was corrected: placed by their monotonic age, flagged', { timeout: 90_000 }, async () => {
    const reader = await registerReader('Clock corrected');
    const account = await createAccount(admin);
    const uid = '0C0FFEE1';
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id })).status).toBe(201);
    const dataDir = join(work, 'clock');
    const socketPath = join(work, 'clock.sock');
    // offline (nothing listens on this port) with the clock 3 h behind: the scan is queued with that time
    const offline = startAgent(reader, dataDir, socketPath, { LD_PRELOAD: LIBFAKETIME!, FAKETIME: '-3h' }, `http://127.0.0.1:${await freePort()}`);
    await waitFor('the simulator socket', () => existsSync(socketPath));
    expect(await scan(socketPath, uid)).toBe('ok');
    const queued = await offline.waitForLog('scan queued');
    expect(await offline.stop()).toBe(0);
    // the clock corrected (a new process without the shift, same boot), the queue sent
    const online = startAgent(reader, dataDir, socketPath);
    await online.waitForLog('scans acknowledged', (line) => Number(line.accepted) === 1);
    expect(await online.stop()).toBe(0);

    const store = app.app.get<EventStore>(EVENT_STORE);
    const arrival = (await store.readAll(START, 100_000)).find((event) => event.type === 'ArrivalRecorded' && (event.data as { scan: { cardUid: string } }).scan.cardUid === uid);
    const stored = (arrival?.data as { scan: { deviceTime: string; receivedAt: string; at: string; flags: string[]; ageMs?: number } }).scan;
    expect(stored.deviceTime).toBe(queued.device_time);
    // the device time is about 3 h before the server's receipt; the counted time is not
    expect(Date.parse(stored.receivedAt) - Date.parse(stored.deviceTime)).toBeGreaterThan(2.9 * HOUR);
    expect(Date.parse(stored.receivedAt) - Date.parse(stored.at)).toBeLessThan(60_000);
    expect(Date.parse(stored.receivedAt) - Date.parse(stored.at)).toBeGreaterThanOrEqual(0);
    expect(stored.flags).toContain('clock_skew');
    expect(typeof stored.ageMs).toBe('number');
  });
});
