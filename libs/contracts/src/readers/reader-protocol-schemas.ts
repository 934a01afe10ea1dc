import { z } from 'zod';
import { dateTimeOf } from '../common/dates';
import { answerText, boundedText, lineText, textRuleDeclaredElsewhere, uuidOf } from '../common/text';
import { ZApiError } from '../errors/error-codes';
import { fieldRule } from '../errors/field-rule-codes';

/**
 * The reader protocol (docs/readers.md, docs/adr/0013): what a door reader's agent posts and what the
 * server answers, and the WebSocket messages both ways. Objects are not strict: an agent newer than
 * the server may send fields this version does not know, and they are ignored rather than refused.
 *
 * Delivery: every scan is in the agent's durable queue before it is posted, with its own sequence
 * number (1, 2, 3, ... per reader). The agent posts one request at a time and retries it until the
 * server answers; the answer acknowledges each scan by sequence, and the agent drops from its queue
 * every scan acknowledged 'accepted' or 'already_accepted'. A retry is therefore always safe: reader
 * id + outbox id + sequence is the idempotency key, and a seen sequence is answered 'already_accepted'
 * only when it carries the same scan (card and device time); another scan under it is refused
 * `scan.sequence_reused` (a rolled-back outbox: the agent starts a new outbox id).
 */

/** the most scans one request may carry; the bench posts batches of 500 */
export const READER_SCAN_BATCH_MAX = 1000;
export const CARD_UID_BYTES = { min: 4, max: 16 } as const;

const ZInstant = (field: string) => dateTimeOf(field, `${field} must be an ISO-8601 date-time with a zone, e.g. 2026-11-23T08:00:00.000Z`);

/** A reader's own counter: a whole number from 1, never reused (unless an administrator resets the reader). */
export const ZReaderSequence = z
  .number({ error: 'sequence must be a number' })
  .int({ error: 'sequence must be a whole number' })
  .min(1, { error: 'sequence starts at 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: `sequence may be at most ${Number.MAX_SAFE_INTEGER}` });

/**
 * A card UID as stored: hex bytes, upper case, separators dropped (the same rule as the domain's
 * `normaliseCardUid`). For inputs typed by people, such as assigning an unknown card.
 */
export const ZCardUid = boundedText('Card UID', 64)
  .transform((raw) => raw.replace(/[\s:-]/g, '').toUpperCase())
  .superRefine((uid, ctx) => {
    // one message, the first rule broken, as the domain answers it
    const message = !uid
      ? 'Card UID is required'
      : !/^[0-9A-F]+$/.test(uid)
        ? 'Card UID must be hexadecimal (0-9, A-F)'
        : uid.length % 2 !== 0
          ? 'Card UID must be whole bytes (an even number of hex digits)'
          : uid.length < CARD_UID_BYTES.min * 2 || uid.length > CARD_UID_BYTES.max * 2
            ? `Card UID must be ${CARD_UID_BYTES.min} to ${CARD_UID_BYTES.max} bytes (${CARD_UID_BYTES.min * 2} to ${CARD_UID_BYTES.max * 2} hex digits)`
            : null;
    const bytes = { label: 'Card UID', min: CARD_UID_BYTES.min, max: CARD_UID_BYTES.max };
    if (message) ctx.addIssue({ code: 'custom', message, params: uid ? fieldRule('card_uid', bytes) : fieldRule('required', { label: 'Card UID' }) });
  });

/**
 * One scan as the reader saw it. `card_uid` is checked scan by scan by the server (a misread card is
 * refused in its own acknowledgement, not with the 499 good scans of its batch), so here it is only
 * bounded text.
 */
export const ZReaderScan = z.object({
  card_uid: textRuleDeclaredElsewhere(
    z
      .string({ error: 'card_uid must be text' })
      .trim()
      .max(64, { error: 'card_uid may be at most 64 characters', abort: true })
      .min(1, { error: 'card_uid is required' }),
    // a misread UID (garbage, control characters) is refused in its own acknowledgement, where the
    // server checks it is hex; refusing it here would refuse the 499 good scans of its batch
    'checked per scan (hex only) by the server',
  ),
  sequence: ZReaderSequence,
  /** the device clock when the card was presented */
  device_time: ZInstant('device_time'),
  /**
   * How long ago the card was presented, measured when the request is sent on the box's monotonic
   * clock (time since boot), not its wall clock: lets the server place a scan whose device clock
   * jumped while it waited (docs/door-agent.md, 'Clock'). Absent when the box rebooted since.
   */
  age_ms: z
    .number({ error: 'age_ms must be a number' })
    .int({ error: 'age_ms must be a whole number of milliseconds' })
    .min(0, { error: 'age_ms cannot be negative' })
    .max(10 * 366 * 86_400_000, { error: 'age_ms may be at most ten years' })
    .optional(),
});
export type TReaderScan = z.infer<typeof ZReaderScan>;

/**
 * `sent_at` is the device clock when the request is sent. The server measures the device's clock
 * skew on it (its receipt time minus `sent_at`), not on the scans: a scan that waited an hour in the
 * queue is an hour old, not an hour wrong.
 */
const sentAt = { sent_at: ZInstant('sent_at') };

/** `POST reader/scans`: one scan (the same route also takes a batch, told apart by its `scans` list) */
export const ZReaderScanPost = ZReaderScan.extend(sentAt);
export type TReaderScanPost = z.infer<typeof ZReaderScanPost>;

/** a batch's fields: `POST reader/scans/batch` and the channel's `scan_batch` frame carry the same */
const scanBatchFields = {
  ...sentAt,
  /**
   * The agent's outbox: random per queue file, so a queue replaced on the box (a wiped disk) numbers
   * from 1 again without its scans being taken for retries of the old one's (docs/readers.md)
   */
  outbox_id: z
    .string({ error: 'outbox_id must be text' })
    .max(64, { error: 'outbox_id must be 8-64 letters, digits, _ or -', abort: true })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'outbox_id must be 8-64 letters, digits, _ or -' })
    .optional(),
  scans: z
    .array(ZReaderScan, { error: 'scans must be a list' })
    .min(1, { error: 'A batch carries at least one scan' })
    .max(READER_SCAN_BATCH_MAX, { error: `A batch carries at most ${READER_SCAN_BATCH_MAX} scans; send the rest in the next one` }),
};

