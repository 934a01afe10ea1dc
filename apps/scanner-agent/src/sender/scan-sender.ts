import { READER_SCAN_BATCH_MAX, ZScanBatchAck, type TReaderScanBatch, type TScanBatchAck } from '@rollcall/contracts';
import { type ChannelScanResult, type ScanChannel } from '../channel/command-channel';
import { type AgentLogger } from '../logging/logger';
import { type DurableOutbox, type QueuedScan } from '../outbox/durable-outbox';
import { backoffDelay, sleep } from './backoff';

export interface ScanSenderOptions {
  outbox: DurableOutbox;
  /** base URL of the API, e.g. https://rollcall.example.com/ */
  serverUrl: string;
  token: string;
  logger: AgentLogger;
  batchMax: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  fetch?: typeof fetch;
  /** the device clock, sent as `sent_at` */
  now?: () => Date;
  random?: () => number;
  /** after each answer, with the queue depth left (the agent reports health when it reaches 0) */
  onAcknowledged?: (depth: number) => void;
  /** does the server answer anything else (a health report)? Asked before a scan answered 500 is set aside */
  probe?: () => Promise<boolean>;
  /** the reader's WebSocket: preferred to HTTP while it takes scans */
  channel?: ScanChannel | null;
}

export type SenderState = 'idle' | 'sending' | 'retrying' | 'token_refused';

/** which way a request went: the reader's WebSocket or `POST reader/scans` */
export type ScanPath = 'channel' | 'http';

type Attempt =
  | { kind: 'answered'; answer: TScanBatchAck; via: ScanPath }
  /** `resendOverHttp`: the channel was lost before its answer; the batch goes again over HTTP at once */
  | { kind: 'retry'; reason: string; resendOverHttp?: boolean }
  | { kind: 'token_refused'; reason: string }
  | { kind: 'batch_refused'; code: string; message: string }
  | { kind: 'server_error'; reason: string; code: string; message: string };

/**
 * A request answered 500 (a server bug, not an outage: an outage answers 503 or no answer) is split
 * in halves, with the usual backoff, to find the scan it fails on. A single scan answered 500 this
 * many times in a row, while the server answers the agent's health probe, is moved to the dead
 * letters with the server's answer, so it cannot hold the door's queue for ever; without a probe
 * answer it stays queued (the server is failing on everything). 503, timeouts and refused
 * connections never count.
 */
export const SERVER_ERRORS_BEFORE_DEAD_LETTER = 5;

/** what one request did, for logs and tests */
export interface SendReport {
  sent: number;
  accepted: number;
  alreadyAccepted: number;
  refused: number;
}

/**
 * Sends the outbox to the server (docs/readers.md, 'Posting scans'): one request at a time, oldest
 * scans first, up to `batchMax` per request, each with its sequence as the idempotency key. A request
 * goes over the reader's WebSocket while it takes scans (no HTTP request to parse and route per
 * batch), over `POST reader/scans` otherwise; the answer is the same either way and so is what
 * follows from it. A channel lost before its answer sends the batch again over HTTP at once. A scan
 * leaves the outbox only when the server's answer acknowledges it ('accepted' or 'already_accepted');
 * a scan it refuses for good goes to the dead-letter table, so one bad scan never blocks the door.
 * Anything else (no answer, a timeout, a 5xx, a refused token) keeps every scan queued and retries
 * with exponential backoff and full jitter. Resending after a crash or a lost answer is always safe:
 * the server answers 'already_accepted' and counts nothing twice.
 */
export class ScanSender {
  private readonly outbox: DurableOutbox;
  private readonly logger: AgentLogger;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly scansUrl: string;
  private batchMax: number;
  private retryMaxMs: number;
  /** lowered while the server refuses a whole batch, to find the scan it objects to */
  private splitLimit: number | null = null;
  private failures = 0;
  /** consecutive 500 answers to the single scan at the head of the queue */
  private serverErrors = 0;
  private poisonCandidate: { sequence: number; code: string; message: string } | null = null;
  private tokenRefused = false;
  private wake: AbortController = new AbortController();
  private readonly stopped = new AbortController();
  private loop: Promise<void> | null = null;
  private request: AbortController | null = null;
  /** the channel was lost before an answer: the next request goes over HTTP */
  private resendOverHttp = false;

