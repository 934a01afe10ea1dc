import {
  READER_FRAME_MAX_BYTES,
  READER_SCAN_FRAME_MAX_BYTES,
  ZReaderCommand,
  ZReaderErrorFrame,
  ZReaderScanBatchAckFrame,
  type TReaderConfiguration,
  type TReaderHealthReport,
  type TReaderMessage,
  type TReaderScanBatch,
  type TScanBatchAck,
} from '@rollcall/contracts';
import WebSocket from 'ws';
import { type AgentLogger } from '../logging/logger';
import { backoffDelay, sleep } from '../sender/backoff';

/** close code the server uses when the reader's token stopped being valid (docs/readers.md) */
const TOKEN_ENDED = 4001;

/**
 * The health report as the server keeps it, plus what it does not keep yet (sent anyway: the
 * protocol's objects are not strict, so a newer agent's extra fields are ignored, not refused).
 */
export type HealthReport = Omit<TReaderHealthReport, 'sent_at'> & {
  /** server clock minus device clock as the server last measured it, ms */
  clock_skew_ms: number | null;
  device_state: string;
  dead_letters: number;
};

/** What became of a batch of scans sent over the channel. */
export type ChannelScanResult =
  | { kind: 'answered'; answer: TScanBatchAck }
  /** an error frame for this request: the status and error body the HTTP route answers the same refusal with */
  | { kind: 'refused'; status: number; code: string; message: string }
  /** the server does not know scan frames (a server from before them): send them over HTTP */
  | { kind: 'unsupported' }
  /** the socket closed, or no answer came in time, before the answer: what the server did is unknown */
  | { kind: 'lost'; reason: string }
  /** an answer that is not a scan acknowledgement */
  | { kind: 'unreadable'; reason: string };

/** The channel as the scan sender sees it (ScanSender prefers it to HTTP when it takes scans). */
export interface ScanChannel {
  /** connected, and the server has not shown it does not know scan frames */
  readonly takesScans: boolean;
  /** the largest scan frame to send now */
  readonly scanFrameMaxBytes: number;
  sendScans(batch: TReaderScanBatch, timeoutMs: number, signal: AbortSignal): Promise<ChannelScanResult>;
}

export interface CommandChannelOptions {
  serverUrl: string;
  token: string;
  logger: AgentLogger;
  health: () => HealthReport;
  onConfigure: (configuration: TReaderConfiguration) => void;
  /** armed until `expiresAt`, or null when register mode ended (with the server's reason) */
  onRegisterMode: (armed: { expiresAt: string } | null, reason?: string) => void;
  heartbeatSeconds: number;
  retryBaseMs: number;
  retryMaxMs: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

/**
 * The reader's WebSocket to the API (docs/readers.md, 'The WebSocket channel to readers'): receives
 * `configure` and register mode on/off, acknowledges each command, and sends a health report every
 * `heartbeat_seconds`. It reconnects with backoff and jitter whenever the socket drops. While it is
 * down, health goes by `POST reader/health`, whose answer also says whether register mode is on, so
 * an enrollment reader's LED stays right without the socket.
 *
 * It carries scans too (docs/readers.md, 'Scans over the channel'): a `scan_batch` frame with a
 * request id, answered by a `scan_batch_ack` with the same id. A server from before scan frames
 * answers one with an `error` frame that names no request (what it answers any message it does not
 * know): the channel then takes no scans until it reconnects, and they go over HTTP. Such a server
 * also closes any frame over READER_FRAME_MAX_BYTES (1009), so until the server has answered a scan
 * frame on this connection, frames stay under that size.
 */
export class CommandChannel implements ScanChannel {
  private readonly stopped = new AbortController();
  private socket: WebSocket | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private heartbeatMs: number;
  private loop: Promise<void> | null = null;
  private readonly now: () => Date;
  private readonly wsUrl: string;
  private readonly healthUrl: string;
  /** whether the server on this connection takes scan frames: learnt from its first answer to one */
  private scanFrames: 'unknown' | 'taken' | 'unknown_to_server' = 'unknown';
  /** scan requests waiting for their answer, oldest first (a Map keeps insertion order) */
  private readonly pending = new Map<string, (result: ChannelScanResult) => void>();
  private requests = 0;
  connected = false;

