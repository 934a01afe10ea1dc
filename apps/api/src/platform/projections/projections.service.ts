import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { PROJECTION_LAG_COUNTED, type TProjectionsAnswer, type TRebuildState, type TRetryAnswer, type TSetAsideEvent } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { AppConfig } from '../config/app-config';
import { formatPosition, type EventStore, type Position } from '../event-store/event-store.port';
import { ProjectionFollower } from './projection-follower';
import { ProjectionLeadership } from './projection-leadership';
import { ProjectionProgress } from './projection-progress';
import { ProjectionRunner, type RunnerEvents } from './projection-runner';
import { ProjectionWorkerHost } from './projection-worker-host';
import { AppendNotices } from '../event-store/after-appends';
import { rebuildWithSwap } from './rebuild-with-swap';
import { retrySetAside } from './set-aside';
import type { ReadDatabase } from '../read-db/read-database';
import { PROJECTION_WORKER_SCRIPT, ProjectionRegistry } from './projection-registry';
import { APP_CONFIG, EVENT_STORE, READ_DB } from '../tokens';

/** the error's code where it has one (SQLITE_FULL, 57P01, ECONNREFUSED), then its message */
function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** how /readyz and the status name a follower whose `$all` subscription stopped */
const FOLLOWER = 'following the projection leader';

/**
 * Starts every registered projection and catches them up before the API takes requests. On SQLite (one
 * process by design) this process runs them all. On a PostgreSQL read database several processes may
 * share the tables (docs/adr/0017-several-api-processes.md): the one holding the projection lock runs
 * them, the others follow its checkpoints, so every process still reports progress and live events.
 */