  state: SenderState = 'idle';
  /** server clock minus device clock, as last measured by the server (ms) */
  clockSkewMs: number | null = null;
  lastError: string | null = null;
  readonly totals: SendReport = { sent: 0, accepted: 0, alreadyAccepted: 0, refused: 0 };

  constructor(private readonly options: ScanSenderOptions) {
    this.outbox = options.outbox;
    this.logger = options.logger;
    this.fetchFn = options.fetch ?? fetch;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.scansUrl = new URL('api/v2/reader/scans', options.serverUrl).href;
    this.batchMax = options.batchMax;
    this.retryMaxMs = options.retryMaxMs;
  }

  /** The server's `configure` command: batch size and backoff cap. */
  configure(settings: { batchMax?: number; retryMaxMs?: number }): void {
    if (settings.batchMax !== undefined) this.batchMax = Math.max(1, Math.min(READER_SCAN_BATCH_MAX, settings.batchMax));
    if (settings.retryMaxMs !== undefined) this.retryMaxMs = Math.max(1000, settings.retryMaxMs);
  }

  /** A scan was queued: send now rather than at the next timer. */
  notify(): void {
    this.wake.abort();
  }

  start(): void {
    this.loop ??= this.run();
  }

  /**
   * Stops after the request in flight, if it answers within `graceMs` (its acknowledgements are then
   * applied); otherwise it is abandoned, and its scans, still queued, go again on the next start.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped.abort();
    this.wake.abort();
    const abandon = setTimeout(() => this.request?.abort(), graceMs);
    try {
      await this.loop;
    } finally {
      clearTimeout(abandon);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped.signal.aborted) {
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const batch = this.outbox.peekBatch(this.splitLimit ?? this.batchMax);
      if (batch.length === 0) {
        this.state = 'idle';
        // woken by notify(); the timer is only a safety net (another process may have queued scans)
        await sleep(1000, AbortSignal.any([this.wake.signal, this.stopped.signal]));
        continue;
      }
      if (batch.length === 1 && this.serverErrors >= SERVER_ERRORS_BEFORE_DEAD_LETTER && this.poisonCandidate?.sequence === batch[0].sequence) {
        await this.setAsidePoison(batch[0]);
        continue;
      }
      this.state = 'sending';
      const { attempt, sent } = await this.send(batch);
      let delay: number;
      try {
        delay = this.handle(sent, attempt);
      } catch (error) {
        // the outbox could not record the answer (a full disk): the scans stay queued and go again,
        // which the server answers 'already_accepted'; the sender never stops over it
        this.failures += 1;
        this.lastError = `outbox: ${error instanceof Error ? error.message : String(error)}`;
        delay = Math.max(this.options.retryBaseMs, backoffDelay(this.failures, this.options.retryBaseMs, this.retryMaxMs, this.random));
        this.logger.error({ error: this.lastError, retry_in_ms: delay }, "could not record the server's answer in the outbox; the scans stay queued and are sent again");
        this.state = 'retrying';
      }
      if (delay > 0) await sleep(delay, this.stopped.signal);
    }
    this.state = 'idle';
  }

  /** Applies one attempt's result; answers how long to wait before the next. */
  private handle(batch: QueuedScan[], attempt: Attempt): number {
    switch (attempt.kind) {
      case 'answered': {
        const report = this.apply(batch, attempt.answer, attempt.via);
        if (this.failures > 0) this.logger.info({ depth: this.outbox.depth(), after_failures: this.failures }, 'server reachable again; sending the queue');
        this.failures = 0;
        this.tokenRefused = false;
        this.lastError = null;
        this.serverErrors = 0;
        if (this.splitLimit !== null && report.refused + report.accepted + report.alreadyAccepted === batch.length) this.splitLimit = null;
        return 0;
      }
      case 'server_error': {
        if (batch.length > 1) {
          this.serverErrors = 0;
          this.splitLimit = Math.max(1, Math.floor(batch.length / 2));
          this.logger.warn({ error: attempt.reason, batch: batch.length, next_batch: this.splitLimit }, 'the server failed on this batch (500); sending smaller batches to find the scan it fails on');
        } else {
          this.serverErrors += 1;
          this.poisonCandidate = { sequence: batch[0].sequence, code: attempt.code, message: attempt.message };
        }
        return this.handle(batch, { kind: 'retry', reason: attempt.reason });
      }
      case 'batch_refused': {
        // A request refused as a whole (400) names no scan: halve the batch until it is one scan, then
        // set that one aside, so a single malformed scan cannot hold the queue.
        if (batch.length > 1) {
          this.splitLimit = Math.max(1, Math.floor(batch.length / 2));
          this.logger.warn({ code: attempt.code, error: attempt.message, batch: batch.length, next_batch: this.splitLimit }, 'server refused a whole batch; sending smaller batches to find the scan it objects to');
          return 0;
        }
        const [scan] = batch;
        this.outbox.deadLetter(scan.sequence, { code: attempt.code, message: attempt.message });
        this.totals.refused += 1;
        this.logger.error({ sequence: scan.sequence, card_uid: scan.cardUid, code: attempt.code, error: attempt.message }, 'server refused a scan for good; moved to the dead-letter table (rollcall-agent dead-letters lists them)');
        return 0;
      }
      case 'token_refused': {
        // once per episode: a refused token does not heal by itself, so repeating it only buries it
        if (!this.tokenRefused) {
          this.logger.error(
            { reason: attempt.reason, depth: this.outbox.depth(), url: this.scansUrl },
            'the server refused this reader token (revoked, replaced, or for a deleted reader): check ROLLCALL_AGENT_TOKEN and the reader in the console; every scan stays queued and is sent once a valid token is configured',
          );
        }
        this.tokenRefused = true;
        this.state = 'token_refused';
        this.lastError = attempt.reason;
        this.failures += 1;
        return this.retryMaxMs;
      }
      case 'retry': {
        this.failures += 1;
        this.lastError = attempt.reason;
        // the server may be fine and only the socket gone: the HTTP resend goes without waiting
        if (attempt.resendOverHttp) this.resendOverHttp = true;
        const delay = attempt.resendOverHttp ? 0 : backoffDelay(this.failures, this.options.retryBaseMs, this.retryMaxMs, this.random);
        // first failure and then every tenth: a server down for an hour should not flood the journal
        if (this.failures === 1 || this.failures % 10 === 0) this.logger.warn({ reason: attempt.reason, failures: this.failures, retry_in_ms: delay, depth: this.outbox.depth() }, 'could not send scans; they stay queued and are retried');
        this.state = 'retrying';
        return delay;
      }
    }
  }

