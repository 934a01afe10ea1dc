import type { Kysely } from 'kysely';
import { comparePositions, START, type EventStore, type Position, type StoredEvent, type Subscription } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { ensureCheckpointTable, eventsFor, moveCheckpoints, readCheckpoint } from './projection-checkpoints';
import type { ProjectionProgress } from './projection-progress';
import { applyBatchSettingAside, ensureSetAsideTable } from './set-aside';

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

  constructor(
    private readonly store: EventStore,
    private readonly db: Kysely<ReadDatabase>,
    private readonly projections: readonly Projection[],
    private readonly progress: ProjectionProgress,
    private readonly onError: (projection: string, error: unknown) => void = () => undefined,
    /** an event this projection could not apply was set aside (set-aside.ts) */
    private readonly onSetAside: (projection: string, event: StoredEvent) => void = () => undefined,
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
    await this.setup();
    const tracked: TrackedProjection[] = [];
    for (const projection of this.projections) {
      const position = await readCheckpoint(this.db, projection.name);
      this.progress.register(projection.name, position);
      tracked.push({ projection, position });
    }
    if (tracked.length === 0) return;
    const from = tracked.reduce((lowest, { position }) => (comparePositions(position, lowest) < 0 ? position : lowest), tracked[0].position);
    const subscription = this.store.subscribeToAll({ from, batchSize: 1000, onEvents: (events) => this.applyToAll(tracked, events) });
    // a failure here is the storage's (an event's own fault is set aside): every read model stops with it
    subscription.done.catch((error: unknown) => tracked.forEach(({ projection }) => this.onError(projection.name, error)));
    this.subscriptions.push(subscription);
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
      for (const event of setAside) this.onSetAside(entry.projection.name, event);
      this.progress.advanced(entry.projection.name, position, setAside.length ? unseen.filter((event) => !setAside.includes(event)) : unseen);
    }
    if (idle.length === 0) return;
    await moveCheckpoints(this.db, idle.map(({ entry }) => entry.projection.name), last);
    for (const { entry, unseen } of idle) {
      entry.position = last;
      this.progress.advanced(entry.projection.name, last, unseen);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  /** catches every projection up to the store's head, then returns (used by replay and tests) */
  async catchUp(): Promise<void> {
    const head = await this.store.headPosition();
    await this.progress.waitFor(head, 60 * 60 * 1000);
  }
}

/**
 * Rebuilds projections from position 0: drop their tables, recreate, replay every event in batches.
 * `onProgress` gets the number of events replayed so far.
 */
export async function rebuildProjections(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projections: readonly Projection[],
  onProgress: (replayed: number) => void = () => undefined,
  batchSize = 10000,
): Promise<number> {
  await ensureCheckpointTable(db);
  await ensureSetAsideTable(db);
  for (const projection of projections) {
    await projection.drop(db);
    await db.deleteFrom('projection_checkpoints').where('projection', '=', projection.name).execute();
    await db.deleteFrom('projection_set_aside').where('projection', '=', projection.name).execute();
    await projection.setup(db);
  }
  const replayed = await replayInto(store, db, projections, START, onProgress, batchSize);
  for (const projection of projections) await projection.createIndexes?.(db);
  return replayed;
}

/**
 * Applies every event after `from` to the projections, in batches, up to the store's head; an event a
 * projection cannot apply is set aside again, as when it first came (set-aside.ts). Returns the count.
 */
export async function replayInto(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projections: readonly Projection[],
  from: Position,
  onProgress: (replayed: number) => void = () => undefined,
  batchSize = 10000,
): Promise<number> {
  let replayed = 0;
  for (let position = from; ; ) {
    const events = await store.readAll(position, batchSize);
    if (events.length === 0) return replayed;
    for (const projection of projections) await applyBatchSettingAside(db, projection, events);
    position = events[events.length - 1].position;
    replayed += events.length;
    onProgress(replayed);
  }
}
