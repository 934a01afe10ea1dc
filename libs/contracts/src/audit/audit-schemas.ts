import { z } from 'zod';
import { isRealDate } from '../common/dates';
import { answerTimestamp } from '../common/answers';
import { fieldRule } from '../errors/field-rule-codes';
import { answerText, boundedText, TEXT_MAX, uuidOf } from '../common/text';

/**
 * The event log (docs/api/compat.md, 'Event log'): every stored event, newest first, paged by a keyset cursor. Inputs of
 * REST v2 (`GET audit/events`, `GET audit/events/export`) and tRPC `audit.events`.
 */
export const AUDIT_EVENTS_LIMIT_MAX = 100;
export const AUDIT_EVENTS_LIMIT_DEFAULT = 50;
/** the most event types one request may name */
export const AUDIT_EVENT_TYPES_MAX = 50;

/** a global position as clients see it: `"<commit>.<sequence>"` (docs/adr/0002) */
export const ZPositionOf = (field: string) =>
  z.string({ error: `${field} must be a position` }).max(33, { error: `${field} must be a position such as 1234.1234`, abort: true }).regex(/^\d{1,16}\.\d{1,16}$/, { error: `${field} must be a position such as 1234.1234` });
export const ZAuditPosition = ZPositionOf('before');

/** a page size: at most AUDIT_EVENTS_LIMIT_MAX */
export const ZAuditLimit = z.coerce
  .number({ error: 'limit must be a number' })
  .int({ error: 'limit must be a whole number' })
  .min(1, { error: 'limit must be at least 1' })
  .max(AUDIT_EVENTS_LIMIT_MAX, { error: `limit may be at most ${AUDIT_EVENTS_LIMIT_MAX}` })
  .default(AUDIT_EVENTS_LIMIT_DEFAULT);

const EVENT_TYPE = /^[A-Z][A-Za-z0-9]{0,99}$/;

/** one type, several as an array (`type=A&type=B`) or comma-separated (`type=A,B`) */
const ZEventTypes = z
  .union([boundedText('type', AUDIT_EVENT_TYPES_MAX * 101), z.array(boundedText('type', 100)).max(AUDIT_EVENT_TYPES_MAX, { error: `type may name at most ${AUDIT_EVENT_TYPES_MAX} event types` })], {
    error: 'type must be event type names',
  })
  .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((type) => type.trim()).filter((type) => type !== ''))
  .refine((types) => types.every((type) => EVENT_TYPE.test(type)), { error: 'type must be event type names such as AccountCreated', params: fieldRule('event_type', { label: 'Event types' }) })
  .refine((types) => types.length <= AUDIT_EVENT_TYPES_MAX, { error: `type may name at most ${AUDIT_EVENT_TYPES_MAX} event types`, params: fieldRule('too_many', { label: 'Event types', max: AUDIT_EVENT_TYPES_MAX }) });

export const ZAuditInstant = (field: string) =>
  boundedText(field, 40, { typeError: `${field} must be a date and time` })
    // a real calendar day: Date.parse takes 2030-02-30 for March 2
    .refine((value) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && isRealDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value)), {
      error: `${field} must be an ISO-8601 date and time, such as 2026-11-22T09:00:00Z`,
      params: fieldRule('date_time', { label: field === 'from' ? 'From' : field === 'to' ? 'To' : field }),
    })
    .transform((value) => new Date(value).toISOString());

/** empty text means 'no filter' (a cleared search field sends '') */
export const optionalAuditFilter = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

const ZStreamText = (field: string) =>
  boundedText(field, 300, { trim: true }).min(1, { error: `${field} must not be empty` });

