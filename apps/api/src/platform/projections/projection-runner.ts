import type { Kysely } from 'kysely';
import type { EventStoreConfig } from '../event-store/create-event-store';
import { comparePositions, formatPosition, START, type EventStore, type Position, type StoredEvent, type Subscription } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { ensureCheckpointTable, eventsFor, moveCheckpoints, readCheckpoint } from './projection-checkpoints';
import { ProjectionFeeds } from './projection-feeds';
import type { ProjectionProgress } from './projection-progress';
import { applyBatchSettingAside, ensureSetAsideTable } from './set-aside';
import { eventsFileOf, withStoredEventRows } from './stored-event-rows';

/** the first retry after a storage failure; each failure in a row doubles it, up to MAX_RETRY_MS */
const FIRST_RETRY_MS = 250;
/**
 * bounds how long after the storage heals the projections start again (within seconds:
 * docs/running-in-production.md, 'Faults')
 */
const MAX_RETRY_MS = 4000;

/** what a runner tells its owner */
export interface RunnerEvents {
  /** a storage failure stopped every projection (called for each); the runner starts them again after a backoff */
  onError?: (projection: string, error: unknown) => void;
  /** the projections write again after a storage failure */
  onRecovered?: () => void;
  /** an event this projection could not apply was set aside (set-aside.ts) */
  onSetAside?: (projection: string, event: Pick<StoredEvent, 'position' | 'type' | 'streamId'>) => void;
  /** a start found read models ahead of the event store and rebuilds them (the message says which) */
  onRebuildingAhead?: (message: string) => void;
}

/** a projection and the position its read model holds */
interface TrackedProjection {
  projection: Projection;
  position: Position;
}

/**
 * Follows `$all` and keeps every read model current. One subscription reads each batch of events once
 * for all projections (each read decodes the events, and there are about twenty projections); each
 * projection then applies the events it has not seen yet in its own transaction with its checkpoint,
 * so a projection that was rebuilt or fell behind catches up in the same pass without holding the
 * others back. A projection that reacts to none of a batch's events writes nothing: its checkpoint
 * moves with the others' in one statement after the batch.
 */
export class ProjectionRunner {
  private readonly subscriptions: Subscription[] = [];
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs = FIRST_RETRY_MS;
  /** a storage failure stopped the subscription and no batch has been applied since */
  private failing = false;

  constructor(
    private readonly store: EventStore,
    private readonly db: Kysely<ReadDatabase>,
    private readonly projections: readonly Projection[],
    private readonly progress: ProjectionProgress,
    private readonly events: RunnerEvents = {},
  ) {}

  async setup(): Promise<void> {
    await ensureCheckpointTable(this.db);
    await ensureSetAsideTable(this.db);
    for (const projection of this.projections) {
      await projection.setup(this.db);
      await projection.createIndexes?.(this.db);
    }
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.setup();
    await this.rebuildWhenAhead();
    await this.subscribe();
  }

  /**
   * A read model whose checkpoint is past the store's head holds events the store does not have: the
   * read database is newer than the events (a backup copied in the wrong order, or an older event
   * store restored beside it). Its rows cannot be trusted, so every read model is rebuilt from the
   * events before it serves (docs/adr/0020-consistent-backups-and-read-models-ahead.md).
   */
  private async rebuildWhenAhead(): Promise<void> {
    const head = await this.store.headPosition();
    const ahead: string[] = [];
    for (const projection of this.projections) {
      const position = await readCheckpoint(this.db, projection.name);
      if (comparePositions(position, head) > 0) ahead.push(`${projection.name} at ${formatPosition(position)}`);
    }
    if (ahead.length === 0) return;
    this.events.onRebuildingAhead?.(`read models are ahead of the event store's head ${formatPosition(head)} (${ahead.join(', ')}): rebuilding every read model from the events`);
    await rebuildProjections(this.store, this.db, this.projections);
  }

  /** reads the checkpoints and follows `$all` from the lowest; a storage failure retries with backoff */
  private async subscribe(): Promise<void> {
    const tracked: TrackedProjection[] = [];
    for (const projection of this.projections) {
      const position = await readCheckpoint(this.db, projection.name);
      this.progress.register(projection.name, position);
      tracked.push({ projection, position });
    }
    if (tracked.length === 0 || this.stopped) return;
    const from = tracked.reduce((lowest, { position }) => (comparePositions(position, lowest) < 0 ? position : lowest), tracked[0].position);
    const subscription = this.store.subscribeToAll({ from, batchSize: 1000, onEvents: (events) => this.applyToAll(tracked, events) });
    this.subscriptions.push(subscription);
    // a failure here is the storage's (an event's own fault is set aside): every read model stops with
    // it, and starts again from its checkpoint once the storage answers (a full disk freed, a
    // connection back)
    subscription.done.catch((error: unknown) => {
      const index = this.subscriptions.indexOf(subscription);
      if (index >= 0) this.subscriptions.splice(index, 1);
      this.failed(error);
    });
    if (!this.failing) return;
    // nothing left to apply: the storage answers again. A failing head read is the subscription's to report.
    const head = await this.store.headPosition().catch(() => null);
    if (head && this.progress.reached(head)) this.recovered();
  }

