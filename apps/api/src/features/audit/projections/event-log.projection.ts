import { CompiledQuery, PostgresAdapter, sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { erasePersonalData, PERSONAL_DATA_ERASED_EVENT, PERSONAL_DATA_RULES, personalDataSubject } from '@rollcall/contracts';
import { accountStream } from '@rollcall/domain';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Projection } from '../../../platform/projections/projection';
import type { StoredEventRows } from '../../../platform/projections/stored-event-rows';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { EventLogTable } from '../audit.tables';
import { copyOpenedRows, copyStoredRows, notCopied } from './event-log-copy';

const TABLE = 'event_log_v1';
/** rows per statement, as read-db/bulk-insert.ts (larger statements measured no faster) */
const CHUNK_ROWS = 500;
/** what toISOString writes: such a time is kept as it is, anything else is normalized */
const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function canonicalTime(value: string): string {
  if (CANONICAL_TIME.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? String(value) : new Date(time).toISOString();
}

/** what the log keeps of an event; occurredAt normalized to toISOString so text order is time order */
export function toEventLogRow(event: StoredEvent): Insertable<EventLogTable> {
  const metadata = event.metadata;
  return {
    position_commit: event.position.commit,
    position_sequence: event.position.sequence,
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    event_type: event.type,
    event_id: metadata.eventId,
    actor: metadata.actor,
    actor_kind: metadata.actorKind,
    source_ip: metadata.sourceIp ?? null,
    correlation_id: metadata.correlationId,
    causation_id: metadata.causationId ?? null,
    recorded_at: canonicalTime(metadata.occurredAt),
    schema_version: event.schemaVersion,
    payload: JSON.stringify(event.data ?? null),
    metadata: JSON.stringify(metadata),
  };
}

const COLUMNS = Object.keys(
  toEventLogRow({ streamId: '', streamVersion: 0, position: { commit: 0, sequence: 0 }, type: '', data: null, schemaVersion: 1, metadata: { eventId: '', actor: '', actorKind: 'system', sourceIp: null, correlationId: '', causationId: null, occurredAt: '' } }),
) as Array<keyof EventLogTable>;

/** compiled multi-row insert SQL per dialect adapter and row count (as read-db/bulk-insert.ts, with a two-column conflict target) */
const compiledInserts = new WeakMap<object, Map<number, string>>();

/**
 * event_log_v1: the whole history, one row per event, for the Event log screen and its export.
 * It sees every event, so it writes append-only multi-row inserts (500 rows a statement, SQL compiled
 * once per size) and never reads; ON CONFLICT DO NOTHING on the position keeps a replayed batch
 * harmless. Binding 15 values and two JSON texts per event made it the dearest projection in a rebuild
 * (measured on 200,000 account events, SQLite: about 3 s of its own, as much as all others together),
 * so a rebuild on SQLite copies the rows from the store's own rows instead (`copyBatch`,
 * event-log-copy.ts).
 */
export class EventLogProjection implements Projection {
  readonly name = TABLE;
  /** every event, whatever area appends it: a new event type can never be missing from the log */
  readonly eventTypes = 'all' as const;

  async setup(db: Kysely<ReadDatabase>): Promise<void> {
    // byte order for stream ids on PostgreSQL too: a prefix filter is then one contiguous index range
    const byteOrder = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable(TABLE)
      .ifNotExists()
      .addColumn('position_commit', 'bigint', (c) => c.notNull())
      .addColumn('position_sequence', 'bigint', (c) => c.notNull())
      .addColumn('stream_id', 'text', (c) => (byteOrder ? c.notNull().modifyFront(sql`collate "C"`) : c.notNull()))
      .addColumn('stream_version', 'integer', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('source_ip', 'text')
      .addColumn('correlation_id', 'text', (c) => c.notNull())
      .addColumn('causation_id', 'text')
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addColumn('schema_version', 'integer', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_log_v1_pk', ['position_commit', 'position_sequence'])
      .execute();
  }

  async createIndexes(db: Kysely<ReadDatabase>): Promise<void> {
    // each filter, newest first within it (the primary key serves the unfiltered log)
    const positionFirst = ['position_commit', 'position_sequence'] as const;
    await db.schema.createIndex('event_log_v1_stream').ifNotExists().on(TABLE).columns(['stream_id', ...positionFirst]).execute();
    await db.schema.createIndex('event_log_v1_type').ifNotExists().on(TABLE).columns(['event_type', ...positionFirst]).execute();
    await db.schema.createIndex('event_log_v1_actor').ifNotExists().on(TABLE).columns(['actor', ...positionFirst]).execute();
    await db.schema.createIndex('event_log_v1_correlation').ifNotExists().on(TABLE).columns(['correlation_id', ...positionFirst]).execute();
    await db.schema.createIndex('event_log_v1_recorded_at').ifNotExists().on(TABLE).columns(['recorded_at']).execute();
  }

  async drop(db: Kysely<ReadDatabase>): Promise<void> {
    await db.schema.dropTable(TABLE).ifExists().execute();
  }

  async apply(trx: Transaction<ReadDatabase>, event: StoredEvent): Promise<void> {
    await this.applyBatch(trx, [event]);
  }

  async applyBatch(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void> {
    await insertRows(trx, events);
    await eraseErasedAccounts(trx, events);
  }

  /**
   * A rebuild on SQLite (stored-event-rows.ts): the rows are copied from the store's own rows with one
   * `INSERT ... SELECT`, the same rows `applyBatch` writes. The events whose payload the store serves
   * otherwise than it stores it (the personal data vault opens their sealed fields, docs/adr/0015) take
   * their payload from `events`, everything else from the stored row. A row the copy cannot vouch for
   * (metadata shaped otherwise than the API writes it) is left to `applyBatch`'s way, so even such a
   * row reads, or fails and is set aside, exactly as it would there.
   */
  async copyBatch(trx: Transaction<ReadDatabase>, rows: StoredEventRows, events: StoredEvent[]): Promise<void> {
    const copied = (await copyStoredRows(trx, rows, events)) + (await copyOpenedRows(trx, rows, events));
    if (copied < events.length) await insertRows(trx, await notCopied(trx, events));
    await eraseErasedAccounts(trx, events);
  }
}

/** the JavaScript way: each event's row bound value by value, 500 rows a statement */
async function insertRows(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void> {
  const adapter = trx.getExecutor().adapter;
  let compiled = compiledInserts.get(adapter);
  if (!compiled) compiledInserts.set(adapter, (compiled = new Map()));
  for (let start = 0; start < events.length; start += CHUNK_ROWS) {
    const rows = events.slice(start, start + CHUNK_ROWS).map(toEventLogRow);
    let sqlText = compiled.get(rows.length);
    if (sqlText === undefined) {
      sqlText = trx
        .insertInto(TABLE)
        .values(rows)
        .onConflict((oc) => oc.columns(['position_commit', 'position_sequence']).doNothing())
        .compile().sql;
      compiled.set(rows.length, sqlText);
    }
    const parameters: unknown[] = new Array(rows.length * COLUMNS.length);
    let index = 0;
    for (const row of rows) for (const column of COLUMNS) parameters[index++] = row[column];
    await trx.executeQuery(CompiledQuery.raw(sqlText, parameters));
  }
}

async function eraseErasedAccounts(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<void> {
  for (const event of events) if (event.type === PERSONAL_DATA_ERASED_EVENT) await eraseFromLog(trx, personalDataSubject(event.data));
}

/**
 * The log keeps each payload as it was read, personal fields opened: an erasure (docs/adr/0015)
 * rewrites the account's personal events as they now read from the store. A rebuild needs none of
 * this (the store already serves them erased), so it only matters for rows written before.
 */
async function eraseFromLog(trx: Transaction<ReadDatabase>, accountId: string): Promise<void> {
  const rows = await trx
    .selectFrom(TABLE)
    .select(['position_commit', 'position_sequence', 'event_type', 'payload'])
    .where('stream_id', '=', accountStream(accountId))
    .where('event_type', 'in', Object.keys(PERSONAL_DATA_RULES))
    .execute();
  for (const row of rows) {
    await trx
      .updateTable(TABLE)
      .set({ payload: JSON.stringify(erasePersonalData(row.event_type, JSON.parse(row.payload) as Record<string, unknown>)) })
      .where('position_commit', '=', row.position_commit)
      .where('position_sequence', '=', row.position_sequence)
      .execute();
  }
}