/** the filters, shared by the page and the export */
export const ZAuditEventFilterShape = {
  /** exactly this stream, e.g. `account-<id>` */
  stream: optionalAuditFilter(ZStreamText('stream')),
  /** every stream whose id starts with this, e.g. `account-` or `account-<id>` (its day streams too) */
  stream_prefix: optionalAuditFilter(ZStreamText('stream_prefix')),
  type: optionalAuditFilter(ZEventTypes),
  /** account id, token id or reader id; `system` for the bootstrap */
  actor: optionalAuditFilter(
    boundedText('actor', 200, { trim: true })
      .min(1)
      // every actor is one of these: a filter that can match nothing is a mistake worth saying
      .refine((value) => value === 'system' || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value), {
        error: 'actor must be an account, access token or door reader id (a UUID), or system',
        params: fieldRule('actor_id', { label: 'Actor' }),
      }),
  ),
  correlation_id: optionalAuditFilter(z.string({ error: 'correlation_id must be text' }).max(100, { error: 'correlation_id must be 1-100 letters, digits, _ . : or -', abort: true }).regex(/^[\w.:-]{1,100}$/, { error: 'correlation_id must be 1-100 letters, digits, _ . : or -' })),
  /**
   * the events of an organization: its own and its sub-organizations' streams, their teams', and the
   * account streams of their current members
   */
  organization: optionalAuditFilter(uuidOf('organization', 'organization must be an organization id (a UUID)', 'organization must be an organization id')),
  /** recorded at or after (inclusive) */
  from: optionalAuditFilter(ZAuditInstant('from')),
  /** recorded before (exclusive) */
  to: optionalAuditFilter(ZAuditInstant('to')),
};

const fromBeforeTo = (value: { from?: string; to?: string }, context: z.RefinementCtx) => {
  if (value.from && value.to && value.from >= value.to) context.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from', params: fieldRule('after', { label: 'To', other: 'From' }) });
};

export const ZAuditEventFilter = z.object(ZAuditEventFilterShape).superRefine(fromBeforeTo);
export type TAuditEventFilterInput = z.input<typeof ZAuditEventFilter>;
export type TAuditEventFilter = z.output<typeof ZAuditEventFilter>;

export const ZAuditEventsInput = z
  .object({
    ...ZAuditEventFilterShape,
    /** the `next_before` of the previous page: events strictly older than this position */
    before: optionalAuditFilter(ZAuditPosition),
    limit: ZAuditLimit,
  })
  .superRefine(fromBeforeTo);
export type TAuditEventsInput = z.input<typeof ZAuditEventsInput>;
export type TAuditEventsQuery = z.output<typeof ZAuditEventsInput>;

/** one stored event with its metadata, as the log answers it */
export const ZAuditEvent = z.object({
  /** `"<commit>.<sequence>"`: opaque, compare only through the API's order */
  position: answerText(64),
  stream_id: answerText(TEXT_MAX),
  stream_version: z.number().int(),
  type: answerText(TEXT_MAX),
  event_id: answerText(64),
  actor: answerText(TEXT_MAX),
  actor_kind: answerText(64),
  /** what people call the actor (a username, a reader's or a token's name); absent where the log has none to give */
  actor_name: answerText(TEXT_MAX).nullable().optional(),
  /** what people call the entity the stream is about (the first id in the stream id) */
  stream_name: answerText(TEXT_MAX).nullable().optional(),
  source_ip: answerText(64).nullable(),
  correlation_id: answerText(TEXT_MAX),
  causation_id: answerText(TEXT_MAX).nullable(),
  /** the server clock when the event was recorded (metadata occurredAt), ISO-8601 */
  recorded_at: answerTimestamp(),
  schema_version: z.number().int(),
  /** the payload as its type's read declaration allows (events/event-redaction.ts): secrets, undeclared keys and undeclared types read as '[redacted]' */
  data: z.unknown(),
  /** the metadata, by the same rule (EVENT_METADATA_DECLARATION) */
  metadata: z.record(answerText(TEXT_MAX), z.unknown()),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

/** a page of the log: newest first; `next_before` is null on the last page */
export const ZAuditEventPage = z.object({ data: z.array(ZAuditEvent), next_before: answerText(64).nullable() });
export type TAuditEventPage = z.infer<typeof ZAuditEventPage>;
