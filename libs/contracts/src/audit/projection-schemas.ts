import { z } from 'zod';
import { answerTimestamp } from '../common/answers';
import { answerText, TEXT_MAX } from '../common/text';
import { ZPositionOf } from './audit-schemas';

/**
 * The projections screen (docs/api/compat.md, 'Projections'): each read model's position, lag behind the head, rate, last
 * error and the events set aside because it could not apply them, with retry.
 */

/** lag is counted exactly up to this many events; beyond it the answer says 'more' */
export const PROJECTION_LAG_COUNTED = 1000;

export const ZProjectionStatus = z.object({
  name: answerText(100),
  /** the last event it applied (or set aside) */
  position: answerText(64),
  /** events between it and the head, at most PROJECTION_LAG_COUNTED; `lag_more` when there are more */
  lag: z.number().int(),
  lag_more: z.boolean(),
  /** events per second over the last 10 seconds */
  rate: z.number(),
  /** 'running', or 'stopped' when its subscription failed (the process is then not ready) */
  state: z.enum(['running', 'stopped']),
  /** why it stopped, or the last event it set aside */
  last_error: answerText().nullable(),
  set_aside: z.number().int(),
});
export type TProjectionStatus = z.infer<typeof ZProjectionStatus>;

/**
 * The last 'Rebuild' (ours; docs/running-in-production.md, 'Upgrades'): every read model rebuilt into fresh tables while the old
 * ones serve, then swapped in. `total` estimates the events to replay (the event log's rows at the start).
 */
export const ZRebuildState = z.object({
  status: z.enum(['idle', 'running', 'swapping', 'done', 'failed']),
  started_at: answerTimestamp().nullable(),
  finished_at: answerTimestamp().nullable(),
  replayed: z.number().int(),
  total: z.number().int(),
  error: answerText().nullable(),
});
export type TRebuildState = z.infer<typeof ZRebuildState>;

export const ZProjectionsAnswer = z.object({ head: answerText(64), projections: z.array(ZProjectionStatus), rebuild: ZRebuildState });
export type TProjectionsAnswer = z.infer<typeof ZProjectionsAnswer>;

export const ZSetAsideEvent = z.object({
  projection: answerText(100),
  position: answerText(64),
  stream_id: answerText(TEXT_MAX),
  event_type: answerText(TEXT_MAX),
  error: answerText(),
  set_aside_at: answerTimestamp(),
  attempts: z.number().int(),
});
export type TSetAsideEvent = z.infer<typeof ZSetAsideEvent>;

const ZProjectionName = z.string({ error: 'projection must be text' }).max(100, { error: 'projection must be a projection name such as accounts_v2', abort: true }).regex(/^[a-z][a-z0-9_]{0,99}$/, { error: 'projection must be a projection name such as accounts_v2' });

export const ZSetAsideInput = z.object({ projection: ZProjectionName });
export const ZRetrySetAsideInput = z.object({ projection: ZProjectionName, position: ZPositionOf('position') });
export type TRetrySetAsideInput = z.input<typeof ZRetrySetAsideInput>;

/** a retry applied the event, or it failed again (the event stays set aside with the new error) */
export const ZRetryAnswer = z.union([z.object({ applied: z.literal(true) }), z.object({ applied: z.literal(false), error: answerText() })]);
export type TRetryAnswer = z.infer<typeof ZRetryAnswer>;