  /** a scan the server failed on (500) every time: set aside if the server otherwise works */
  private async setAsidePoison(scan: QueuedScan): Promise<void> {
    const candidate = this.poisonCandidate as { code: string; message: string };
    this.serverErrors = 0;
    const serverWorks = (await this.options.probe?.().catch(() => false)) ?? false;
    if (!serverWorks) {
      this.logger.warn({ sequence: scan.sequence, error: candidate.message }, 'the server keeps failing (500) and does not answer a health report either: the scan stays queued');
      return;
    }
    this.poisonCandidate = null;
    this.outbox.deadLetter(scan.sequence, { code: candidate.code, message: `the server answered 500 to this scan ${SERVER_ERRORS_BEFORE_DEAD_LETTER} times in a row while answering other requests: ${candidate.message}` });
    this.totals.refused += 1;
    this.logger.error({ sequence: scan.sequence, card_uid: scan.cardUid, code: candidate.code, error: candidate.message }, 'the server fails on this one scan every time (500); moved to the dead-letter table so the scans behind it go on');
  }

  private apply(batch: QueuedScan[], answer: TScanBatchAck, via: ScanPath): SendReport {
    this.clockSkewMs = answer.skew_ms;
    const sent = new Map(batch.map((scan) => [scan.sequence, scan]));
    const done: number[] = [];
    let rolledBack: number | null = null;
    const report: SendReport = { sent: batch.length, accepted: 0, alreadyAccepted: 0, refused: 0 };
    for (const ack of answer.acks) {
      const scan = sent.get(ack.sequence);
      // An acknowledgement for a scan not in this request must not delete anything.
      if (!scan) {
        this.logger.warn({ sequence: ack.sequence }, 'server acknowledged a sequence this request did not carry; ignored');
        continue;
      }
      sent.delete(ack.sequence);
      if (ack.status === 'refused' && ack.error.code === 'scan.sequence_reused') {
        // not this scan's fault: the outbox handed the number out twice (it was rolled back)
        rolledBack ??= ack.sequence;
        continue;
      }
      if (ack.status === 'refused') {
        this.outbox.deadLetter(ack.sequence, ack.error);
        report.refused += 1;
        this.logger.error({ sequence: ack.sequence, card_uid: scan.cardUid, code: ack.error.code, error: ack.error.message }, 'server refused a scan for good; moved to the dead-letter table (rollcall-agent dead-letters lists them)');
        continue;
      }
      done.push(ack.sequence);
      if (ack.status === 'accepted') report.accepted += 1;
      else report.alreadyAccepted += 1;
    }
    if (done.length > 0) this.outbox.acknowledge(done);
    if (rolledBack !== null) {
      const started = this.outbox.startNewOutbox();
      this.logger.error(
        { sequence: rolledBack, previous_outbox_id: started.previousOutboxId, outbox_id: started.outboxId, renumbered: started.renumbered },
        'the server already has another scan under this sequence: the outbox file was rolled back (restored from an older copy?). Started a new outbox id and renumbered the queued scans; none is dropped',
      );
      sent.clear();
    }
    if (sent.size > 0) this.logger.warn({ sequences: [...sent.keys()].slice(0, 20) }, 'server answered without acknowledging some scans; they stay queued');
    this.totals.sent += report.sent;
    this.totals.accepted += report.accepted;
    this.totals.alreadyAccepted += report.alreadyAccepted;
    this.totals.refused += report.refused;
    this.options.onAcknowledged?.(this.outbox.depth());
    this.logger.info({ sent: report.sent, accepted: report.accepted, already_accepted: report.alreadyAccepted, refused: report.refused, first: batch[0].sequence, last: batch[batch.length - 1].sequence, skew_ms: answer.skew_ms, via }, 'scans acknowledged');
    return report;
  }

