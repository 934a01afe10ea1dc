import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger';
import { DurableOutbox } from '../outbox/durable-outbox';
import { ScanSender } from './scan-sender';

/**
 * The sender's answers to what the real API rarely says (the real-API cases are in
 * runtime/agent-delivery.int.spec.ts): a real outbox file, a scripted server.
 */
describe('ScanSender against a scripted server (real outbox file)', () => {
  let dir: string;
  let outbox: DurableOutbox;
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rollcall-sender-'));
    outbox = DurableOutbox.open(join(dir, 'outbox.db'));
    logs.length = 0;
  });
  afterEach(() => {
    outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const queue = (count: number) => Array.from({ length: count }, (_, index) => outbox.enqueue({ cardUid: `0A0B0C${(0x10 + index).toString(16).toUpperCase()}`, deviceTime: new Date('2026-11-25T08:00:00Z') }));
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const acks = (sequences: number[]) => ({ received_at: new Date().toISOString(), skew_ms: 12, clock_skewed: false, acks: sequences.map((sequence) => ({ sequence, status: 'accepted', outcome: 'unknown_card', flags: [] })) });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };

  it('halves a batch the server refuses as a whole until it finds the scan, sets that one aside, and sends the rest', async () => {
    queue(8);
    const requests: number[][] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { outbox_id: string; scans: Array<{ sequence: number }> };
      // every request names the outbox its sequences belong to
      expect(body.outbox_id).toBe(outbox.outboxId);
      const sequences = body.scans.map((scan) => scan.sequence);
      requests.push(sequences);
      // the server objects to anything containing sequence 3
      if (sequences.includes(3)) return answer(400, { error: { code: 'request.invalid', message: 'Invalid input', fields: { 'scans.0.device_time': ['bad'] } } });
      return answer(200, acks(sequences));
    }) as typeof globalThis.fetch;
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 8, retryBaseMs: 10, retryMaxMs: 50, requestTimeoutMs: 1000, fetch });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    expect(outbox.deadLetters().map((letter) => [letter.sequence, letter.code])).toEqual([[3, 'request.invalid']]);
    expect(requests[0]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(requests.flat().filter((sequence) => sequence !== 3).length).toBeGreaterThanOrEqual(7);
    expect(sender.clockSkewMs).toBe(12);
  });

  it('keeps scans the answer leaves out, ignores acknowledgements of scans it did not send, and retries on 5xx', async () => {
    queue(3);
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      if (calls === 1) return answer(503, { error: { code: 'server.unavailable', message: 'restarting' } });
      if (calls === 2) return answer(200, acks([1, 99]));
      return answer(200, acks([2, 3]));
    }) as typeof globalThis.fetch;
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 10, retryBaseMs: 10, retryMaxMs: 50, requestTimeoutMs: 1000, fetch });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    expect(calls).toBe(3);
    expect(logs.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'could not send scans; they stay queued and are retried',
        'server acknowledged a sequence this request did not carry; ignored',
        'server answered without acknowledging some scans; they stay queued',
      ]),
    );
    expect(JSON.stringify(logs)).not.toContain('rcr_t');
  });

  it('abandons a request that does not answer in time and sends it again', async () => {
    queue(1);
    let calls = 0;
    const fetch = (async (_url: string, init: RequestInit) => {
      calls += 1;
      if (calls === 1) return new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      return answer(200, acks([1]));
    }) as typeof globalThis.fetch;
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 10, retryBaseMs: 10, retryMaxMs: 50, requestTimeoutMs: 100, fetch });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    expect(calls).toBe(2);
    expect(logs.find((line) => line.msg === 'could not send scans; they stay queued and are retried')?.reason).toMatch(/no answer within 100 ms/);
  });
});
