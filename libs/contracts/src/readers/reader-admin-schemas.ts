import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { boundedText, lineText, requiredLine, TEXT_MAX, uuidOf } from '../common/text';

/**
 * Door readers as administrators manage them (not in the spec; issue 6 point 1): register, rename,
 * move, issue and revoke the token, reset the numbering, and register mode for smart cards
 * (`POST scanner/mode/register/{account}`, `POST scanner/cancel`).
 */
export const READER_ROLES = ['door', 'enrollment'] as const;
export type TReaderRole = (typeof READER_ROLES)[number];
/** every reader token starts with this, so a leaked one is recognisable and never taken for an access token (`rc_`) */
export const READER_TOKEN_PREFIX = 'rcr_';

export const ZReaderId = uuidOf('reader id', 'reader id must be a UUID', 'reader id is required');

const required = (label: string) => requiredLine(label, TEXT_MAX);

export const ZReaderRole = z.enum(READER_ROLES, { error: `Role must be one of ${READER_ROLES.join(', ')}` });

/** `POST readers`: a new reader; its token is issued separately and shown once */
export const ZRegisterReaderInput = z.object({ name: required('Name'), door: required('Door'), role: ZReaderRole });
export type TRegisterReaderInput = z.input<typeof ZRegisterReaderInput>;

/** `PATCH readers/{id}/name` */
export const ZRenameReaderInput = z.object({ name: required('Name') });
/** `PATCH readers/{id}/door` */
export const ZMoveReaderInput = z.object({ door: required('Door') });

export const SCAN_RESET_REASON_MAX = 500;
/** `POST readers/{id}/reset-sequence`: the reader's queue was wiped and it numbers from 1 again */
export const ZResetScanSequenceInput = z.object({
  reason: boundedText('The reason', SCAN_RESET_REASON_MAX, { trim: true, multiline: true, typeError: 'Say why the reader may number its scans from 1 again' }).min(1, {
    error: 'Say why the reader may number its scans from 1 again',
  }),
});

export const READER_SORT_FIELDS = ['name', 'door', 'created_at', 'last_contact_at'] as const;

/** `GET readers`: server paging, search on name and door, role filter, sort */
export const ZListReadersInput = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, { error: 'page starts at 1' }).default(1),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit may be at most 100' }).default(10),
  search: lineText('search').optional(),
  role: ZReaderRole.optional(),
  sortBy: z.enum(READER_SORT_FIELDS, { error: `sortBy must be one of ${READER_SORT_FIELDS.join(', ')}` }).default('name'),
  desc: ZBooleanish.default(false),
});
export type TListReadersQuery = z.output<typeof ZListReadersInput>;

/** `POST scanner/mode/register/{account_id}` has no body: the account comes from the path */
export const ZScannerRegisterParams = z.object({ account_id: ZAccountId });

export const ZReaderById = z.object({ id: ZReaderId });

export type TReaderConnection = 'never' | 'online' | 'late' | 'offline';

/** A reader as the console lists it; last contact and queue depth are what it last reported. */
export interface TReader {
  id: string;
  name: string;
  door: string;
  role: TReaderRole;
  /** the token's recognisable prefix, never the token; null when it has none */
  token_prefix: string | null;
  created_at: string;
  updated_at: string;
  last_contact_at: string | null;
  queue_depth: number | null;
  connection: TReaderConnection;
  backlog: boolean;
  /** armed for an account's card, until `expires_at` */
  register_mode: { account_id: string; expires_at: string } | null;
  /** the highest sequence acknowledged (0 before the first scan) */
  last_sequence: number;
  /** from the agent's last health report: its oldest unsent scan (null: none queued, or no report) */
  oldest_queued_at: string | null;
  /** from the agent's last health report: our receipt time minus its clock (null: no report yet) */
  clock_skew_ms: number | null;
  /** from the agent's last health report: scan intake ('storage_failed': its outbox cannot be written); null from older agents */
  intake?: { state: 'ok' | 'storage_failed' | 'gave_up'; error: string | null; since: string | null } | null;
  /** from the agent's last health report: scans set aside on the box (refused for good), and the latest one */
  dead_letters?: number | null;
  last_dead_letter?: { sequence: number; card_uid: string; code: string; message: string; refused_at: string } | null;
}

/** The answer to issuing a token, the only time the token is shown. */
export interface TIssuedReaderToken {
  reader_id: string;
  token: string;
  token_prefix: string;
}
