import type { Kysely } from 'kysely';
import { START, type EventStore, type Position, type StoredEvent, type Subscription } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { ensureCheckpointTable, readCheckpoint } from './projection-checkpoints';
import type { ProjectionProgress } from './projection-progress';
import { applyBatchSettingAside, ensureSetAsideTable } from './set-aside';

/**
 * Follows `$all` from each projection's checkpoint and keeps its read model current. One
 * subscription per projection, so a rebuild of one never holds the others back.
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
    for (const projection of this.projections) {
      const from = await readCheckpoint(this.db, projection.name);
      this.progress.register(projection.name, from);
      const subscription = this.store.subscribeToAll({
        from,
        batchSize: 1000,
        onEvents: async (events) => {
          const { position, setAside } = await applyBatchSettingAside(this.db, projection, events);
          for (const event of setAside) this.onSetAside(projection.name, event);
          this.progress.advanced(projection.name, position, setAside.length ? events.filter((event) => !setAside.includes(event)) : events);
        },
      });
      subscription.done.catch((error: unknown) => this.onError(projection.name, error));
      this.subscriptions.push(subscription);
    }
  }

  /** catches every projection up to the store's head, then returns (used by replay and tests) */
  async catchUp(): Promise<void> {
    const head = await this.store.headPosition();
    await this.progress.waitFor(head, 60 * 60 * 1000);
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
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
