import type { Kysely } from 'kysely';
import type { Position, StoredEvent } from '../event-store/event-store.port';
import { START } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';

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
