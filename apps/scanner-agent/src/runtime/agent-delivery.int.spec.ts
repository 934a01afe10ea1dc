import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@rollcall/sqlite-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableOutbox } from '../outbox/durable-outbox';
import { FaultProxy } from '../test-support/fault-proxy.spec';
import { AgentProcess, agentEnv, ApiProcess, cardUids, freePort, requireBuilt, sleep, waitFor } from '../test-support/harness.spec';

/**
 * The door agent against the REAL API process (docs/door-agent.md): the built API on a free port
 * with its own SQLite data dir, readers registered through REST v2, the built agent run as a child
 * process with the simulator driver. What landed is read back from the API's event log
 * (GET /api/v2/audit/events/export): every unknown-card scan is one `UnknownCardScanned` event with
 * its sequence and UID, and every acknowledged sequence is in a `ScansAcknowledged` event, so a
 * scan lost or counted twice shows up there.
 */
describe('door agent -> real API', () => {
  let work: string;
  let api: ApiProcess;
  const agents: AgentProcess[] = [];
  const track = (agent: AgentProcess) => (agents.push(agent), agent);

  beforeAll(async () => {
    requireBuilt();
    work = mkdtempSync(join(tmpdir(), 'rollcall-agent-int-'));
    api = new ApiProcess(await freePort(), join(work, 'api'));
    await api.start();
  });

  afterAll(async () => {
    for (const agent of agents) if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    await api?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const expectExactly = async (readerId: string, uids: string[]) => {
    const recorded = await waitFor(
      `${uids.length} scans in the event log`,
      async () => {
        const found = await api.recordedScans(readerId);
        return found.scans.length >= uids.length ? found : undefined;
      },
      60_000,
      500,
    );
    const expected = uids.map((uid, index): [number, string] => [index + 1, uid]);
    // in per-reader sequence order, each sequence with its own card, none doubled, none missing
    expect(recorded.scans.length).toBe(uids.length);
    expect(recorded.scans).toEqual(expected);
    expect(recorded.acknowledged).toEqual(expected.map(([sequence]) => sequence));
    expect((await api.get<{ last_sequence: number }>(`readers/${readerId}`)).last_sequence).toBe(uids.length);
  };

  it('(a) API stopped, 10,000 scans fed, API started: exactly 10,000 land in sequence order, none doubled', { timeout: 240_000 }, async () => {
    const reader = await api.registerReader('Stopped API');
    const uids = cardUids(10_000, 0xa0);
    const input = join(work, 'a-scans.txt');
    writeFileSync(input, uids.map((uid) => `${uid}\n`).join(''));
    await api.stop();

    const agent = track(new AgentProcess(agentEnv(api, reader, join(work, 'a-agent'), { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
    await agent.waitForLog(/^simulator input ended/, () => true, 150_000);
    expect(agent.all('scan queued')).toHaveLength(10_000);
    // it tried while the API was down, and kept everything
    expect(agent.find('could not send scans; they stay queued and are retried')).toBeDefined();
    expect(agent.all('scans acknowledged')).toHaveLength(0);

    await api.start();
    await waitFor('the agent to send all 10,000', () => agent.all('scans acknowledged').reduce((sum, line) => sum + Number(line.accepted) + Number(line.already_accepted), 0) >= 10_000, 120_000);
    await expectExactly(reader.id, uids);
    // the health report that follows the drained backlog reaches the readers list
    await waitFor('the health report of an empty queue', async () => {
      const listed = await api.get<{ queue_depth: number | null; connection: string; backlog: boolean }>(`readers/${reader.id}`);
      return listed.queue_depth === 0 && listed.connection === 'online' && !listed.backlog;
    });
    // batches when there is a backlog: 10,000 scans in a few requests, never more than the server's limit
    const batches = agent.all('scans acknowledged').map((line) => Number(line.sent));
    expect(batches.length).toBeLessThanOrEqual(40);
    expect(Math.max(...batches)).toBeLessThanOrEqual(1000);
    expect(await agent.stop()).toBe(0);
    expect(agent.find('stopped; queued scans stay in the outbox for the next start')).toBeDefined();
  });

  it('(b) SIGKILLed at random moments 20 times during 2,000 scans, restarted: nothing lost, nothing doubled', { timeout: 240_000 }, async () => {
    const reader = await api.registerReader('Killed agent');
    const uids = cardUids(2_000, 0xb0);
    const env = agentEnv(api, reader, join(work, 'b-agent'));
    /** UIDs [0, next) are in the outbox (sequence = index + 1); the rest are fed again after a kill, as a person presents an unconfirmed card again */
    let next = 0;
    const kills: number[] = [];
    for (let round = 0; round <= 20; round += 1) {
      const agent = track(new AgentProcess(env, { stdin: true }));
      const opened = await agent.waitForLog('outbox open', () => true, 30_000);
      // a scan committed just before the kill, whose 'queued' line never came out, is in the outbox
      next = Number(opened.last_sequence);
      agent.child.stdin?.write(
        uids
          .slice(next)
          .map((uid) => `${uid}\n`)
          .join(''),
      );
      if (round === 20) {
        agent.child.stdin?.end();
        await agent.waitForLog(/^simulator input ended/, () => true, 120_000);
        // the earlier rounds may already have queued and delivered everything: then this start finds an empty queue
        const drainedBefore = next === uids.length && Number(opened.depth) === 0;
        await waitFor('the last scan to be acknowledged', () => drainedBefore || agent.find('scans acknowledged', (line) => Number(line.last) === uids.length), 60_000);
        expect(await agent.stop()).toBe(0);
        break;
      }
      const killAfter = 50 + Math.floor(Math.random() * 600);
      kills.push(killAfter);
      await sleep(killAfter);
      agent.child.kill('SIGKILL');
      await agent.exited;
      const queued = agent.all('scan queued');
      // every confirmed scan got the next sequence: the outbox numbers in the order it was fed
      queued.forEach((line, index) => expect([line.sequence, line.card_uid]).toEqual([next + index + 1, uids[next + index]]));
    }
    expect(kills).toHaveLength(20);
    await expectExactly(reader.id, uids);
  });

  it('(c) the answer is dropped after the server committed: the retry is deduplicated', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Fault proxy');
    const proxyPort = await freePort();
    const proxy = new FaultProxy(api.port);
    await proxy.listen(proxyPort);
    try {
      proxy.dropScanAnswers = 1;
      const uids = cardUids(5, 0xc0);
      const input = join(work, 'c-scans.txt');
      writeFileSync(input, uids.map((uid) => `${uid}\n`).join(''));
      const agent = track(new AgentProcess(agentEnv({ url: `http://127.0.0.1:${proxyPort}` }, reader, join(work, 'c-agent'), { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
      await waitFor('the outbox to drain', () => agent.find('scans acknowledged', (line) => Number(line.last) === 5), 30_000);
      // the first post was committed by the API but its answer never reached the agent
      expect(proxy.scanPosts[0]).toMatchObject({ dropped: true, status: 200 });
      expect(agent.find('could not send scans; they stay queued and are retried')).toBeDefined();
      // the agent sent the same scans again, and the server recognised every one of them
      const resent = new Set(proxy.scanPosts.slice(1).flatMap((post) => post.sequences));
      for (const sequence of proxy.scanPosts[0].sequences) expect(resent.has(sequence)).toBe(true);
      const acked = agent.all('scans acknowledged');
      expect(acked.reduce((sum, line) => sum + Number(line.already_accepted), 0)).toBe(proxy.scanPosts[0].sequences.length);
      expect(acked.reduce((sum, line) => sum + Number(line.accepted), 0)).toBe(5 - proxy.scanPosts[0].sequences.length);
      await expectExactly(reader.id, uids);
      expect(await agent.stop()).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it("a wiped data directory: the new queue numbers from 1 again and every one of its scans lands (none taken for the old queue's retries)", { timeout: 90_000 }, async () => {
    const reader = await api.registerReader('Wiped box');
    const before = cardUids(5, 0xe0);
    const after = cardUids(5, 0xe8);
    const run = async (uids: string[], name: string, dataDir: string) => {
      const input = join(work, `${name}.txt`);
      writeFileSync(input, uids.map((uid) => `${uid}\n`).join(''));
      const agent = track(new AgentProcess(agentEnv(api, reader, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
      await waitFor(`${name} to drain`, () => agent.find('scans acknowledged', (line) => Number(line.last) === uids.length), 30_000);
      expect(await agent.stop()).toBe(0);
      return agent;
    };
    await run(before, 'wiped-before', join(work, 'wiped-agent'));
    rmSync(join(work, 'wiped-agent'), { recursive: true, force: true });
    const second = await run(after, 'wiped-after', join(work, 'wiped-agent'));
    // numbered 1-5 again, and all five counted as new
    expect(second.all('scans acknowledged').reduce((sum, line) => sum + Number(line.accepted), 0)).toBe(5);
    const recorded = await waitFor('ten scans in the event log', async () => {
      const found = await api.recordedScans(reader.id);
      return found.scans.length >= 10 ? found : undefined;
    }, 30_000, 500);
    expect(recorded.scans).toEqual([...before, ...after].map((uid, index): [number, string] => [(index % 5) + 1, uid]));
  });

  it('(d) register mode: armed through the API, a simulated scan at the enrollment reader registers the card', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Enrollment desk', 'enrollment');
    const suffix = Date.now().toString(36);
    const account = await api.post<{ id: string }>('account', {
      first_name: 'Grace',
      last_name: `Hopper ${suffix}`,
      email: `grace.${suffix}@example.com`,
      username: `grace${suffix}`,
      password: 'compilers and nanoseconds 1952',
    });
    const socketPath = join(work, 'd-simulator.sock');
    const agent = track(new AgentProcess(agentEnv(api, reader, join(work, 'd-agent'), { ROLLCALL_AGENT_SIMULATOR_INPUT: `unix:${socketPath}` })));
    await agent.waitForLog('command channel connected');
    // the server configures the agent on connect, and the agent acknowledges
    expect((await agent.waitForLog('configuration from the server applied')).configuration).toMatchObject({ heartbeat_seconds: 30, batch_max: 500 });

    // the console's 'Add Smartcard' calls this
    const armed = await api.post<{ expires_at: string }>(`scanner/mode/register/${account.id}`);
    await agent.waitForLog(/^register mode on/, (line) => line.expires_at === armed.expires_at);

    const uid = '04C0FFEE123456';
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath, () => socket.write(`${uid}\n`));
      socket.once('data', (data) => (resolve(data.toString().trim()), socket.end()));
      socket.once('error', reject);
    });
    expect(answer).toBe('ok');
    await agent.waitForLog('scans acknowledged', (line) => Number(line.accepted) === 1);
    await agent.waitForLog('register mode off', (line) => line.reason === 'card_registered');
    const cards = await waitFor('the card on the account', async () => {
      const page = await api.get<{ data: Array<{ card_uid: string }> }>(`account/${account.id}/smartcards`);
      return page.data.length > 0 ? page.data : undefined;
    });
    expect(cards.map((card) => card.card_uid)).toEqual([uid]);
    expect(await agent.stop()).toBe(0);
  });

  it('a wrong token: one clear log line, and the scans stay queued', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Wrong token');
    const input = join(work, 'w-scans.txt');
    writeFileSync(input, cardUids(3, 0xd0).map((uid) => `${uid}\n`).join(''));
    const dataDir = join(work, 'w-agent');
    const agent = track(new AgentProcess(agentEnv(api, { id: reader.id, token: 'rcr_not_the_token_of_this_reader' }, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
    const refused = await agent.waitForLog(/^the server refused this reader token \(revoked/);
    // the command channel says so too, and neither repeats it on every retry
    await agent.waitForLog(/^the server refused this reader token on the command channel/);
    expect(refused.level).toBe('error');
    expect(refused.msg).toMatch(/check ROLLCALL_AGENT_TOKEN/);
    expect(refused.depth).toBe(3);
    await sleep(1500);
    expect(agent.all(/^the server refused this reader token \(revoked/)).toHaveLength(1);
    expect(JSON.stringify(agent.lines)).not.toContain('rcr_not_the_token_of_this_reader');
    expect(await agent.stop()).toBe(0);
    const outbox = new Database(join(dataDir, 'outbox.db'), { readonly: true });
    try {
      expect(outbox.prepare('SELECT COUNT(*) AS n FROM outbox_scans').get()).toEqual({ n: 3 });
    } finally {
      outbox.close();
    }
  });

  it('sequences another queue used before (a wiped or restored box): refused as reused, the agent starts a new outbox and every scan lands once, none set aside', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Refusals');
    // another queue (no outbox id) already had sequences 1 and 4 acknowledged, with another card.
    // Before, the agent's scan 1 was answered already_accepted and lost, 2 and 3 refused as going
    // backwards; now a seen sequence is a retry only when it is the same scan (docs/adr/0013).
    for (const sequence of [1, 4]) {
      const answer = await fetch(`${api.url}/api/v2/reader/scans`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sent_at: new Date().toISOString(), scans: [{ card_uid: 'DEADBEEF', sequence, device_time: new Date().toISOString() }] }),
      });
      expect(answer.status).toBe(200);
    }
    const uids = cardUids(5, 0xe0);
    const input = join(work, 'r-scans.txt');
    writeFileSync(input, uids.map((uid) => `${uid}\n`).join(''));
    const dataDir = join(work, 'r-agent');
    const agent = track(new AgentProcess(agentEnv(api, reader, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
    await agent.waitForLog(/^the server already has another scan under this sequence/);
    await waitFor('all 5 scans recorded', async () => (await api.recordedScans(reader.id)).scans.filter(([, uid]) => uid !== 'DEADBEEF').length >= 5, 30_000);
    const landed = (await api.recordedScans(reader.id)).scans.filter(([, uid]) => uid !== 'DEADBEEF').map(([, uid]) => uid);
    expect([...landed].sort()).toEqual([...uids].sort());
    expect(agent.all(/moved to the dead-letter table/)).toEqual([]);
    expect(await agent.stop()).toBe(0);
    const outbox = new Database(join(dataDir, 'outbox.db'), { readonly: true });
    try {
      expect(outbox.prepare('SELECT COUNT(*) AS n FROM outbox_scans').get()).toEqual({ n: 0 });
      expect(outbox.prepare('SELECT COUNT(*) AS n FROM dead_letters').get()).toEqual({ n: 0 });
    } finally {
      outbox.close();
    }
  });

  it('a wrong reader id: the outbox of another reader is kept and nothing is sent', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Wrong reader id');
    const dataDir = join(work, 'x-agent');
    mkdirSync(dataDir, { recursive: true });
    const seeded = DurableOutbox.open(join(dataDir, 'outbox.db'));
    seeded.bindReader('another-reader');
    seeded.enqueue({ cardUid: 'DEADBEEF', deviceTime: new Date() });
    seeded.close();
    const agent = track(new AgentProcess(agentEnv(api, reader, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: '/dev/null' })));
    const refused = await agent.waitForLog(/^the outbox belongs to another reader/);
    expect(refused).toMatchObject({ level: 'error', outbox_reader_id: 'another-reader', configured_reader_id: reader.id, depth: 1 });
    await sleep(1000);
    expect(await agent.stop()).toBe(0);
    expect((await api.get<{ last_sequence: number }>(`readers/${reader.id}`)).last_sequence).toBe(0);
  });

  it('a corrupt queue file: detected at start, moved aside and reported, and the agent goes on', { timeout: 60_000 }, async () => {
    const reader = await api.registerReader('Corrupt queue');
    const dataDir = join(work, 'k-agent');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'outbox.db'), 'garbage where the queue was');
    const input = join(work, 'k-scans.txt');
    writeFileSync(input, cardUids(2, 0xf0).map((uid) => `${uid}\n`).join(''));
    const agent = track(new AgentProcess(agentEnv(api, reader, dataDir, { ROLLCALL_AGENT_SIMULATOR_INPUT: input })));
    const reported = await agent.waitForLog(/failed its integrity check/);
    expect(reported.level).toBe('error');
    expect(reported.msg).toMatch(/reset the reader/);
    expect(readFileSync(String(reported.moved_to), 'utf8')).toBe('garbage where the queue was');
    await agent.waitForLog('scans acknowledged', (line) => Number(line.last) === 2);
    expect(await agent.stop()).toBe(0);
    expect(existsSync(join(dataDir, 'outbox.db'))).toBe(true);
  });
});
