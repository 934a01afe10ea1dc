import { z } from 'zod';
import { answerTimestamp } from '../common/answers';
import { answerText, boundedText, TEXT_MAX } from '../common/text';
import { fieldRule } from '../errors/field-rule-codes';
import { optionalAuditFilter, ZAuditEvent, ZAuditLimit, ZAuditPosition, ZAuditInstant, ZPositionOf } from './audit-schemas';

/**
 * History tabs and time travel (docs/api/compat.md, 'History and time travel'): one entity's events as a timeline with what each changed in
 * plain words, and an account or organization as it was at a moment, folded from its stream.
 */
export const HISTORY_KINDS = ['account', 'organization', 'team', 'application', 'reader'] as const;
export type THistoryKind = (typeof HISTORY_KINDS)[number];

/** the kinds whose state can be folded back to a moment (their streams hold their whole state) */
export const TIME_TRAVEL_KINDS = ['account', 'organization'] as const;
export type TTimeTravelKind = (typeof TIME_TRAVEL_KINDS)[number];

const ZId = boundedText('id', 100, { trim: true }).min(1, { error: 'id is required' });

export const ZHistoryPageShape = {
  /** the `next_before` of the previous page */
  before: optionalAuditFilter(ZAuditPosition),
  limit: ZAuditLimit,
};
/** REST: `GET {kind}/{id}/history?before&limit` */
export const ZHistoryPageInput = z.object(ZHistoryPageShape);
/** tRPC: `audit.history` */
export const ZEntityHistoryInput = z.object({ kind: z.enum(HISTORY_KINDS, { error: `kind must be one of ${HISTORY_KINDS.join(', ')}` }), id: ZId, ...ZHistoryPageShape });
export type TEntityHistoryInput = z.input<typeof ZEntityHistoryInput>;

/** one field an event changed: `before` is null when the stream never held it, values are display text */
export const ZFieldChange = z.object({ field: answerText(TEXT_MAX), before: answerText().nullable(), after: answerText().nullable() });
export type TFieldChange = z.infer<typeof ZFieldChange>;

export const ZHistoryEntry = ZAuditEvent.extend({
  /** what happened in plain words, e.g. 'Role Editor granted in Sales by admin from 10.0.0.4' */
  summary: answerText(),
  changes: z.array(ZFieldChange),
});
export type THistoryEntry = z.infer<typeof ZHistoryEntry>;

export const ZHistoryPage = z.object({
  data: z.array(ZHistoryEntry),
  next_before: answerText(64).nullable(),
  /** what people call the ids this page's events and fields hold (today's names; a deleted thing keeps its id): a console words each entry in its own language from `type`, `data` and these */
  names: z.record(answerText(64), answerText(TEXT_MAX)).optional(),
  /** the zone the person's attendance times are drawn in (an account's history; 'UTC' otherwise), as `summary` shows them */
  time_zone: answerText(64).optional(),
});
export type THistoryPage = z.infer<typeof ZHistoryPage>;

const oneMoment = (value: { at?: string; position?: string }, context: z.RefinementCtx) => {
  if (!value.at && !value.position) context.addIssue({ code: 'custom', path: ['at'], message: 'at or position is required', params: fieldRule('exactly_one', { label: 'at', other: 'position' }) });
  if (value.at && value.position) context.addIssue({ code: 'custom', path: ['position'], message: 'give at or position, not both', params: fieldRule('exactly_one', { label: 'position', other: 'at' }) });
};

export const ZAsOfShape = {
  /** the state after every event recorded at or before this time */
  at: optionalAuditFilter(ZAuditInstant('at')),
  /** the state after every event at or before this global position */
  position: optionalAuditFilter(ZPositionOf('position')),
};
/** REST: `GET {kind}/{id}/as-of?at=|position=` */
export const ZAsOfQueryInput = z.object(ZAsOfShape).superRefine(oneMoment);
/** tRPC: `audit.asOf` */
export const ZEntityAsOfInput = z
  .object({ kind: z.enum(TIME_TRAVEL_KINDS, { error: `kind must be one of ${TIME_TRAVEL_KINDS.join(', ')}` }), id: ZId, ...ZAsOfShape })
  .superRefine(oneMoment);
export type TEntityAsOfInput = z.input<typeof ZEntityAsOfInput>;

/** what an entity looked like: `fields` in display order, values as display text */
export const ZAsOfAnswer = z.object({
  kind: z.enum(TIME_TRAVEL_KINDS),
  id: answerText(64),
  /** false when the entity did not exist yet (or no more) at that moment */
  existed: z.boolean(),
  status: answerText(64),
  /** the last event folded: its stream version, position and time (null when none) */
  version: z.number().int(),
  position: answerText(64).nullable(),
  recorded_at: answerTimestamp().nullable(),
  fields: z.array(z.object({ field: answerText(TEXT_MAX), value: answerText().nullable() })),
});
export type TAsOfAnswer = z.infer<typeof ZAsOfAnswer>;
