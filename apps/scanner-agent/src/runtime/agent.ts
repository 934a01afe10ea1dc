import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { CommandChannel } from '../channel/command-channel';
import { OUTBOX_FILE_NAME } from '../commands/simulate-command';
import { type AgentConfig } from '../config/agent-config';
import { type DeviceState, type ScanDriver } from '../drivers/scan-driver';
import { SimulatorDriver } from '../drivers/simulator-driver';
import { SocketSimulatorDriver } from '../drivers/socket-simulator-driver';
import { HidDriver } from '../hid/hid-driver';
import { type AgentLogger } from '../logging/logger';
import { type DurableOutbox } from '../outbox/durable-outbox';
import { openCheckedOutbox } from '../outbox/open-outbox';
import { ensurePrivateDataDir } from '../outbox/private-files';
import { type QueuedScan } from '../outbox/durable-outbox';
import { type Scan } from '../scans/scan';
import { backoffDelay, sleep } from '../sender/backoff';
import { ScanSender } from '../sender/scan-sender';
import { AGENT_VERSION } from '../version';
import { Debouncer } from './debouncer';

export interface AgentOptions {
  config: AgentConfig;
  logger: AgentLogger;
  /** the simulator's stdin; defaults to process.stdin */
  stdin?: NodeJS.ReadableStream;
  now?: () => Date;
  /**
   * Scan intake cannot heal (the outbox stayed unwritable for `intakeGiveUpSeconds`): main.ts stops
   * and exits 75 so the supervisor (systemd Restart=always) starts a fresh process.
   */
  onFatal?: (reason: string) => void;
}

/** the outbox could not be written: the scan is held, retried, and nothing is acknowledged meanwhile */
export interface IntakeHealth {
  state: 'ok' | 'storage_failed' | 'gave_up';
  /** the storage error as SQLite reported it (e.g. SQLITE_FULL: database or disk is full) */
  error: string | null;
  since: string | null;
}

const INTAKE_RETRY_BASE_MS = 100;
const INTAKE_RETRY_MAX_MS = 5000;

/** Builds the driver the configuration names. */
export function createDriver(config: AgentConfig, stdin: NodeJS.ReadableStream, now: () => Date): ScanDriver {
  switch (config.driver) {
    case 'hid-keyboard':
      return new HidDriver({ mode: 'keyboard', device: config.device, uidFormat: config.uidFormat, feedbackReport: config.feedbackReport ?? undefined, refusedReport: config.refusedReport ?? undefined, now });
    case 'hid-raw':
      return new HidDriver({ mode: 'raw', device: config.device, feedbackReport: config.feedbackReport ?? undefined, refusedReport: config.refusedReport ?? undefined, now });
    case 'simulator': {
      const input = config.simulatorInput;
      if (input.startsWith('unix:')) return new SocketSimulatorDriver(input.slice('unix:'.length), now);
      return new SimulatorDriver((input === '-' ? stdin : createReadStream(input)) as import('node:stream').Readable, { now });
    }
  }
}

/**
 * The door daemon (DESIGN 8): device -> debounce -> durable outbox (committed, then acknowledged to
 * the user) -> sender; the command channel beside it for register mode, configuration and health.
 */
export class Agent {
  private readonly outbox: DurableOutbox;
  private readonly sender: ScanSender | null;
  private readonly channel: CommandChannel | null;
  private readonly debouncer: Debouncer;
  private readonly driver: ScanDriver;
  private readonly now: () => Date;
  private deviceState: DeviceState | 'reading' | 'input_ended' = 'closed';
  private stopping = false;
  private driverLoop: Promise<void> | null = null;
  private readonly stopSignal = new AbortController();
  intake: IntakeHealth = { state: 'ok', error: null, since: null };
  registerMode: { expiresAt: string } | null = null;