  constructor(private readonly options: CommandChannelOptions) {
    this.now = options.now ?? (() => new Date());
    const url = new URL('api/v2/reader/ws', options.serverUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.wsUrl = url.href;
    this.healthUrl = new URL('api/v2/reader/health', options.serverUrl).href;
    this.heartbeatMs = options.heartbeatSeconds * 1000;
  }

  get takesScans(): boolean {
    return this.connected && this.scanFrames !== 'unknown_to_server';
  }

  get scanFrameMaxBytes(): number {
    return this.scanFrames === 'taken' ? READER_SCAN_FRAME_MAX_BYTES : READER_FRAME_MAX_BYTES;
  }

  /**
   * Sends a batch as a `scan_batch` frame and resolves with its answer. Never rejects: a socket that
   * closes, a timeout (the socket is then dropped: a connection that stopped answering) or the
   * signal resolve `lost`, and the caller sends the batch again, which the server answers
   * `already_accepted` for what it recorded.
   */
  sendScans(batch: TReaderScanBatch, timeoutMs: number, signal: AbortSignal): Promise<ChannelScanResult> {
    const socket = this.socket;
    if (!socket || !this.connected || socket.readyState !== WebSocket.OPEN) return Promise.resolve({ kind: 'lost', reason: 'the command channel is not connected' });
    const requestId = `scans-${++this.requests}`;
    return new Promise<ChannelScanResult>((resolve) => {
      const finish = (result: ChannelScanResult) => {
        if (!this.pending.delete(requestId)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const timer = setTimeout(() => {
        finish({ kind: 'lost', reason: `no answer on the command channel within ${timeoutMs} ms` });
        // a connection that stopped answering: a new one (or HTTP meanwhile) does better
        socket.terminate();
      }, timeoutMs);
      const onAbort = () => finish({ kind: 'lost', reason: String((signal.reason as Error | undefined)?.message ?? 'aborted') });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, finish);
      // a reader reads nothing back: answered as soon as the scans are appended (docs/readers.md)
      socket.send(JSON.stringify({ type: 'scan_batch', request_id: requestId, consistency: 'none', ...batch }), (error) => {
        if (error) finish({ kind: 'lost', reason: `the command channel failed to send: ${error.message}` });
      });
      if (signal.aborted) onAbort();
    });
  }

  start(): void {
    this.loop ??= this.run();
    this.scheduleHeartbeat();
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.socket?.close(1001, 'agent stopping');
    await this.loop;
  }

  /** Posts a health report over HTTP: answers whether the server took it (the sender's probe). */
  async probe(): Promise<boolean> {
    try {
      const response = await this.postHealth();
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  }

  /** one health report over HTTP, the way both the probe and the socket's fallback send it */
  private postHealth(): Promise<Response> {
    const report: TReaderHealthReport & HealthReport = { sent_at: this.now().toISOString(), ...this.options.health() };
    return (this.options.fetch ?? fetch)(this.healthUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(report),
      signal: AbortSignal.timeout(10_000),
    });
  }

  /** Sends a health report now (by the socket, or over HTTP while it is down). */
  async reportHealth(): Promise<void> {
    if (this.socket && this.connected) {
      const report: TReaderHealthReport & HealthReport = { sent_at: this.now().toISOString(), ...this.options.health() };
      this.send({ type: 'health', ...report });
      return;
    }
    try {
      const response = await this.postHealth();
      if (response.status !== 200) {
        this.options.logger.debug({ status: response.status }, 'health report over HTTP not taken');
        return;
      }
      const answer = (await response.json()) as { register_mode?: { expires_at: string } | null };
      if (answer.register_mode !== undefined) this.options.onRegisterMode(answer.register_mode ? { expiresAt: answer.register_mode.expires_at } : null);
    } catch (error) {
      this.options.logger.debug({ error: error instanceof Error ? error.message : String(error) }, 'health report over HTTP failed');
    }
  }

  private scheduleHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => void this.reportHealth(), this.heartbeatMs);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped.signal.aborted) {
      const outcome = await this.connectOnce();
      if (this.stopped.signal.aborted) break;
      failures = outcome.connected ? 1 : failures + 1;
      const delay = outcome.tokenRefused ? this.options.retryMaxMs : backoffDelay(failures, this.options.retryBaseMs, this.options.retryMaxMs);
      await sleep(delay, this.stopped.signal);
    }
  }

  /** One connection, from the upgrade to its close. */
  private connectOnce(): Promise<{ connected: boolean; tokenRefused: boolean }> {
    const { logger } = this.options;
    return new Promise((resolve) => {
      let connected = false;
      let tokenRefused = false;
      const ws = new WebSocket(this.wsUrl, { headers: { authorization: `Bearer ${this.options.token}` }, handshakeTimeout: 10_000 });
      this.socket = ws;
      ws.on('unexpected-response', (_request, response) => {
        if (response.statusCode === 401) {
          tokenRefused = true;
          logger.error({ url: this.wsUrl }, 'the server refused this reader token on the command channel (401): check ROLLCALL_AGENT_TOKEN; retrying slowly');
        } else logger.warn({ status: response.statusCode, url: this.wsUrl }, 'command channel refused by the server');
        ws.terminate();
      });
      ws.on('open', () => {
        connected = true;
        this.connected = true;
        // a new connection may be to another server (upgraded, or rolled back): learn again
        this.scanFrames = 'unknown';
        logger.info({ url: this.wsUrl }, 'command channel connected');
        void this.reportHealth();
      });
      ws.on('message', (raw) => this.received(raw.toString()));
      ws.on('error', (error) => logger.debug({ error: error.message }, 'command channel error'));
      ws.on('close', (code, reason) => {
        this.connected = false;
        this.socket = null;
        for (const finish of [...this.pending.values()]) finish({ kind: 'lost', reason: `the command channel closed (${code}) before the answer` });
        if (code === TOKEN_ENDED) {
          tokenRefused = true;
          logger.error({ code, reason: reason.toString() }, 'the server closed the command channel: this reader token is no longer valid (revoked, replaced, or reader deleted)');
        } else if (connected && !this.stopped.signal.aborted) logger.warn({ code, reason: reason.toString() }, 'command channel closed; reconnecting');
        resolve({ connected, tokenRefused });
      });
    });
  }

