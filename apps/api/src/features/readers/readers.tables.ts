/** Read tables of door readers (docs/adr/0013). */

/** readers_v1: one row per live reader, owned by ReadersProjection */
export interface ReaderTable {
  id: string;
  name: string;
  door: string;
  role: 'door' | 'enrollment';
  /** SHA-256 (hex) of its token; null when it has none */
  token_hash: string | null;
  token_prefix: string | null;
  register_mode_account_id: string | null;
  register_mode_started_by: string | null;
  register_mode_expires_at: string | null;
  /** the highest sequence its ledger acknowledged */
  last_sequence: number;
  created_at: string;
  updated_at: string;
}

/**
 * reader_health: the latest report of each reader (last contact, queue depth, oldest queued scan,
 * clock skew, device, version). Operational data, not
 * an event (ADR 0013): written by ReaderHealthRecorder, last write wins.
 */
export interface ReaderHealthTable {
  reader_id: string;
  last_contact_at: string;
  queue_depth: number | null;
  device_connected: number | null;
  agent_version: string | null;
  /** the oldest scan still in the agent's queue when it reported (null: empty queue) */
  oldest_queued_at: string | null;
  /** the agent's clock against ours at its last report: receipt time minus its `sent_at` */
  clock_skew_ms: number | null;
  /** the agent's scan intake: ok, storage_failed (its outbox cannot be written), gave_up */
  intake_state: string | null;
  intake_error: string | null;
  intake_since: string | null;
  /** scans set aside on the box, and the latest one as JSON (sequence, card_uid, code, message, refused_at) */
  dead_letters: number | null;
  last_dead_letter: string | null;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    readers_v1: ReaderTable;
    reader_health: ReaderHealthTable;
  }
}
