import type { Kysely } from 'kysely';
import { START, type EventStore, type Position, type StoredEvent, type Subscription } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import type { ProjectionProgress } from './projection-progress';

export async function ensureCheckpointTable(db: Kysely<ReadDatabase>): Promise<void> {
  await db.schema
    .createTable('projection_checkpoints')
    .ifNotExists()
    .addColumn('projection', 'text', (c) => c.primaryKey())
    .addColumn('position_commit', 'bigint', (c) => c.notNull())
    .addColumn('position_sequence', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .execute();
}

export async function readCheckpoint(db: Kysely<ReadDatabase>, projection: string): Promise<Position> {
  const row = await db.selectFrom('projection_checkpoints').select(['position_commit', 'position_sequence']).where('projection', '=', projection).executeTakeFirst();
  return row ? { commit: Number(row.position_commit), sequence: Number(row.position_sequence) } : START;
}

/**
 * Applies one ordered batch and moves the checkpoint in the same transaction: either both land or
 * neither does.
 */
export async function applyBatch(db: Kysely<ReadDatabase>, projection: Projection, events: StoredEvent[]): Promise<Position> {
  const last = events[events.length - 1].position;
  const relevant = projection.eventTypes === 'all' ? null : new Set(projection.eventTypes);
  await db.transaction().execute(async (trx) => {
    const mine = relevant ? events.filter((event) => relevant.has(event.type)) : events;
    if (projection.applyBatch) {
      if (mine.length) await projection.applyBatch(trx, mine);
    } else {
      for (const event of mine) await projection.apply(trx, event);
    }
    await trx
      .insertInto('projection_checkpoints')
      .values({ projection: projection.name, position_commit: last.commit, position_sequence: last.sequence, updated_at: new Date().toISOString(), last_error: null })
      .onConflict((oc) => oc.column('projection').doUpdateSet({ position_commit: last.commit, position_sequence: last.sequence, updated_at: new Date().toISOString(), last_error: null }))
      .execute();
  });
  return last;
}

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
  ) {}

  async setup(): Promise<void> {
    await ensureCheckpointTable(this.db);
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
          const position = await applyBatch(this.db, projection, events);
          this.progress.advanced(projection.name, position, events);
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
  for (const projection of projections) {
    await projection.drop(db);
    await db.deleteFrom('projection_checkpoints').where('projection', '=', projection.name).execute();
    await projection.setup(db);
  }
  let from: Position = START;
  let replayed = 0;
  for (;;) {
    const events = await store.readAll(from, batchSize);
    if (events.length === 0) break;
    for (const projection of projections) await applyBatch(db, projection, events);
    from = events[events.length - 1].position;
    replayed += events.length;
    onProgress(replayed);
  }
  for (const projection of projections) await projection.createIndexes?.(db);
  return replayed;
}