  private received(text: string): void {
    const { logger } = this.options;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      logger.warn('command channel: a message that is not JSON; ignored');
      return;
    }
    const type = (json as { type?: unknown } | null)?.type;
    if (type === 'scan_batch_ack') return this.scanAnswer(json as { request_id?: unknown });
    if (type === 'error') {
      const requestId = (json as { request_id?: unknown }).request_id;
      // the refusal of a scan request (or a late one, for a request given up on)
      if (typeof requestId === 'string') return this.scanAnswer(json as { request_id: string });
      const oldest = this.pending.values().next();
      if (!oldest.done && this.scanFrames === 'unknown') {
        // what a server from before scan frames answers to one (a message it does not know): HTTP it is, until the next connection
        this.scanFrames = 'unknown_to_server';
        logger.info({ error: (json as { error?: unknown }).error }, 'the server does not take scans over the command channel (a server from before them): they go over HTTP');
        oldest.value({ kind: 'unsupported' });
        return;
      }
      logger.warn({ error: (json as { error?: unknown }).error }, 'the server did not understand a message of this agent');
      return;
    }
    const parsed = ZReaderCommand.safeParse(json);
    if (!parsed.success) {
      const commandId = (json as { command_id?: unknown })?.command_id;
      logger.warn({ type: (json as { type?: unknown })?.type, problem: parsed.error.issues[0]?.message }, 'command channel: a command this agent does not know; refused');
      if (typeof commandId === 'string' && /^[0-9a-f-]{36}$/i.test(commandId)) this.send({ type: 'command_ack', command_id: commandId, ok: false, error: 'unknown or malformed command' });
      return;
    }
    const command = parsed.data;
    try {
      switch (command.type) {
        case 'configure':
          this.heartbeatMs = command.configuration.heartbeat_seconds * 1000;
          this.scheduleHeartbeat();
          this.options.onConfigure(command.configuration);
          logger.info({ configuration: command.configuration }, 'configuration from the server applied');
          break;
        case 'register_mode.on':
          this.options.onRegisterMode({ expiresAt: command.expires_at });
          break;
        case 'register_mode.off':
          this.options.onRegisterMode(null, command.reason);
          break;
      }
      this.send({ type: 'command_ack', command_id: command.command_id, ok: true });
    } catch (error) {
      this.send({ type: 'command_ack', command_id: command.command_id, ok: false, error: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
    }
  }

  /** a `scan_batch_ack` or an `error` frame naming a scan request */
  private scanAnswer(json: { request_id?: unknown; type?: unknown }): void {
    const finish = typeof json.request_id === 'string' ? this.pending.get(json.request_id) : undefined;
    if (!finish) {
      // the answer to a request given up on (timed out, or sent again over HTTP): the resend's answer counts
      this.options.logger.debug({ request_id: json.request_id }, 'command channel: an answer to no waiting request; ignored');
      return;
    }
    this.scanFrames = 'taken';
    if (json.type === 'error') {
      const parsed = ZReaderErrorFrame.safeParse(json);
      const error = parsed.success ? parsed.data : null;
      finish(error?.status ? { kind: 'refused', status: error.status, code: error.error.code, message: error.error.message + (error.error.fields ? ` ${JSON.stringify(error.error.fields)}` : '') } : { kind: 'unreadable', reason: 'an error frame without a status' });
      return;
    }
    const parsed = ZReaderScanBatchAckFrame.safeParse(json);
    if (!parsed.success) return finish({ kind: 'unreadable', reason: `the server's answer is not a scan acknowledgement (${parsed.error.issues[0]?.message ?? 'unreadable'})` });
    const { received_at, skew_ms, clock_skewed, acks } = parsed.data;
    finish({ kind: 'answered', answer: { received_at, skew_ms, clock_skewed, acks } });
  }

  private send(message: TReaderMessage | (TReaderMessage & Record<string, unknown>)): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
