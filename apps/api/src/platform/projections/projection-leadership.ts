import pg from 'pg';
import { CONNECT_TIMEOUT_MS, postgresApplicationName } from '../event-store/postgres-connections';

export type LeadershipRole = 'starting' | 'leader' | 'follower';

export interface LeadershipHandlers {
  /** this process now holds the lock: run the projections */
  lead(): Promise<void>;
  /** another process holds the lock, or this one lost it: stop writing, follow the leader's checkpoints */
  follow(): Promise<void>;
  /** the leader committed checkpoints (a notification), or a retry tick passed: read them again */
  checkpointsMoved(): void;
}

interface Logger {
  log(message: string): void;
  warn(message: string): void;
}

/** how often a follower tries the lock (plus up to half of it at random, so followers do not move in step) */
const RETRY_MS = 1000;

/**
 * Which API process runs the projections when several share one PostgreSQL read database
 * (docs/adr/0017-several-api-processes.md): the one holding a session-level advisory lock on a
 * connection of its own. A process that dies loses the lock the moment PostgreSQL sees its connection
 * close; the others try every RETRY_MS and one takes over. The same connection LISTENs for the
 * leader's 'checkpoints committed' notifications, so followers learn of progress without polling.
 */
export class ProjectionLeadership {
  private client: pg.Client | null = null;
  private current: LeadershipRole = 'starting';
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** lead() and follow() run one after the other, never overlapping */
  private transitions: Promise<void> = Promise.resolve();
  private announcing = false;
  private announceAgain = false;
  private readonly lockKey: string;
  private readonly setupKey: string;
  private readonly channel: string;

  constructor(
    private readonly config: { url: string; schema: string },
    private readonly handlers: LeadershipHandlers,
    private readonly logger: Logger,
  ) {
    // one lock per read schema: two deployments on one server do not block each other
    this.lockKey = `rollcall.projections.${config.schema}`;
    this.setupKey = `rollcall.projections.setup.${config.schema}`;
    this.channel = `rollcall_checkpoints_${config.schema}`.slice(0, 63);
  }

  get role(): LeadershipRole {
    return this.current;
  }

  /**
   * Runs `setup` (creating the read tables) while no other process does: CREATE TABLE IF NOT EXISTS
   * is not atomic against the same statement in another session.
   */
  async whileSettingUp(setup: () => Promise<void>): Promise<void> {
    const client = await this.connected();
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [this.setupKey]);
    try {
      await setup();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [this.setupKey]);
    }
  }

  /** tries the lock once (lead() or follow() has run when this resolves), then keeps trying in the background */
  async start(): Promise<void> {
    await this.tick();
    await this.transitions;
    this.schedule();
  }

  /** tells followers that checkpoints were committed; calls made while one is on its way are folded into one */
  announce(): void {
    const client = this.client;
    if (!client || this.current !== 'leader') return;
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = true;
    client
      .query('SELECT pg_notify($1, $2)', [this.channel, ''])
      .catch(() => undefined)
      .finally(() => {
        this.announcing = false;
        if (!this.announceAgain) return;
        this.announceAgain = false;
        this.announce();
      });
  }

  /** releases the lock (closing its connection) after the transitions under way */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.transitions;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick().finally(() => this.schedule()), RETRY_MS + Math.random() * (RETRY_MS / 2));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.current === 'leader') return;
    try {
      const client = await this.connected();
      const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS taken', [this.lockKey]);
      if (rows[0]?.taken) {
        this.logger.log('this process leads the projections');
        this.transition('leader', () => this.handlers.lead());
        return;
      }
    } catch (error) {
      this.logger.warn(`projection leadership: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.current === 'starting') this.transition('follower', () => this.handlers.follow());
    // a notification may have been missed while the connection was down: read the checkpoints anyway
    else this.handlers.checkpointsMoved();
  }

  /**
   * A transition that fails (the read database unreachable while the runner or the follower starts)
   * leaves this process with neither running: it starts over as 'starting', and a leader lets the
   * lock go first (closing its connection), so the next tick takes the lock and leads again, or
   * follows whoever took it meanwhile.
   */
  private transition(role: LeadershipRole, run: () => Promise<void>): void {
    this.current = role;
    this.transitions = this.transitions.then(run).catch((error: unknown) => {
      this.logger.warn(`projection leadership: becoming ${role} failed: ${error instanceof Error ? error.message : String(error)}; trying again`);
      if (this.current !== role || this.stopped) return;
      this.current = 'starting';
      if (role === 'leader') this.release();
    });
  }

  /** drops the lock's connection (and so the lock) without a transition; the next tick connects again */
  private release(): void {
    const client = this.client;
    this.client = null;
    void client?.end().catch(() => undefined);
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.config.url, application_name: postgresApplicationName('projection-leadership', this.config.schema), keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', () => this.handlers.checkpointsMoved());
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  /**
   * The connection is gone, and with it the lock: PostgreSQL may hand it to another process at once,
   * so a leader stops writing now and follows; the next tick connects again.
   */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    if (this.stopped || this.current !== 'leader') return;
    this.logger.warn('lost the projection lock with its connection: following until it is free again');
    this.transition('follower', () => this.handlers.follow());
  }
}
