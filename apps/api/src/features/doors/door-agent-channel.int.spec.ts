import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { scanLedgerStream } from '@rollcall/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_MAIN, AgentProcess, agentEnv, cardUids, freePort, waitFor } from '../../../../scanner-agent/src/test-support/harness.spec';
import { FaultProxy } from '../../../../scanner-agent/src/test-support/fault-proxy.spec';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';

const built = existsSync(AGENT_MAIN);
if (!built) console.log('skipped: door agent over the reader channel: the agent is not built (npx tsc -b apps/scanner-agent)');

/**
 * The BUILT door agent (`npx tsc -b apps/scanner-agent`) sends its scans over the reader's WebSocket
 * (docs/readers.md, 'Scans over the channel'; docs/door-agent.md), against this app in process,
 * through a proxy that sees each scan request, whichever way it goes, and can drop its answer after
 * the API committed it (FaultProxy). What landed is read from the reader's ledger stream: every scan
 * confirmed at the door ('ok' on the simulator's socket) must be there exactly once.
 */
describe.skipIf(!built)('door agent over the reader channel', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let work: string;
  let proxy: FaultProxy;
  let proxyUrl: string;
  const agents: AgentProcess[] = [];

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    admin = http(app.url, await signIn(app.url));
    work = mkdtempSync(join(tmpdir(), 'rollcall-agent-channel-'));
    proxy = new FaultProxy(Number(new URL(app.url).port));
    const port = await freePort();
    await proxy.listen(port);
    proxyUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    for (const agent of agents) if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    await proxy?.close();
    rmSync(work, { recursive: true, force: true });
    await app?.destroy();
  });

  const registerReader = async (name: string) => {
    const created = await admin.post('/api/v2/readers', { name: `${name} ${Date.now().toString(36)}`, door: `${name} door`, role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    return { id: created.body.data.id as string, token: issued.body.data.token as string };
  };
  /** the agent for this reader, through the proxy, its scans fed on a unix socket; started once its channel is up */
  const startAgent = async (reader: { id: string; token: string }, name: string) => {
    const socketPath = join(work, `${name}.sock`);
    const agent = new AgentProcess(agentEnv({ url: proxyUrl }, reader, join(work, name), { ROLLCALL_AGENT_SIMULATOR_INPUT: `unix:${socketPath}` }));
    agents.push(agent);
    await agent.waitForLog('command channel connected');
    /** one card at the reader; resolves with the agent's answer ('ok' once the scan is on disk) */
    const scan = (uid: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(socketPath, () => socket.write(`${uid}\n`));
        socket.once('data', (data) => (resolve(data.toString().trim()), socket.end()));
        socket.once('error', reject);
      });
    return { agent, scan, dataDir: join(work, name) };
  };
  /** the card UIDs the server recorded for this reader (unknown cards), in log order */
  const recorded = async (readerId: string) => {
    const events = await app.app.get<EventStore>(EVENT_STORE).readStream(scanLedgerStream(readerId));
    return events.filter((event) => event.type === 'UnknownCardScanned').map((event) => (event.data as { scan: { cardUid: string } }).scan.cardUid);
  };
  const expectExactlyOnce = async (readerId: string, uids: string[]) => {
    const found = await waitFor(`${uids.length} scans recorded`, async () => {
      const got = await recorded(readerId);
      return got.length >= uids.length ? got : undefined;
    }, 30_000, 100);
    expect([...found].sort()).toEqual([...uids].sort());
  };
  const acknowledged = (agent: AgentProcess) => agent.all('scans acknowledged');

  it('sends a scan over the channel, and it is attendance: no HTTP request at all', { timeout: 60_000 }, async () => {
    const reader = await registerReader('Channel door');
    const account = await createAccount(admin);
    const uid = '0D0C0B0A09';
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id })).status).toBe(201);
    const posted = proxy.scanPosts.length;
    const { agent, scan } = await startAgent(reader, 'channel');
    expect(await scan(uid)).toBe('ok');
    const ack = await agent.waitForLog('scans acknowledged', (line) => Number(line.accepted) === 1);
    expect(ack.via).toBe('channel');
    expect(proxy.scanPosts.slice(posted)).toEqual([{ sequences: [1], dropped: false, status: 200, via: 'channel' }]);
    const log = await waitFor('the arrival in the log', async () => {
      const page = (await admin.get(`/api/v2/logs/arrivals-departures?account_id=${account.id}`)).body.data.data as Array<{ arrival: { reader_id: string } }>;
      return page.length ? page : undefined;
    });
    expect(log).toEqual([expect.objectContaining({ departed_at: null, arrival: expect.objectContaining({ reader_id: reader.id }) })]);
    expect(await agent.stop()).toBe(0);
  });

  it('an answer lost with the socket: the batch goes again over HTTP at once and counts once', { timeout: 60_000 }, async () => {
    const reader = await registerReader('Lost answer');
    const { agent, scan } = await startAgent(reader, 'lost');
    const uids = cardUids(4, 0xc7);
    const posted = proxy.scanPosts.length;
    proxy.dropScanAnswers = 1;
    expect(await scan(uids[0])).toBe('ok');
    await agent.waitForLog('scans acknowledged', (line) => Number(line.already_accepted) === 1);
    // committed by the API, its answer dropped with the connection; the resend over HTTP found it recorded
    expect(proxy.scanPosts.slice(posted, posted + 2)).toEqual([
      { sequences: [1], dropped: true, status: 200, via: 'channel' },
      { sequences: [1], dropped: false, status: 200, via: 'http' },
    ]);
    expect(agent.find('could not send scans; they stay queued and are retried')).toMatchObject({ retry_in_ms: 0, reason: expect.stringMatching(/command channel closed/) });
    // the channel comes back, and the next scans go over it again
    await agent.waitForLog('command channel connected', (line) => line !== agent.find('command channel connected'));
    for (const uid of uids.slice(1)) expect(await scan(uid)).toBe('ok');
    await waitFor('the last scan acknowledged', () => agent.find('scans acknowledged', (line) => Number(line.last) === 4));
    expect(acknowledged(agent).filter((line) => Number(line.first) > 1).map((line) => line.via)).toEqual(expect.arrayContaining(['channel']));
    await expectExactlyOnce(reader.id, uids);
    expect(await agent.stop()).toBe(0);
  });

  it('a server from before scans over the channel: the agent finds it out on the first batch and sends over HTTP', { timeout: 60_000 }, async () => {
    const reader = await registerReader('Older server');
    proxy.actAsOlderServer = true;
    try {
      const { agent, scan } = await startAgent(reader, 'older');
      const uids = cardUids(3, 0xd8);
      for (const uid of uids) expect(await scan(uid)).toBe('ok');
      await expectExactlyOnce(reader.id, uids);
      await agent.waitForLog(/^the server does not take scans over the command channel/);
      // one scan frame refused as unknown; everything went over HTTP, none of it lost or retried
      expect(proxy.refusedAsOlderServer).toBe(1);
      expect(acknowledged(agent).map((line) => line.via)).toEqual(acknowledged(agent).map(() => 'http'));
      expect(agent.find('could not send scans; they stay queued and are retried')).toBeUndefined();
      expect(agent.find('command channel closed; reconnecting')).toBeUndefined();
      expect(await agent.stop()).toBe(0);
    } finally {
      proxy.actAsOlderServer = false;
    }
  });

  it('a revoked token closes the channel; the next scans stay queued and are refused over HTTP as before', { timeout: 60_000 }, async () => {
    const reader = await registerReader('Revoked');
    const { agent, scan, dataDir } = await startAgent(reader, 'revoked');
    const uids = cardUids(3, 0xe9);
    expect(await scan(uids[0])).toBe('ok');
    await agent.waitForLog('scans acknowledged', (line) => line.via === 'channel');
    expect((await admin.raw('DELETE', `/api/v2/readers/${reader.id}/token`)).status).toBe(200);
    await agent.waitForLog(/^the server closed the command channel: this reader token is no longer valid/);
    for (const uid of uids.slice(1)) expect(await scan(uid)).toBe('ok');
    const refused = await agent.waitForLog(/^the server refused this reader token \(revoked/);
    expect(refused.depth).toBeGreaterThanOrEqual(1);
    expect(await agent.stop()).toBe(0);
    expect(await recorded(reader.id)).toEqual([uids[0]]);
    const outbox = new Database(join(dataDir, 'outbox.db'), { readonly: true });
    try {
      expect(outbox.prepare('SELECT COUNT(*) AS n FROM outbox_scans').get()).toEqual({ n: 2 });
    } finally {
      outbox.close();
    }
  });
});