  constructor(private readonly options: AgentOptions) {
    const { config, logger } = options;
    this.now = options.now ?? (() => new Date());
    ensurePrivateDataDir(config.dataDir);
    const outboxPath = join(config.dataDir, OUTBOX_FILE_NAME);
    const { outbox, recovery } = openCheckedOutbox(outboxPath, { now: this.now });
    this.outbox = outbox;
    if (recovery) {
      logger.error(
        { moved_to: recovery.movedTo, problem: recovery.problem, salvaged_scans: recovery.salvagedScans, salvaged_last_sequence: recovery.salvagedLastSequence },
        recovery.salvagedLastSequence === null
          ? 'the outbox file failed its integrity check: moved aside for inspection and a new one started. Its sequence counter was unreadable, so numbering restarts: an administrator must reset the reader (POST /api/v2/readers/{id}/reset-sequence) or new scans will be refused as going backwards'
          : 'the outbox file failed its integrity check: moved aside for inspection; its counter and the scans that could be read were carried into a new one',
      );
    }
    const boundTo = outbox.bindReader(config.readerId);
    const wrongReader = boundTo !== config.readerId;
    if (wrongReader) {
      logger.error(
        { outbox: outboxPath, outbox_reader_id: boundTo, configured_reader_id: config.readerId, depth: outbox.depth() },
        'the outbox belongs to another reader: its scans stay queued and nothing is sent, since this token would credit them to the wrong door. Fix ROLLCALL_AGENT_READER_ID, or give this reader its own data directory',
      );
    }
    logger.info(
      { reader_id: config.readerId, outbox: outboxPath, outbox_id: outbox.outboxId, last_sequence: outbox.lastSequence(), depth: outbox.depth(), dead_letters: outbox.deadLetterCount(), driver: config.driver, version: AGENT_VERSION },
      'outbox open',
    );
    this.debouncer = new Debouncer(config.debounceMs);
    this.driver = createDriver(config, options.stdin ?? process.stdin, this.now);
    this.channel = wrongReader
      ? null
      : new CommandChannel({
          serverUrl: config.serverUrl,
          token: config.token,
          logger,
          heartbeatSeconds: config.heartbeatSeconds,
          retryBaseMs: config.retryBaseMs,
          retryMaxMs: config.retryMaxSeconds * 1000,
          now: this.now,
          health: () => this.health(),
          onConfigure: (configuration) => this.sender?.configure(effectiveSenderSettings(configuration, config)),
          onRegisterMode: (armed, reason) => this.setRegisterMode(armed, reason),
        });
    this.sender = wrongReader
      ? null
      : new ScanSender({
          outbox,
          serverUrl: config.serverUrl,
          token: config.token,
          logger,
          batchMax: config.batchMax,
          retryBaseMs: config.retryBaseMs,
          retryMaxMs: config.retryMaxSeconds * 1000,
          requestTimeoutMs: config.requestTimeoutSeconds * 1000,
          now: this.now,
          // the console's queue depth should not stay at 10,000 for a heartbeat after the backlog is gone
          probe: async () => (await this.channel?.probe()) ?? false,
          // scans go over the reader's WebSocket while it takes them, over HTTP otherwise
          channel: this.channel,
          onAcknowledged: (depth) => {
            if (depth === 0) void this.channel?.reportHealth();
          },
        });
  }

  start(): void {
    this.sender?.start();
    this.channel?.start();
    this.driverLoop = this.readDriver();
  }

  /** Graceful stop (SIGTERM): no new scans, the request in flight may finish, the outbox is closed. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopSignal.abort();
    this.options.logger.info({ depth: this.outbox.depth() }, 'stopping');
    await this.driver.close?.();
    await this.sender?.stop(5000);
    await this.channel?.stop();
    this.outbox.close();
    this.options.logger.info('stopped; queued scans stay in the outbox for the next start');
  }

  health() {
    const oldest = this.outbox.oldestUnsent();
    return {
      queue_depth: this.outbox.depth(),
      oldest_queued_at: oldest ? oldest.enqueuedAt.toISOString() : null,
      last_sequence: this.outbox.lastSequence(),
      device_connected: this.deviceState === 'open' || this.deviceState === 'reading',
      agent_version: AGENT_VERSION,
      clock_skew_ms: this.sender?.clockSkewMs ?? null,
      device_state: this.deviceState,
      dead_letters: this.outbox.deadLetterCount(),
      last_dead_letter: lastDeadLetterOf(this.outbox),
      intake: this.intake,
    };
  }

  private setRegisterMode(armed: { expiresAt: string } | null, reason?: string): void {
    const was = this.registerMode;
    this.registerMode = armed;
    if (armed && was?.expiresAt !== armed.expiresAt) this.options.logger.info({ expires_at: armed.expiresAt }, 'register mode on: the next card at this reader is registered to an account');
    else if (!armed && was) this.options.logger.info({ reason: reason ?? 'ended' }, 'register mode off');
  }

  /**
   * Writes the scan to the outbox. A storage error (a full disk, an I/O error) does not end intake:
   * the scan is held in memory and retried with backoff (later scans wait behind it in the driver),
   * the health report says `intake.state: storage_failed` with the real error, and the scan is
   * acknowledged to the reader only once it is on disk. If the outbox stays unwritable for
   * `intakeGiveUpSeconds`, the reader is told the scan was not taken and `onFatal` exits the process
   * so its supervisor restarts it. Answers null when the scan was not queued.
   */
  private async enqueueDurably(scan: Scan): Promise<QueuedScan | null> {
    const { logger, config } = this.options;
    const startedAt = performance.now();
    for (let failures = 0; ; failures += 1) {
      let error: unknown;
      try {
        const queued = this.outbox.enqueue(scan);
        if (this.intake.state !== 'ok') {
          logger.info({ failures, held_ms: Math.round(performance.now() - startedAt), error_was: this.intake.error }, 'the outbox is writable again: scan intake resumed, the held scan is queued');
          this.intake = { state: 'ok', error: null, since: null };
          void this.channel?.reportHealth();
        }
        return queued;
      } catch (caught) {
        error = caught;
      }
      if (error instanceof TypeError) {
        logger.warn({ error: error.message }, 'unreadable scan ignored');
        this.driver.refuse?.(scan, error.message);
        return null;
      }
      const reason = storageError(error);
      if (this.intake.state === 'ok') {
        this.intake = { state: 'storage_failed', error: reason, since: this.now().toISOString() };
        logger.error(
          { error: reason, card_uid: scan.cardUid, give_up_after_seconds: config.intakeGiveUpSeconds },
          'could not write the scan to the outbox (disk full or failing?): it is held and retried, and nothing is acknowledged at the reader until it is on disk',
        );
        void this.channel?.reportHealth();
      } else if (reason !== this.intake.error) {
        this.intake = { ...this.intake, error: reason };
      }
      if (performance.now() - startedAt >= config.intakeGiveUpSeconds * 1000 || this.stopping) {
        this.driver.refuse?.(scan, `not stored: ${reason}`);
        if (this.stopping) return null;
        this.intake = { ...this.intake, state: 'gave_up' };
        const message = `the outbox stayed unwritable for ${config.intakeGiveUpSeconds} s (${reason}): the reader was told the scan was not taken; exiting so the supervisor restarts the agent`;
        logger.fatal({ error: reason, card_uid: scan.cardUid, failures: failures + 1 }, message);
        this.options.onFatal?.(message);
        return null;
      }
      await sleep(Math.max(INTAKE_RETRY_BASE_MS / 2, backoffDelay(failures + 1, INTAKE_RETRY_BASE_MS, INTAKE_RETRY_MAX_MS)), this.stopSignal.signal);
    }
  }

