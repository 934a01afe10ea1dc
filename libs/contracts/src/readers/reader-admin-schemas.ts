import { z } from 'zod';
import { ZAccountId, ZBooleanish } from '../accounts/account-schemas';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, lineText, requiredLine, TEXT_MAX, TOKEN_TEXT_MAX, uuidOf } from '../common/text';

/**
 * Door readers as administrators manage them (not in the spec; docs/readers.md): register, rename,
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

export const READER_CONNECTIONS = ['never', 'online', 'late', 'offline'] as const;
export type TReaderConnection = (typeof READER_CONNECTIONS)[number];

/** A reader as the console lists it; last contact and queue depth are what it last reported. */
export const ZReader = z.object({
  id: answerId(),
  name: answerText(TEXT_MAX),
  door: answerText(TEXT_MAX),
  role: z.enum(READER_ROLES),
  /** the token's recognisable prefix, never the token; null when it has none */
  token_prefix: answerText(64).nullable(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
  last_contact_at: answerTimestamp().nullable(),
  queue_depth: z.number().int().nullable(),
  connection: z.enum(READER_CONNECTIONS),
  backlog: z.boolean(),
  /** armed for an account's card, until `expires_at` */
  register_mode: z.object({ account_id: answerId(), expires_at: answerTimestamp() }).nullable(),
  /** the highest sequence acknowledged (0 before the first scan) */
  last_sequence: z.number().int(),
  /** from the agent's last health report: its oldest unsent scan (null: none queued, or no report) */
  oldest_queued_at: answerTimestamp().nullable(),
  /** from the agent's last health report: our receipt time minus its clock (null: no report yet) */
  clock_skew_ms: z.number().int().nullable(),
  /** from the agent's last health report: scan intake ('storage_failed': its outbox cannot be written); null from older agents */
  intake: z.object({ state: z.enum(['ok', 'storage_failed', 'gave_up']), error: answerText().nullable(), since: answerTimestamp().nullable() }).nullable().optional(),
  /** from the agent's last health report: scans set aside on the box (refused for good), and the latest one */
  dead_letters: z.number().int().nullable().optional(),
  last_dead_letter: z.object({ sequence: z.number().int(), card_uid: answerText(64), code: answerText(100), message: answerText(), refused_at: answerTimestamp() }).nullable().optional(),
});
export type TReader = z.infer<typeof ZReader>;

/** The answer to issuing a token, the only time the token is shown. */
export const ZIssuedReaderToken = z.object({ reader_id: answerId(), token: answerText(TOKEN_TEXT_MAX), token_prefix: answerText(64) });
export type TIssuedReaderToken = z.infer<typeof ZIssuedReaderToken>;