@Injectable()
export class ProjectionsService {
  private readonly logger = new Logger('Projections');
  private runner: ProjectionRunner | null = null;
  /** the worker thread that runs the projections when ROLLCALL_PROJECTIONS_THREAD=worker (docs/adr/0026) */
  private worker: ProjectionWorkerHost | null = null;
  private stopAnnouncing: (() => void) | null = null;
  private follower: ProjectionFollower | null = null;
  private leadership: ProjectionLeadership | null = null;
  private unsubscribe: (() => void) | null = null;
  /** projections whose subscription stopped on an error: the process is not ready (/readyz) */
  private readonly failed = new Map<string, string>();
  private rebuilding: TRebuildState = { status: 'idle', started_at: null, finished_at: null, replayed: 0, total: 0, error: null };

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ProjectionRegistry,
    private readonly progress: ProjectionProgress,
    private readonly appendNotices: AppendNotices,
    @Optional() @Inject(PROJECTION_WORKER_SCRIPT) private readonly workerScript?: string,
  ) {}

  async start(): Promise<void> {
    this.failed.clear();
    const readDb = this.config.readDb;
    if (readDb.kind === 'sqlite' && this.config.projectionsThread === 'worker') {
      await this.startWorker();
      return;
    }
    if (readDb.kind === 'sqlite') {
      await (await this.startRunner()).catchUp();
      return;
    }
    const leadership = new ProjectionLeadership(readDb, { lead: () => this.lead(), follow: () => this.follow(), checkpointsMoved: () => this.follower?.refresh() }, this.logger);
    this.leadership = leadership;
    // followers learn of every commit at once instead of at the next retry tick
    this.unsubscribe = this.progress.onAdvanced(() => leadership.announce());
    await leadership.whileSettingUp(() => this.newRunner().setup());
    await leadership.start();
    // as on SQLite: the process listens once the read models hold what the store held at start
    await this.progress.waitFor(await this.store.headPosition(), 60 * 60 * 1000);
  }

  /**
   * 'single' on SQLite, 'worker' when a worker thread of this process runs them (docs/adr/0026); on
   * PostgreSQL whether this process runs the projections or follows the one that does
   */
  role(): 'single' | 'worker' | 'starting' | 'leader' | 'follower' {
    if (this.worker) return 'worker';
    return this.leadership?.role ?? 'single';
  }

  private newRunner(): ProjectionRunner {
    return new ProjectionRunner(this.store, this.db, this.registry.all(), this.progress, this.runnerEvents());
  }

  private runnerEvents(): RunnerEvents {
    return {
      // a storage failure (full disk, lost connection): the runner starts again by itself with backoff;
      // meanwhile /readyz names the real cause. Logged once per cause, not once per retry.
      onError: (name, error) => {
        const message = describeFailure(error);
        const before = this.failed.get(name);
        this.failed.set(name, message);
        if (before !== message) this.logger.error(`projection ${name} stopped: ${message} (retrying with backoff)`);
      },
      onRecovered: () => {
        const stopped = [...this.failed.keys()].filter((name) => name !== FOLLOWER);
        stopped.forEach((name) => this.failed.delete(name));
        this.logger.log(`projections write again after a storage failure (${stopped.length} resumed)`);
      },
      onSetAside: (name, event) => this.logger.warn(`projection ${name} set aside event ${formatPosition(event.position)} ${event.type} of ${event.streamId}`),
      onRebuildingAhead: (message) => this.logger.warn(message),
    };
  }

  /**
   * The projections on a worker thread (docs/adr/0026): it writes the read models; this thread follows
   * its checkpoints as a process follows the leader's on PostgreSQL, so command waits resolve and live
   * pushes go out here, from this thread's own reading of the events.
   */
  private async startWorker(): Promise<void> {
    if (!this.workerScript) throw new Error('ROLLCALL_PROJECTIONS_THREAD=worker, but this build names no projection worker script');
    const worker = new ProjectionWorkerHost(
      this.workerScript,
      this.config,
      this.registry.all().map(({ name }) => name),
      { ...this.runnerEvents(), onCommitted: (positions) => this.follower?.accept(positions) },
    );
    this.worker = worker;
    this.stopAnnouncing = this.appendNotices.listen(() => worker.appended());
    // the tables first, on this thread: what runs beside the start (the sweepers) finds them, whenever the worker is up
    await this.newRunner().setup();
    await worker.start();
    await this.follow();
    await this.progress.waitFor(await this.store.headPosition(), 60 * 60 * 1000);
  }

  private async startRunner(): Promise<ProjectionRunner> {
    const runner = this.newRunner();
    this.runner = runner;
    await runner.start();
    return runner;
  }

  private async lead(): Promise<void> {
    await this.follower?.handOver();
    this.follower = null;
    this.failed.clear();
    await this.startRunner();
  }

  private async follow(): Promise<void> {
    await this.runner?.stop();
    this.runner = null;
    this.failed.clear();
    const follower = new ProjectionFollower(this.store, this.db, this.registry.all(), this.progress, {
      onError: (error) => {
        const message = describeFailure(error);
        if (this.failed.get(FOLLOWER) !== message) this.logger.error(`following the projection leader stopped: ${message} (retrying with backoff)`);
        this.failed.set(FOLLOWER, message);
      },
      onRecovered: () => {
        this.failed.delete(FOLLOWER);
        this.logger.log('following the projection leader again');
      },
    });
    this.follower = follower;
    await follower.start();
  }

  failures(): string[] {
    return [...this.failed.keys()];
  }

  /** the cause of the stop (one storage failure stops them all alike), for /readyz; null while all run */
  failureCause(): string | null {
    return this.failed.values().next().value ?? null;
  }

  /** each projection's position, lag behind the head, rate, state, last error and set-aside count */
  async status(): Promise<TProjectionsAnswer> {
    const head = await this.store.headPosition();
    const checkpoints = new Map((await this.db.selectFrom('projection_checkpoints').select(['projection', 'last_error']).execute()).map((row) => [row.projection, row.last_error]));
    const setAside = new Map(
      (await this.db.selectFrom('projection_set_aside').select(['projection']).select((eb) => eb.fn.countAll<number>().as('count')).groupBy('projection').execute()).map((row) => [row.projection, Number(row.count)]),
    );
    const projections = [];
    for (const projection of this.registry.all()) {
      const position = this.progress.positionOf(projection.name);
      const behind = await this.lagOf(position, head);
      projections.push({
        name: projection.name,
        position: formatPosition(position),
        lag: behind.lag,
        lag_more: behind.more,
        rate: Math.round(this.progress.rateOf(projection.name) * 10) / 10,
        state: this.failed.has(projection.name) ? ('stopped' as const) : ('running' as const),
        last_error: this.failed.get(projection.name) ?? checkpoints.get(projection.name) ?? null,
        set_aside: setAside.get(projection.name) ?? 0,
      });
    }
    return { head: formatPosition(head), projections, rebuild: { ...this.rebuilding } };
  }

  /**
   * 'Rebuild' (docs/running-in-production.md, 'Upgrades'): every read model is rebuilt into fresh tables
   * while these serve, then swapped in (projections/rebuild-with-swap.ts); this process's runner pauses only
   * for the swap. Runs in the background: the state answers how far it is. One at a time
   * (409 projection.rebuild_running).
   */
  startRebuild(): TRebuildState {
    if (this.rebuilding.status === 'running' || this.rebuilding.status === 'swapping') {
      throw new DomainError('projection.rebuild_running', 'A rebuild is already running');
    }
    // only the process that writes the read models may swap them (docs/adr/0017)
    if (this.leadership && this.leadership.role !== 'leader') {
      throw new DomainError('projection.rebuild_not_leader', 'This API process does not run the projections; send the rebuild to the projection leader (its /readyz answers role "leader")');
    }
    this.rebuilding = { status: 'running', started_at: new Date().toISOString(), finished_at: null, replayed: 0, total: 0, error: null };
    void this.rebuild();
    return { ...this.rebuilding };
  }

  private async rebuild(): Promise<void> {
    const state = this.rebuilding;
    try {
      state.total = Number((await this.db.selectFrom('event_log_v1').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst())?.count ?? 0);
      await rebuildWithSwap(this.store, this.db, this.config.readDb, this.registry.all(), {
        // the store behind the personal data vault: on SQLite the event log copies its rows by SQL
        eventStore: this.config.eventStore,
        onProgress: (replayed) => (state.replayed = replayed),
        beforeSwap: async () => {
          state.status = 'swapping';
          if (this.leadership && this.leadership.role !== 'leader') throw new Error('this process lost the projection leadership during the rebuild: nothing was swapped');
          await this.runner?.stop();
          this.runner = null;
          await this.worker?.stop();
        },
        // a process that lost the lock meanwhile follows the new leader instead
        afterSwap: async () => {
          if (this.worker) return this.worker.start();
          if (this.runner || (this.leadership && this.leadership.role !== 'leader')) return;
          await (await this.startRunner()).catchUp();
        },
      });
      state.status = 'done';
      this.logger.log(`rebuilt every read model from ${state.replayed} events`);
    } catch (error) {
      state.status = 'failed';
      state.error = error instanceof Error ? error.message : String(error);
      this.logger.error(`rebuild failed: ${state.error}`);
    } finally {
      state.finished_at = new Date().toISOString();
    }
  }

  /** the events a projection set aside, oldest first */
  async setAside(projection: string): Promise<TSetAsideEvent[] | null> {
    if (!this.projectionNamed(projection)) return null;
    const rows = await this.db.selectFrom('projection_set_aside').selectAll().where('projection', '=', projection).orderBy('position_commit').orderBy('position_sequence').limit(1000).execute();
    return rows.map((row) => ({
      projection: row.projection,
      position: formatPosition({ commit: Number(row.position_commit), sequence: Number(row.position_sequence) }),
      stream_id: row.stream_id,
      event_type: row.event_type,
      error: row.error,
      set_aside_at: row.set_aside_at,
      attempts: Number(row.attempts),
    }));
  }

  /** applies a set-aside event again; null when the projection or the event is not set aside */
  async retry(projection: string, position: Position): Promise<TRetryAnswer | null> {
    const named = this.projectionNamed(projection);
    if (!named) return null;
    const outcome = await retrySetAside(this.store, this.db, named, position);
    if (outcome?.applied) this.logger.log(`projection ${projection} applied set-aside event ${formatPosition(position)} on retry`);
    return outcome;
  }

  private projectionNamed(name: string) {
    return this.registry.all().find((projection) => projection.name === name) ?? null;
  }

  /** counts events after `position` up to PROJECTION_LAG_COUNTED: a lagging projection costs one bounded read */
  private async lagOf(position: Position, head: Position): Promise<{ lag: number; more: boolean }> {
    if (position.commit === head.commit && position.sequence === head.sequence) return { lag: 0, more: false };
    const events = await this.store.readAll(position, PROJECTION_LAG_COUNTED + 1);
    return { lag: Math.min(events.length, PROJECTION_LAG_COUNTED), more: events.length > PROJECTION_LAG_COUNTED };
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stopAnnouncing?.();
    this.stopAnnouncing = null;
    await this.worker?.stop();
    this.worker = null;
    await this.runner?.stop();
    this.runner = null;
    await this.follower?.stop();
    this.follower = null;
    // last: the lock is released only once this process has stopped writing
    await this.leadership?.stop();
    this.leadership = null;
  }
}