  private async readDriver(): Promise<void> {
    const { logger } = this.options;
    if (this.options.config.driver === 'simulator') this.deviceState = 'reading';
    try {
      for await (const event of this.driver.events()) {
        if (this.stopping) break;
        if (event.kind === 'state') {
          this.deviceState = event.state;
          const fields = { device_state: event.state, detail: event.detail };
          if (event.state === 'open') logger.info(fields, 'reader device open');
          else logger.warn(fields, 'reader device not available; retrying with backoff');
          continue;
        }
        if (event.kind === 'error') {
          logger.warn({ error: event.message }, 'unreadable scan ignored');
          continue;
        }
        if (!this.debouncer.accept(event.scan.cardUid)) {
          logger.debug({ card_uid: event.scan.cardUid }, 'same card still held against the reader; read dropped');
          continue;
        }
        // Committed (fsync) before anything tells the user it was read.
        const queued = await this.enqueueDurably(event.scan);
        if (!queued) continue;
        this.driver.acknowledge?.(event.scan);
        logger.info({ sequence: queued.sequence, card_uid: queued.cardUid, device_time: queued.deviceTime.toISOString() }, 'scan queued');
        this.sender?.notify();
        // A file or a fast socket yields lines without ever waiting: give the sender and the
        // command channel their turn, or a long backlog would be queued before anything is sent.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (!this.stopping && this.options.config.driver === 'simulator') {
        this.deviceState = 'input_ended';
        logger.info({ depth: this.outbox.depth() }, 'simulator input ended; still sending the queue');
      }
    } catch (error) {
      if (!this.stopping) {
        this.deviceState = 'failed';
        logger.error({ error: error instanceof Error ? error.message : String(error) }, 'the scan input failed; queued scans are still sent');
      }
    }
  }
}

/**
 * The sender's settings after the server's `configure`: the server may lower the batch size and the
 * backoff cap, never raise them past what the operator set locally (ROLLCALL_AGENT_BATCH_MAX,
 * ROLLCALL_AGENT_RETRY_MAX_SECONDS): the local setting is the door box's own limit.
 */
export function effectiveSenderSettings(server: { batch_max: number; retry_max_seconds: number }, local: Pick<AgentConfig, 'batchMax' | 'retryMaxSeconds'>): { batchMax: number; retryMaxMs: number } {
  return { batchMax: Math.min(server.batch_max, local.batchMax), retryMaxMs: Math.min(server.retry_max_seconds, local.retryMaxSeconds) * 1000 };
}

/** SQLite's code and message (SQLITE_FULL: database or disk is full), or the error's message */
function storageError(error: unknown): string {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? `${(error as { code: string }).code}: ` : '';
  return `${code}${error instanceof Error ? error.message : String(error)}`;
}

function lastDeadLetterOf(outbox: DurableOutbox) {
  const letter = outbox.lastDeadLetter();
  if (!letter) return null;
  return { sequence: letter.sequence, card_uid: letter.cardUid, code: letter.code.slice(0, 100), message: letter.message.slice(0, 500), refused_at: letter.refusedAt.toISOString() };
}
