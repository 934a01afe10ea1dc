import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChannelScanResult, type ScanChannel } from '../channel/command-channel';
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

  /** a scripted channel: what the sender sent on it, and its answers */
  const channelOf = (answerTo: (sequences: number[], call: number) => ChannelScanResult, options: { maxBytes?: number } = {}) => {
    const frames: Array<{ sequences: number[]; bytes: number }> = [];
    const channel: ScanChannel & { open: boolean } = {
      open: true,
      get takesScans() {
        return this.open;
      },
      scanFrameMaxBytes: options.maxBytes ?? 512 * 1024,
      sendScans: async (batch) => {
        const sequences = batch.scans.map((scan) => scan.sequence);
        frames.push({ sequences, bytes: Buffer.byteLength(JSON.stringify(batch)) });
        return answerTo(sequences, frames.length);
      },
    };
    return { channel, frames };
  };
  const httpServer = () => {
    const posts: number[][] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const sequences = (JSON.parse(String(init.body)) as { scans: Array<{ sequence: number }> }).scans.map((scan) => scan.sequence);
      posts.push(sequences);
      return answer(200, acks(sequences));
    }) as typeof globalThis.fetch;
    return { posts, fetch };
  };
  const answered = (sequences: number[]): ChannelScanResult => ({ kind: 'answered', answer: acks(sequences) as Extract<ChannelScanResult, { kind: 'answered' }>['answer'] });

  it('prefers the channel while it takes scans, and keeps a frame within the size the server takes', async () => {
    for (let index = 0; index < 300; index += 1) outbox.enqueue({ cardUid: `0A0B${(0x1000 + index).toString(16).toUpperCase()}`, deviceTime: new Date('2026-11-25T08:00:00Z') });
    const { channel, frames } = channelOf(answered, { maxBytes: 16 * 1024 });
    const { posts, fetch } = httpServer();
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 500, retryBaseMs: 10, retryMaxMs: 50, requestTimeoutMs: 1000, fetch, channel });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    expect(posts).toEqual([]);
    expect(frames.flatMap((frame) => frame.sequences)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
    // 300 scans do not fit in 16 KiB: halved until they do, the rest in the next frames
    expect(frames.length).toBeGreaterThan(1);
    for (const frame of frames) expect(frame.bytes).toBeLessThanOrEqual(16 * 1024 - 100);
    expect(logs.filter((line) => line.msg === 'scans acknowledged').map((line) => line.via)).toEqual(frames.map(() => 'channel'));
  });

  it('sends over HTTP at once what an older server did not take on the channel, and what a lost channel left unanswered', async () => {
    queue(3);
    const { channel, frames } = channelOf((sequences, call) => (call === 1 ? { kind: 'unsupported' } : call === 2 ? { kind: 'lost', reason: 'the command channel closed (1006) before the answer' } : answered(sequences)));
    const { posts, fetch } = httpServer();
    // a retry delay the test would notice: neither of these waits for it
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 1, retryBaseMs: 60_000, retryMaxMs: 60_000, requestTimeoutMs: 1000, fetch, channel, random: () => 1 });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    // 1: refused as unknown, sent over HTTP; 2: lost with the socket, sent again over HTTP; 3: the channel again
    expect(frames.map((frame) => frame.sequences)).toEqual([[1], [2], [3]]);
    expect(posts).toEqual([[1], [2]]);
    expect(logs.filter((line) => line.msg === 'scans acknowledged').map((line) => [line.first, line.via])).toEqual([
      [1, 'http'],
      [2, 'http'],
      [3, 'channel'],
    ]);
    expect(logs.find((line) => line.msg === 'could not send scans; they stay queued and are retried')).toMatchObject({ reason: 'the command channel closed (1006) before the answer', retry_in_ms: 0 });
  });

  it('treats a refusal on the channel as the same refusal over HTTP: a whole batch refused is halved and its bad scan set aside', async () => {
    queue(4);
    const { channel, frames } = channelOf((sequences) => (sequences.includes(2) ? { kind: 'refused', status: 400, code: 'request.invalid', message: 'Invalid input' } : answered(sequences)));
    const { posts, fetch } = httpServer();
    const sender = new ScanSender({ outbox, serverUrl: 'http://127.0.0.1:1/', token: 'rcr_t', logger, batchMax: 4, retryBaseMs: 10, retryMaxMs: 50, requestTimeoutMs: 1000, fetch, channel });
    sender.start();
    await until(() => outbox.depth() === 0);
    await sender.stop();
    expect(posts).toEqual([]);
    expect(frames[0].sequences).toEqual([1, 2, 3, 4]);
    expect(outbox.deadLetters().map((letter) => [letter.sequence, letter.code])).toEqual([[2, 'request.invalid']]);
  });
});
