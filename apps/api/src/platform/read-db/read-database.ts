/**
 * The read database's tables. The platform declares its own here; each feature declares its tables in
 * its `<area>.tables.ts` and adds them to ReadDatabase by declaration merging (docs/adr/0022), so the
 * platform never imports a feature. Each table is owned by exactly one projection (named with a version).
 */

export interface ProjectionCheckpointTable {
  projection: string;
  position_commit: number;
  position_sequence: number;
  updated_at: string;
  last_error: string | null;
}

/**
 * Mails waiting to be sent (docs/adr/0008). Not a read model: written by command handlers, drained
 * by the sender, never rebuilt. `body` holds the clear link only until the row is sent or given up.
 */
export interface MailOutboxTable {
  id: string;
  kind: string;
  account_id: string | null;
  recipient: string;
  subject: string;
  body: string;
  /** pending | sent | failed | superseded */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** a sender holds the row until then; a crash lets it expire and another attempt is made */
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** events a projection could not apply, kept aside (platform/projections/set-aside.ts) */
export interface ProjectionSetAsideTable {
  projection: string;
  position_commit: number;
  position_sequence: number;
  stream_id: string;
  event_type: string;
  error: string;
  set_aside_at: string;
  attempts: number;
}

export interface ReadDatabase {
  projection_checkpoints: ProjectionCheckpointTable;
  projection_set_aside: ProjectionSetAsideTable;
  mail_outbox_v1: MailOutboxTable;
}