  /** one request, over the channel while it takes scans, else over HTTP; answers which scans it carried */
  private async send(batch: QueuedScan[]): Promise<{ attempt: Attempt; sent: QueuedScan[] }> {
    const channel = this.options.channel;
    const overHttp = this.resendOverHttp;
    this.resendOverHttp = false;
    if (!overHttp && channel?.takesScans) {
      let sent = batch;
      let body = this.bodyOf(sent);
      // the frame stays within what the server takes (until it has answered one: what an older server takes)
      while (sent.length > 1 && frameBytes(body) > channel.scanFrameMaxBytes) {
        sent = sent.slice(0, Math.ceil(sent.length / 2));
        body = this.bodyOf(sent);
      }
      const result = await this.overChannel(channel, body);
      if (result.kind !== 'unsupported') return { attempt: attemptOfChannel(result), sent };
      // a server from before scans over the channel: this batch and the next go over HTTP at once
    }
    return { attempt: await this.post(this.bodyOf(batch)), sent: batch };
  }

  private bodyOf(batch: QueuedScan[]): TReaderScanBatch {
    const clock = this.outbox.monotonicNow();
    return {
      sent_at: this.now().toISOString(),
      // the server judges sequences per outbox: a replaced queue file numbers from 1 again (docs/readers.md)
      outbox_id: this.outbox.outboxId,
      scans: batch.map((scan) => ({ card_uid: scan.cardUid, sequence: scan.sequence, device_time: scan.deviceTime.toISOString(), ...ageOf(scan, clock) })),
    };
  }

