/** Read tables of the event log (docs/api/compat.md, 'Event log'). */

/**
 * event_log_v1: one row per stored event, owned by EventLogProjection. The position pair is the
 * primary key and the newest-first order; `payload` and `metadata` are the event's JSON text.
 */
export interface EventLogTable {
  position_commit: number;
  position_sequence: number;
  /** compared byte-wise (COLLATE "C" on PostgreSQL) so a prefix is one index range */
  stream_id: string;
  stream_version: number;
  event_type: string;
  event_id: string;
  actor: string;
  actor_kind: string;
  source_ip: string | null;
  correlation_id: string;
  causation_id: string | null;
  /** metadata occurredAt as ISO-8601 UTC (toISOString), so text order is time order */
  recorded_at: string;
  schema_version: number;
  payload: string;
  metadata: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    event_log_v1: EventLogTable;
  }
}