function eachSequenceOnce(batch: { scans: Array<{ sequence: number }> }, ctx: z.RefinementCtx): void {
  const seen = new Set<number>();
  batch.scans.forEach((scan, index) => {
    if (seen.has(scan.sequence)) ctx.addIssue({ code: 'custom', path: ['scans', index, 'sequence'], message: `Sequence ${scan.sequence} appears more than once in this batch` });
    seen.add(scan.sequence);
  });
}

/** `POST reader/scans/batch`: up to READER_SCAN_BATCH_MAX scans, each sequence once */
export const ZReaderScanBatch = z.object(scanBatchFields).superRefine(eachSequenceOnce);
export type TReaderScanBatch = z.infer<typeof ZReaderScanBatch>;

/** What a counted scan became (docs/adr/0013). */
export const SCAN_OUTCOMES = ['arrival', 'departure', 'duplicate', 'out_of_order', 'unknown_card', 'card_registered', 'card_already_registered', 'card_taken', 'not_armed'] as const;
export type TScanOutcome = (typeof SCAN_OUTCOMES)[number];
export const SCAN_FLAGS = ['clock_skew', 'two_doors'] as const;
export type TScanFlag = (typeof SCAN_FLAGS)[number];

/**
 * The answer for one scan. 'accepted': recorded now, with what it became. 'already_accepted': a
 * retry of a scan recorded before; nothing changed. 'refused': the scan is wrong as it stands (its
 * sequence goes backwards, its UID is malformed); retrying it cannot help, so the agent moves it
 * aside and reports it instead of sending it again.
 */
export const ZScanAck = z.discriminatedUnion('status', [
  z.object({ sequence: ZReaderSequence, status: z.literal('accepted'), outcome: z.enum(SCAN_OUTCOMES), flags: z.array(z.enum(SCAN_FLAGS)) }),
  z.object({ sequence: ZReaderSequence, status: z.literal('already_accepted') }),
  z.object({ sequence: ZReaderSequence, status: z.literal('refused'), error: z.object({ code: answerText(100), message: answerText() }) }),
]);
export type TScanAck = z.infer<typeof ZScanAck>;

