import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentProcess, agentEnv, ApiProcess, cardUids, freePort, requireBuilt, findLibfaketime, waitFor } from '../test-support/harness.spec';

/**
 * Readers, the device clock (docs/security.md, "8. Readers"): the REAL, built agent runs
 * under libfaketime (LD_PRELOAD, Debian's faketime package) with its clock 3 hours ahead and then
 * 3 hours behind, against the real API, whose clock is not faked. A card assigned to an account is
 * scanned once per run. What the API stored is read back through it (the reader's events in the
 * audit export, the arrivals/departures log, the readers list): the device's own times are kept as
 * the device sent them, the measured skew is kept and flagged `clock_skew`, and the arrival counts at
 * the server's time (device time corrected by the skew), not at the device's.
 *
 * No assertion reads this machine's clock: every time is compared with another stored time
 * (device time against the server's receipt time of the same request).
 */
const HOUR = 3_600_000;
/** network and queueing between the agent's send and the server's receipt stay far below this */
const SLACK_MS = 60_000;

const LIBFAKETIME = findLibfaketime();
if (!LIBFAKETIME) console.log('skipped: agent clock-skew test: libfaketime.so.1 not found (apt-get install faketime)');

/** the clock a process sees under libfaketime with this shift: checked, so the test cannot pass with the preload ignored */
function fakedNowMs(shift: string): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Date.now()))'], { env: { PATH: process.env.PATH ?? '', LD_PRELOAD: LIBFAKETIME!, FAKETIME: shift }, encoding: 'utf8' }));
}

interface StoredScan {
  deviceTime: string;
  sentAt: string;
  receivedAt: string;
  skewMs: number;
  at: string;
  flags: string[];
  cardUid: string;
}

describe.skipIf(!LIBFAKETIME)('door agent with its clock hours off (libfaketime)', () => {
  let work: string;
  let api: ApiProcess;
  const agents: AgentProcess[] = [];

  beforeAll(async () => {
    requireBuilt();
    work = mkdtempSync(join(tmpdir(), 'rollcall-agent-skew-'));
    api = new ApiProcess(await freePort(), join(work, 'api'));
    await api.start();
  });

  afterAll(async () => {
    for (const agent of agents) if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
    await api?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ['+3h', 3],
    ['-3h', -3],
  ])('clock %s: stores device time and skew, flags it, counts the arrival at the server time', { timeout: 90_000 }, async (shift, hours) => {
    // the preload really moves a node process's clock by the shift (against a plain node's, both read now)
    const plain = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Date.now()))'], { encoding: 'utf8' }));
    expect(Math.abs(fakedNowMs(shift) - plain - hours * HOUR)).toBeLessThan(SLACK_MS);

    const suffix = `${hours > 0 ? 'ahead' : 'behind'}${Date.now().toString(36)}`;
    const reader = await api.registerReader(`Skewed ${shift}`);
    const account = await api.post<{ id: string }>('account', {
      first_name: 'Ada',
      last_name: `Skew ${suffix}`,
      email: `ada.${suffix}@example.com`,
      username: `ada.${suffix}`,
      password: 'analytical engine 1843',
    });
    const [uid] = cardUids(1, hours > 0 ? 0x31 : 0x32);
    await api.post('scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });

    const input = join(work, `scans${hours}.txt`);
    writeFileSync(input, `${uid}\n`);
    const agent = new AgentProcess(agentEnv(api, reader, join(work, `agent${hours}`), { ROLLCALL_AGENT_SIMULATOR_INPUT: input, LD_PRELOAD: LIBFAKETIME!, FAKETIME: shift }));
    agents.push(agent);
    const queued = await agent.waitForLog('scan queued');
    const acknowledged = await agent.waitForLog('scans acknowledged');
    expect(acknowledged).toMatchObject({ accepted: 1, refused: 0 });
    // the server told the agent how far off its clock is (receipt minus send: negative when ahead)
    expect(Math.abs(Number(acknowledged.skew_ms) + hours * HOUR)).toBeLessThan(SLACK_MS);

    // the event as stored: the device's times as it sent them, the server's receipt, the skew, the flag
    const events = await waitFor('the arrival in the event log', async () => {
      const found = await api.readerEvents(reader.id, ['ArrivalRecorded']);
      return found.length > 0 ? found : undefined;
    });
    expect(events).toHaveLength(1);
    const scan = events[0].data.scan as StoredScan;
    expect(events[0].data.accountId).toBe(account.id);
    expect(scan.cardUid).toBe(uid);
    expect(scan.deviceTime).toBe(queued.device_time);
    expect(Date.parse(scan.receivedAt) - Date.parse(scan.sentAt)).toBe(scan.skewMs);
    expect(Math.abs(scan.skewMs + hours * HOUR)).toBeLessThan(SLACK_MS);
    expect(Math.abs(Date.parse(scan.deviceTime) - Date.parse(scan.receivedAt) - hours * HOUR)).toBeLessThan(SLACK_MS);
    expect(scan.flags).toContain('clock_skew');
    // counted at the device time corrected by the skew: the server's time, hours away from the device's
    expect(scan.at).toBe(new Date(Date.parse(scan.deviceTime) + scan.skewMs).toISOString());
    expect(Math.abs(Date.parse(scan.at) - Date.parse(scan.receivedAt))).toBeLessThan(SLACK_MS);

    // the arrivals/departures log counts it there, flagged, on the server's day (the account's zone is UTC)
    const log = await api.get<{ data: Array<{ account_id: string; arrived_at: string; day: string; flags: string[]; arrival: { reader_id?: string } }> }>(`logs/arrivals-departures?account_id=${account.id}`);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ account_id: account.id, arrived_at: scan.at, day: scan.at.slice(0, 10) });
    expect(log.data[0].flags).toContain('clock_skew');
    expect(Math.abs(Date.parse(log.data[0].arrived_at) - Date.parse(scan.deviceTime))).toBeGreaterThan(Math.abs(hours) * HOUR - SLACK_MS);

    // the agent's health report shows the same offset on the readers list
    const listed = await waitFor('the health report', async () => {
      const found = await api.get<{ clock_skew_ms: number | null; last_sequence: number }>(`readers/${reader.id}`);
      return found.clock_skew_ms !== null ? found : undefined;
    });
    expect(Math.abs(Number(listed.clock_skew_ms) + hours * HOUR)).toBeLessThan(SLACK_MS);
    expect(listed.last_sequence).toBe(1);
    expect(await agent.stop()).toBe(0);
  });
});
