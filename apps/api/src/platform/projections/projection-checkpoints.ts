import type { Kysely } from 'kysely';
import type { Position, StoredEvent } from '../event-store/event-store.port';
import { START } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import type { StoredEventRows } from './stored-event-rows';

/** Where each projection stands, kept in the read database with the rows it wrote. */
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

/** the events of a batch that a projection reacts to (its `eventTypes`), in order */
export function eventsFor(projection: Projection, events: StoredEvent[]): StoredEvent[] {
  if (projection.eventTypes === 'all') return events;
  let types = eventTypeSets.get(projection);
  if (!types) eventTypeSets.set(projection, (types = new Set(projection.eventTypes)));
  const wanted = types;
  return events.filter((event) => wanted.has(event.type));
}
const eventTypeSets = new WeakMap<Projection, Set<string>>();

/**
 * Moves the checkpoints of projections that had nothing to write in a batch, in one statement: their
 * read models are unchanged, so no transaction of their own is needed to keep rows and checkpoint
 * together. Checkpoints only ever move forward here (the runner passes each batch's last position).
 */
export async function moveCheckpoints(db: Kysely<ReadDatabase>, projections: readonly string[], position: Position): Promise<void> {
  if (projections.length === 0) return;
  const updatedAt = new Date().toISOString();
  await db
    .insertInto('projection_checkpoints')
    .values(projections.map((projection) => ({ projection, position_commit: position.commit, position_sequence: position.sequence, updated_at: updatedAt, last_error: null })))
    .onConflict((oc) => oc.column('projection').doUpdateSet({ position_commit: position.commit, position_sequence: position.sequence, updated_at: updatedAt, last_error: null }))
    .execute();
}

/**
 * Applies one ordered batch and moves the checkpoint in the same transaction: either both land or
 * neither does. The checkpoint moves to `through`: the batch's last event, or, when a rebuild hands a
 * projection only the events of its types, the last event of the batch they were taken from. With
 * `rows` (a rebuild that can read the store's rows by SQL), a projection that copies them
 * (`copyBatch`) writes its rows that way.
 */
export async function applyBatch(db: Kysely<ReadDatabase>, projection: Projection, events: StoredEvent[], rows: StoredEventRows | null = null, through: Position = events[events.length - 1].position): Promise<Position> {
  await db.transaction().execute(async (trx) => {
    const mine = eventsFor(projection, events);
    if (rows && projection.copyBatch && projection.eventTypes === 'all') {
      if (mine.length) await projection.copyBatch(trx, rows, mine);
    } else if (projection.applyBatch) {
      if (mine.length) await projection.applyBatch(trx, mine);
    } else {
      for (const event of mine) await projection.apply(trx, event);
    }
    await trx
      .insertInto('projection_checkpoints')
      .values({ projection: projection.name, position_commit: through.commit, position_sequence: through.sequence, updated_at: new Date().toISOString(), last_error: null })
      .onConflict((oc) => oc.column('projection').doUpdateSet({ position_commit: through.commit, position_sequence: through.sequence, updated_at: new Date().toISOString(), last_error: null }))
      .execute();
  });
  return through;
}