/** The answer to a single scan or a batch: one acknowledgement per scan, in the request's order. */
export const ZScanBatchAck = z.object({
  received_at: ZInstant('received_at'),
  /** server clock minus device clock, in ms */
  skew_ms: z.number().int(),
  clock_skewed: z.boolean(),
  acks: z.array(ZScanAck),
});
export type TScanBatchAck = z.infer<typeof ZScanBatchAck>;

/** What the server may set on a reader's agent; sent on connect and whenever it changes. */
export const ZReaderConfiguration = z.object({
  /** how often the agent reports health */
  heartbeat_seconds: z.number().int().min(5, { error: 'heartbeat_seconds is at least 5' }).max(300, { error: 'heartbeat_seconds is at most 300' }),
  /** the most scans the agent puts in one request */
  batch_max: z.number().int().min(1, { error: 'batch_max is at least 1' }).max(READER_SCAN_BATCH_MAX, { error: `batch_max is at most ${READER_SCAN_BATCH_MAX}` }),
  /** the longest wait between two retries of an unanswered request (backoff cap) */
  retry_max_seconds: z.number().int().min(1, { error: 'retry_max_seconds is at least 1' }).max(3600, { error: 'retry_max_seconds is at most 3600' }),
});
export type TReaderConfiguration = z.infer<typeof ZReaderConfiguration>;
export const READER_DEFAULT_CONFIGURATION: TReaderConfiguration = { heartbeat_seconds: 30, batch_max: 500, retry_max_seconds: 60 };

/** Server -> reader over the reader's WebSocket. Each command has an id the agent acknowledges. */
export const ZReaderCommand = z.discriminatedUnion('type', [
  /** an enrollment reader's next card registers for an account; the agent may light an LED until `expires_at` */
  z.object({ type: z.literal('register_mode.on'), command_id: uuidOf('command_id'), expires_at: ZInstant('expires_at') }),
  z.object({ type: z.literal('register_mode.off'), command_id: uuidOf('command_id'), reason: z.enum(['cancelled', 'expired', 'card_registered', 'card_already_registered', 'replaced', 'reader_deleted']) }),
  z.object({ type: z.literal('configure'), command_id: uuidOf('command_id'), configuration: ZReaderConfiguration }),
]);
export type TReaderCommand = z.infer<typeof ZReaderCommand>;

/**
 * The agent's health report, over the WebSocket every `heartbeat_seconds` (or `POST reader/health`).
 * Kept as the reader's latest state, not as an event (docs/adr/0013).
 */
export const ZReaderHealthReport = z.object({
  sent_at: ZInstant('sent_at'),
  /** scans in the durable queue, not yet acknowledged */
  queue_depth: z.number().int().min(0, { error: 'queue_depth cannot be negative' }),
  oldest_queued_at: ZInstant('oldest_queued_at').nullable(),
  /** the last sequence the agent gave a scan (0 before the first) */
  last_sequence: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** the USB reader is plugged in and open */
  device_connected: z.boolean(),
  agent_version: lineText('agent_version', 64),
  /**
   * Scan intake: 'ok', or 'storage_failed' while the outbox cannot be written (a full disk: the scan
   * is held and retried, nothing is acknowledged at the reader), 'gave_up' just before the agent exits
   * for its supervisor to restart it. Optional: older agents do not send it.
   */
  intake: z
    .object({
      state: z.enum(['ok', 'storage_failed', 'gave_up']),
      error: boundedText('intake.error', 500, { multiline: true }).nullable(),
      since: ZInstant('intake.since').nullable(),
    })
    .optional(),
  /** scans set aside on the box (refused for good), and the latest one's reason; optional */
  dead_letters: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  last_dead_letter: z
    .object({
      sequence: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      card_uid: boundedText('last_dead_letter.card_uid', 64),
      code: boundedText('last_dead_letter.code', 100),
      message: boundedText('last_dead_letter.message', 500, { multiline: true }),
      refused_at: ZInstant('last_dead_letter.refused_at'),
    })
    .nullable()
    .optional(),
});
export type TReaderHealthReport = z.infer<typeof ZReaderHealthReport>;

