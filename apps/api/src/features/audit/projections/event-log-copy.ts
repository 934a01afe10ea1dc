import { CompiledQuery, type Transaction } from 'kysely';
import { PERSONAL_DATA_RULES, personalDataRuleOf } from '@rollcall/contracts';
import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { StoredEventRows } from '../../../platform/projections/stored-event-rows';
import type { ReadDatabase } from '../../../platform/read-db/read-database';

/**
 * The event log's rows copied from the event store's own rows during a rebuild on SQLite
 * (platform/projections/stored-event-rows.ts), instead of binding fifteen values per event from
 * JavaScript: what a rebuild spent most of its time on (docs/benchmarks.md, 'rebuild-1m').
 *
 * Each column is what toEventLogRow (event-log.projection.ts) makes of the event:
 * - payload and metadata: the stored text. The store writes it with JSON.stringify, and
 *   JSON.stringify(JSON.parse(text)) gives such a text back unchanged, which is what the JavaScript
 *   path stores. Except the payload of the events the personal data vault opens (docs/adr/0015): their
 *   stored text holds the sealed fields, so their payload comes from the event as the store served it.
 * - the metadata fields: json_extract of the same text, for a row whose metadata is plain: the text
 *   fields texts (source IP and causation may be null or missing, as `?? null` reads them), occurredAt
 *   already in toISOString's form (canonicalTime keeps those as they are), and no \u escape (a lone
 *   surrogate or a NUL reaches SQLite as the driver converts JavaScript strings, which SQLite's JSON
 *   functions need not match on every driver version; measured equal on better-sqlite3 12). The API
 *   writes such metadata; any other row is not copied, and the caller writes it the JavaScript way.
 *   (The text is valid JSON: the store writes nothing else, as above.)
 */

const COLUMNS = 'position_commit, position_sequence, stream_id, stream_version, event_type, event_id, actor, actor_kind, source_ip, correlation_id, causation_id, recorded_at, schema_version, payload, metadata';

/** the log's columns from stored row `e`, but the payload */
const FROM_STORED_ROW = (payload: string) => `e.position, e.position, e.stream_id, e.stream_version, e.type,
  json_extract(e.metadata, '$.eventId'), json_extract(e.metadata, '$.actor'), json_extract(e.metadata, '$.actorKind'),
  json_extract(e.metadata, '$.sourceIp'), json_extract(e.metadata, '$.correlationId'), json_extract(e.metadata, '$.causationId'),
  json_extract(e.metadata, '$.occurredAt'), e.schema_version, ${payload}, e.metadata`;

/** the rows whose metadata the copy reads as toEventLogRow does (see above) */
const PLAIN_METADATA = `json_type(e.metadata, '$.eventId') = 'text' AND json_type(e.metadata, '$.actor') = 'text'
  AND json_type(e.metadata, '$.actorKind') = 'text' AND json_type(e.metadata, '$.correlationId') = 'text'
  AND coalesce(json_type(e.metadata, '$.sourceIp'), 'null') IN ('null', 'text')
  AND coalesce(json_type(e.metadata, '$.causationId'), 'null') IN ('null', 'text')
  AND json_extract(e.metadata, '$.occurredAt') GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
  AND instr(e.metadata, '\\u') = 0`;

/** the event types whose payload the vault opens on the way out */
const OPENED_TYPES = Object.keys(PERSONAL_DATA_RULES);

/** rows per statement of opened payloads, as the JavaScript path's inserts */
const CHUNK_ROWS = 500;

const source = (rows: StoredEventRows) => `"${rows.schema}"."${rows.table}"`;

/** the SQL text per source and statement shape, built once */
const statements = new Map<string, string>();

function statement(key: string, build: () => string): string {
  let text = statements.get(key);
  if (text === undefined) statements.set(key, (text = build()));
  return text;
}

/**
 * Copies the rows of the events between the first and last of `events` whose payload is stored as the
 * store serves it (every type the vault leaves alone). Returns the number of rows written.
 */
export async function copyStoredRows(trx: Transaction<ReadDatabase>, rows: StoredEventRows, events: StoredEvent[]): Promise<number> {
  const text = statement(`stored|${source(rows)}`, () => {
    const opened = OPENED_TYPES.map(() => '?').join(', ');
    return `INSERT INTO event_log_v1 (${COLUMNS})
      SELECT ${FROM_STORED_ROW('e.data')}
      FROM ${source(rows)} e
      WHERE e.position BETWEEN ? AND ? AND e.type NOT IN (${opened}) AND ${PLAIN_METADATA}
      ORDER BY e.position
      ON CONFLICT (position_commit, position_sequence) DO NOTHING`;
  });
  const result = await trx.executeQuery(CompiledQuery.raw(text, [events[0].position.commit, events[events.length - 1].position.commit, ...OPENED_TYPES]));
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Copies the rows of the events of `events` whose payload the vault opens, with the payload as served.
 * Returns the number of rows written.
 */
export async function copyOpenedRows(trx: Transaction<ReadDatabase>, rows: StoredEventRows, events: StoredEvent[]): Promise<number> {
  const opened = events.filter((event) => personalDataRuleOf(event.type) !== undefined);
  let copied = 0;
  for (let start = 0; start < opened.length; start += CHUNK_ROWS) {
    const chunk = opened.slice(start, start + CHUNK_ROWS);
    const text = statement(`opened|${source(rows)}|${chunk.length}`, () => {
      const values = chunk.map(() => '(?, ?)').join(', ');
      // the given rows drive the join: each finds its stored row by position (the rowid)
      return `INSERT INTO event_log_v1 (${COLUMNS})
        SELECT ${FROM_STORED_ROW('given.column2')}
        FROM (VALUES ${values}) AS given JOIN ${source(rows)} e ON e.position = given.column1
        WHERE ${PLAIN_METADATA}
        ON CONFLICT (position_commit, position_sequence) DO NOTHING`;
    });
    const parameters: unknown[] = [];
    for (const event of chunk) parameters.push(event.position.commit, JSON.stringify(event.data ?? null));
    const result = await trx.executeQuery(CompiledQuery.raw(text, parameters));
    copied += Number(result.numAffectedRows ?? 0);
  }
  return copied;
}

/** the events of `events` the copies left out: their rows are not in the log */
export async function notCopied(trx: Transaction<ReadDatabase>, events: StoredEvent[]): Promise<StoredEvent[]> {
  const present = await trx
    .selectFrom('event_log_v1')
    .select('position_commit')
    .where('position_commit', '>=', events[0].position.commit)
    .where('position_commit', '<=', events[events.length - 1].position.commit)
    .execute();
  const written = new Set(present.map((row) => Number(row.position_commit)));
  return events.filter((event) => !written.has(event.position.commit));
}
