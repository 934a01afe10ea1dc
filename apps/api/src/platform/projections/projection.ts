import type { Kysely, Transaction } from 'kysely';
import type { StoredEvent } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { StoredEventRows } from './stored-event-rows';

/**
 * A projection turns events into rows of the tables it owns. `apply` runs inside the runner's
 * transaction, which also writes the checkpoint, so a crash never loses or doubles an event.
 * Rebuilding drops the tables (`drop`) and replays from position 0.
 */
export interface Projection {
  /** versioned name, e.g. 'accounts_v1'; a changed projection gets a new name and rebuilds */
  readonly name: string;
  /** event types it reacts to, others skipped without a call; 'all' for every event (the event log) */
  readonly eventTypes: readonly string[] | 'all';
  /** creates the tables (idempotent) */
  setup(db: Kysely<ReadDatabase>): Promise<void>;
  /**
   * Optional: secondary indexes, created after `setup`. A rebuild creates them only after the replay,
   * because filling an indexed table costs far more than indexing it once at the end.
   */
  createIndexes?(db: Kysely<ReadDatabase>): Promise<void>;
  drop(db: Kysely<ReadDatabase>): Promise<void>;
  apply(trx: Transaction<ReadDatabase>, event: StoredEvent): Promise<void>;
  /**
   * Optional: apply an ordered batch (only the events of `eventTypes`) with fewer statements, e.g.
   * multi-row inserts. Must leave exactly the rows that applying one by one would.
   */
  applyBatch?(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void>;
  /**
   * Optional, rebuilds only, for a projection of every event type ('all'): writes what `applyBatch`
   * would for `events` (every stored event from the first's position to the last's, as the store serves
   * them) by SQL from the store's own `rows`, where the rebuild can read them (stored-event-rows.ts).
   * Must leave exactly the rows `applyBatch` would.
   */
  copyBatch?(trx: Transaction<ReadDatabase>, rows: StoredEventRows, events: StoredEvent[]): Promise<void>;
}