/** The answer to `POST reader/health`: when it arrived, and the register mode the reader is armed for (null: none). */
export const ZReaderHealthAnswer = z.object({ received_at: answerText(64), register_mode: z.object({ expires_at: answerText(64) }).nullable() });
export type TReaderHealthAnswer = z.infer<typeof ZReaderHealthAnswer>;

/**
 * The most bytes of one frame on the reader's WebSocket, a scan batch excepted: health reports and
 * command acknowledgements are small. A bigger frame closes the socket with 1009. A server from
 * before scans over the channel holds every frame to it, a scan batch included.
 */
export const READER_FRAME_MAX_BYTES = 16 * 1024;

/**
 * The most bytes of a `scan_batch` frame: the longest batch the rules allow as `JSON.stringify`
 * writes it (1,000 scans, each card_uid 64 characters that JSON escapes to six bytes each, the
 * longest sequence, date-times and age, every optional field present: about 507,000 bytes;
 * reader-schemas.unit.spec.ts builds it). A bigger frame closes the socket with 1009.
 */
export const READER_SCAN_FRAME_MAX_BYTES = 512 * 1024;

/** A request over the reader's WebSocket names itself; its answer carries the same id. */
export const ZReaderRequestId = z
  .string({ error: 'request_id must be text' })
  .max(64, { error: 'request_id must be 1-64 letters, digits, _, -, . or :', abort: true })
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, { error: 'request_id must be 1-64 letters, digits, _, -, . or :' });

/**
 * Reader -> server over the WebSocket: a batch of scans, with the payload and the rules of
 * `POST reader/scans/batch` (docs/readers.md, 'Scans over the channel'), answered by a
 * `scan_batch_ack` or an `error` frame with the same `request_id`, in the order the frames came.
 * `consistency: 'none'` is the HTTP header `X-Rollcall-Consistency: none`: answered as soon as the
 * scans are appended, without the wait for the read models.
 */
export const ZReaderScanBatchFrame = z
  .object({
    type: z.literal('scan_batch'),
    request_id: ZReaderRequestId,
    consistency: z.enum(['none'], { error: "consistency is 'none' or absent" }).optional(),
    ...scanBatchFields,
  })
  .superRefine(eachSequenceOnce);
export type TReaderScanBatchFrame = z.infer<typeof ZReaderScanBatchFrame>;

/** Reader -> server over the WebSocket. */
export const ZReaderMessage = z.discriminatedUnion('type', [
  ZReaderHealthReport.extend({ type: z.literal('health') }),
  z.object({ type: z.literal('command_ack'), command_id: uuidOf('command_id'), ok: z.boolean(), error: boundedText('error', 500, { multiline: true }).optional() }),
  ZReaderScanBatchFrame,
]);
export type TReaderMessage = z.infer<typeof ZReaderMessage>;

/**
 * Server -> reader: the answer to a `scan_batch` frame, the body `POST reader/scans/batch` answers
 * with, plus the answer's two headers: where the scans landed (`X-Rollcall-Position`) and whether
 * the read models show them yet (`X-Rollcall-Consistency`).
 */
export const ZReaderScanBatchAckFrame = ZScanBatchAck.extend({
  type: z.literal('scan_batch_ack'),
  request_id: ZReaderRequestId,
  position: answerText(100),
  consistency: z.enum(['consistent', 'stale']),
});
export type TReaderScanBatchAckFrame = z.infer<typeof ZReaderScanBatchAckFrame>;

/**
 * Server -> reader: a frame refused. For a `scan_batch` frame it carries the frame's `request_id`
 * and the status `POST reader/scans/batch` answers the same refusal with (400 malformed as a whole,
 * 401 a token no longer valid, 500, 503); a frame that is not JSON, of no known type or without a
 * readable request id is answered without them. `error` is the HTTP answer's error body.
 */
export const ZReaderErrorFrame = z.object({
  type: z.literal('error'),
  request_id: ZReaderRequestId.optional(),
  status: z.number().int().min(400).max(599).optional(),
  error: ZApiError.shape.error,
});
export type TReaderErrorFrame = z.infer<typeof ZReaderErrorFrame>;
