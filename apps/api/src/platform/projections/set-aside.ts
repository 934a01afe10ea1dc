import type { Kysely } from 'kysely';
import { comparePositions, formatPosition, type EventStore, type Position, type StoredEvent } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import { applyBatch, moveCheckpoints } from './projection-checkpoints';
import type { StoredEventRows } from './stored-event-rows';

/**
 * Poison events (docs/running-in-production.md, 'Read models that set events aside'): an event a
 * projection cannot apply is set aside, so one bad event never stops a read model for everyone. Only
 * failures that belong to the event are set aside: the projection's own code throwing on its data
 * (TypeError and its kin) and the read database refusing the row (constraint and data errors).
 * Anything else (disk, locks, a lost connection) says nothing about the event: the projection stops as
 * before, /readyz reports it, and nothing is skipped.
 */
export async function ensureSetAsideTable(db: Kysely<ReadDatabase>): Promise<void> {
  await db.schema
    .createTable('projection_set_aside')
    .ifNotExists()
    .addColumn('projection', 'text', (c) => c.notNull())
    .addColumn('position_commit', 'bigint', (c) => c.notNull())
    .addColumn('position_sequence', 'bigint', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('set_aside_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('projection_set_aside_pk', ['projection', 'position_commit', 'position_sequence'])
    .execute();
}

const EVENT_FAULTS = [TypeError, RangeError, SyntaxError, ReferenceError];

/** true when the failure is the event's (its data broke the projection), not the storage's */
export function isEventFault(error: unknown): boolean {
  if (EVENT_FAULTS.some((kind) => error instanceof kind)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  // SQLite: constraint, mismatched type, too big; PostgreSQL: classes 22 (data exception) and 23 (integrity)
  return /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(code) || /^2[23][0-9A-Z]{3}$/.test(code);
}

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000);

/**
 * Applies a batch; when it fails on an event's fault, applies the events one by one and sets aside
 * each one that fails (recorded with its error, the checkpoint moved past it in the same transaction),
 * so the events after it still land. The checkpoint ends at `through` (applyBatch). Returns the new
 * position and the events set aside.
 */
export async function applyBatchSettingAside(
  db: Kysely<ReadDatabase>,
  projection: Projection,
  events: StoredEvent[],
  rows: StoredEventRows | null = null,
  through: Position = events[events.length - 1].position,
): Promise<{ position: Position; setAside: StoredEvent[] }> {
  try {
    return { position: await applyBatch(db, projection, events, rows, through), setAside: [] };
  } catch (error) {
    if (!isEventFault(error)) throw error;
  }
  const setAside: StoredEvent[] = [];
  for (const event of events) {
    try {
      await applyBatch(db, projection, [event], rows);
    } catch (error) {
      if (!isEventFault(error)) throw error;
      await setEventAside(db, projection.name, event, error);
      setAside.push(event);
    }
  }
  // the batch it was given may end after its last event (a rebuild hands each projection its own types)
  if (comparePositions(through, events[events.length - 1].position) > 0) await moveCheckpoints(db, [projection.name], through);
  return { position: through, setAside };
}

async function setEventAside(db: Kysely<ReadDatabase>, projection: string, event: StoredEvent, error: unknown): Promise<void> {
  const now = new Date().toISOString();
  const message = describe(error);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projection_set_aside')
      .values({ projection, position_commit: event.position.commit, position_sequence: event.position.sequence, stream_id: event.streamId, event_type: event.type, error: message, set_aside_at: now, attempts: 1 })
      .onConflict((oc) => oc.columns(['projection', 'position_commit', 'position_sequence']).doUpdateSet({ error: message, set_aside_at: now }))
      .execute();
    await trx
      .insertInto('projection_checkpoints')
      .values({ projection, position_commit: event.position.commit, position_sequence: event.position.sequence, updated_at: now, last_error: `${formatPosition(event.position)} ${event.type}: ${message}` })
      .onConflict((oc) => oc.column('projection').doUpdateSet({ position_commit: event.position.commit, position_sequence: event.position.sequence, updated_at: now, last_error: `${formatPosition(event.position)} ${event.type}: ${message}` }))
      .execute();
  });
}

/** the position just before `position`: `readAll` from it starts with the event at `position` */
export function positionBefore(position: Position): Position {
  if (position.sequence > 0) return { commit: position.commit, sequence: position.sequence - 1 };
  return position.commit > 0 ? { commit: position.commit - 1, sequence: Number.MAX_SAFE_INTEGER } : position;
}

export type RetryOutcome = { applied: true } | { applied: false; error: string };

/**
 * Applies a set-aside event again, where the read model stands now (projections write rows by key,
 * so a late event lands as it would have). On success the event leaves the set-aside list in the
 * same transaction; on failure it stays, with the new error and one more attempt counted.
 */
export async function retrySetAside(store: EventStore, db: Kysely<ReadDatabase>, projection: Projection, position: Position): Promise<RetryOutcome | null> {
  const row = await db
    .selectFrom('projection_set_aside')
    .select('attempts')
    .where('projection', '=', projection.name)
    .where('position_commit', '=', position.commit)
    .where('position_sequence', '=', position.sequence)
    .executeTakeFirst();
  if (!row) return null;
  const [event] = await store.readAll(positionBefore(position), 1);
  if (!event || event.position.commit !== position.commit || event.position.sequence !== position.sequence) return null;
  try {
    await db.transaction().execute(async (trx) => {
      await projection.apply(trx, event);
      await trx.deleteFrom('projection_set_aside').where('projection', '=', projection.name).where('position_commit', '=', position.commit).where('position_sequence', '=', position.sequence).execute();
    });
    return { applied: true };
  } catch (error) {
    if (!isEventFault(error)) throw error;
    const message = describe(error);
    await db
      .updateTable('projection_set_aside')
      .set({ error: message, attempts: Number(row.attempts) + 1, set_aside_at: new Date().toISOString() })
      .where('projection', '=', projection.name)
      .where('position_commit', '=', position.commit)
      .where('position_sequence', '=', position.sequence)
      .execute();
    return { applied: false, error: message };
  }
}