  private failed(error: unknown): void {
    if (this.stopped) return;
    this.failing = true;
    this.projections.forEach(({ name }) => this.events.onError?.(name, error));
    // one retry at a time: a single subscription follows `$all`
    if (this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped) return;
      this.subscribe().catch((failure: unknown) => this.failed(failure));
    }, delay);
    this.retryTimer.unref();
  }

  private recovered(): void {
    this.retryDelayMs = FIRST_RETRY_MS;
    if (!this.failing) return;
    this.failing = false;
    this.events.onRecovered?.();
  }

  private async applyToAll(tracked: TrackedProjection[], events: StoredEvent[]): Promise<void> {
    const last = events[events.length - 1].position;
    const idle: Array<{ entry: TrackedProjection; unseen: StoredEvent[] }> = [];
    for (const entry of tracked) {
      const unseen = comparePositions(events[0].position, entry.position) > 0 ? events : events.filter((event) => comparePositions(event.position, entry.position) > 0);
      if (unseen.length === 0) continue;
      if (eventsFor(entry.projection, unseen).length === 0) {
        idle.push({ entry, unseen });
        continue;
      }
      const { position, setAside } = await applyBatchSettingAside(this.db, entry.projection, unseen);
      entry.position = position;
      for (const event of setAside) this.events.onSetAside?.(entry.projection.name, event);
      this.progress.advanced(entry.projection.name, position, setAside.length ? unseen.filter((event) => !setAside.includes(event)) : unseen);
    }
    if (idle.length > 0) {
      await moveCheckpoints(this.db, idle.map(({ entry }) => entry.projection.name), last);
      for (const { entry, unseen } of idle) {
        entry.position = last;
        this.progress.advanced(entry.projection.name, last, unseen);
      }
    }
    this.recovered();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  /** catches every projection up to the store's head, then returns (used by replay and tests) */
  async catchUp(): Promise<void> {
    const head = await this.store.headPosition();
    await this.progress.waitFor(head, 60 * 60 * 1000);
  }
}

/** how a rebuild runs */
export interface ReplayOptions {
  /** the number of events replayed so far */
  onProgress?: (replayed: number) => void;
  /** events read at a time */
  batchSize?: number;
  /**
   * the configuration of the store being read, where a decorator hides it (the personal data vault):
   * on SQLite the rebuild then reads its rows by SQL too (stored-event-rows.ts)
   */
  eventStore?: EventStoreConfig;
}

/**
 * Rebuilds projections from position 0: drop their tables, recreate, replay every event in batches.
 * Where the store's rows can be read by SQL on the read database's connection (an events file on
 * SQLite), a projection that copies them (the event log) writes its rows from them in SQL.
 */
export async function rebuildProjections(store: EventStore, db: Kysely<ReadDatabase>, projections: readonly Projection[], options: ReplayOptions = {}): Promise<number> {
  await ensureCheckpointTable(db);
  await ensureSetAsideTable(db);
  for (const projection of projections) {
    await projection.drop(db);
    await db.deleteFrom('projection_checkpoints').where('projection', '=', projection.name).execute();
    await db.deleteFrom('projection_set_aside').where('projection', '=', projection.name).execute();
    await projection.setup(db);
  }
  const replayed = await replayInto(store, db, projections, START, options);
  for (const projection of projections) await projection.createIndexes?.(db);
  return replayed;
}

/**
 * Applies every event after `from` to the projections, in batches, up to the store's head; an event a
 * projection cannot apply is set aside again, as when it first came (set-aside.ts). Each batch is read
 * once and each projection gets only the events of its types (projection.eventTypes); one that has
 * none in a batch writes nothing, and its checkpoint moves to the batch's end with the other idle ones
 * in one statement. Returns the count.
 */
export async function replayInto(store: EventStore, db: Kysely<ReadDatabase>, projections: readonly Projection[], from: Position, options: ReplayOptions = {}): Promise<number> {
  const { onProgress = () => undefined, batchSize = 10000 } = options;
  const eventsFile = projections.some((projection) => projection.copyBatch) ? eventsFileOf(store, options.eventStore) : null;
  return withStoredEventRows(db, eventsFile, async (rows) => {
    const feeds = new ProjectionFeeds(projections);
    let replayed = 0;
    for (let position = from; ; ) {
      const events = await store.readAll(position, batchSize);
      if (events.length === 0) return replayed;
      position = events[events.length - 1].position;
      const idle: string[] = [];
      for (const [projection, mine] of feeds.split(events)) {
        if (mine.length === 0) idle.push(projection.name);
        else await applyBatchSettingAside(db, projection, mine, rows, position);
      }
      await moveCheckpoints(db, idle, position);
      replayed += events.length;
      onProgress(replayed);
    }
  });
}