  private async overChannel(channel: ScanChannel, body: TReaderScanBatch): Promise<ChannelScanResult> {
    const request = new AbortController();
    this.request = request;
    try {
      return await channel.sendScans(body, this.options.requestTimeoutMs, request.signal);
    } finally {
      this.request = null;
    }
  }

  private async post(body: TReaderScanBatch): Promise<Attempt> {
    const request = new AbortController();
    this.request = request;
    const timeout = setTimeout(() => request.abort(new Error(`no answer within ${this.options.requestTimeoutMs} ms`)), this.options.requestTimeoutMs);
    try {
      const response = await this.fetchFn(this.scansUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/json',
          // a reader reads nothing back: answer as soon as the scans are appended (docs/readers.md)
          'x-rollcall-consistency': 'none',
        },
        body: JSON.stringify(body),
        signal: request.signal,
      });
      const text = await response.text();
      if (response.status === 200) {
        const parsed = ZScanBatchAck.safeParse(safeJson(text));
        if (parsed.success) return { kind: 'answered', answer: parsed.data, via: 'http' };
        return { kind: 'retry', reason: `the server's answer is not a scan acknowledgement (${parsed.error.issues[0]?.message ?? 'unreadable'})` };
      }
      const error = errorOf(text);
      if (response.status === 404) return { kind: 'retry', reason: `404 at ${this.scansUrl}: is ROLLCALL_AGENT_SERVER_URL the Rollcall API?` };
      return attemptOfRefusal(response.status, error.code, error.message);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      const reason = request.signal.aborted ? String((request.signal.reason as Error | undefined)?.message ?? 'aborted') : `${error instanceof Error ? error.message : String(error)}${cause}`;
      return { kind: 'retry', reason };
    } finally {
      clearTimeout(timeout);
      this.request = null;
    }
  }
}

/** a request refused, by the status the HTTP route answers (the channel's error frame carries the same) */
function attemptOfRefusal(status: number, code: string, message: string): Attempt {
  if (status === 401 || status === 403) return { kind: 'token_refused', reason: `${status} ${code}: ${message}` };
  if (status === 400 || status === 413 || status === 422) return { kind: 'batch_refused', code, message };
  if (status === 500) return { kind: 'server_error', reason: `500 ${code}: ${message}`, code, message };
  return { kind: 'retry', reason: `${status} ${code}: ${message}` };
}

function attemptOfChannel(result: Exclude<ChannelScanResult, { kind: 'unsupported' }>): Attempt {
  switch (result.kind) {
    case 'answered':
      return { kind: 'answered', answer: result.answer, via: 'channel' };
    case 'refused':
      return attemptOfRefusal(result.status, result.code, result.message);
    case 'lost':
      return { kind: 'retry', reason: result.reason, resendOverHttp: true };
    case 'unreadable':
      return { kind: 'retry', reason: result.reason };
  }
}

/** a batch's frame size: its JSON and the frame's own fields (type, a request id, consistency) */
const frameBytes = (body: TReaderScanBatch) => Buffer.byteLength(JSON.stringify(body)) + 100;

/** the scan's age on the box's monotonic clock, when it was queued in this boot */
function ageOf(scan: QueuedScan, clock: { bootId: string | null; bootMs: number | null }): { age_ms?: number } {
  if (scan.bootId === null || scan.bootMs === null || clock.bootId !== scan.bootId || clock.bootMs === null) return {};
  return { age_ms: Math.max(0, clock.bootMs - scan.bootMs) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(text: string): { code: string; message: string } {
  const body = safeJson(text) as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined;
  const code = typeof body?.error?.code === 'string' ? body.error.code : 'unknown';
  const fields = body?.error?.fields ? ` ${JSON.stringify(body.error.fields)}` : '';
  const message = typeof body?.error?.message === 'string' ? body.error.message + fields : text.slice(0, 200) || '(empty answer)';
  return { code, message };
}
