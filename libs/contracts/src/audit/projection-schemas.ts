import { z } from 'zod';
import { ZPositionOf } from './audit-schemas';

/**
 * The projections screen (issue 8): each read model's position, lag behind the head, rate, last
 * error and the events set aside because it could not apply them, with retry.
 */

/** lag is counted exactly up to this many events; beyond it the answer says 'more' */
export const PROJECTION_LAG_COUNTED = 1000;

export interface TProjectionStatus {
  name: string;
  /** the last event it applied (or set aside) */
  position: string;
  /** events between it and the head, at most PROJECTION_LAG_COUNTED; `lag_more` when there are more */
  lag: number;
  lag_more: boolean;
  /** events per second over the last 10 seconds */
  rate: number;
  /** 'running', or 'stopped' when its subscription failed (the process is then not ready) */
  state: 'running' | 'stopped';
  /** why it stopped, or the last event it set aside */
  last_error: string | null;
  set_aside: number;
}

/**
 * The last 'Rebuild' (ours, issue 8 point 4): every read model rebuilt into fresh tables while the old
 * ones serve, then swapped in. `total` estimates the events to replay (the event log's rows at the start).
 */
export interface TRebuildState {
  status: 'idle' | 'running' | 'swapping' | 'done' | 'failed';
  started_at: string | null;
  finished_at: string | null;
  replayed: number;
  total: number;
  error: string | null;
}

export interface TProjectionsAnswer {
  head: string;
  projections: TProjectionStatus[];
  rebuild: TRebuildState;
}

export interface TSetAsideEvent {
  projection: string;
  position: string;
  stream_id: string;
  event_type: string;
  error: string;
  set_aside_at: string;
  attempts: number;
}

const ZProjectionName = z.string({ error: 'projection must be text' }).max(100, { error: 'projection must be a projection name such as accounts_v2', abort: true }).regex(/^[a-z][a-z0-9_]{0,99}$/, { error: 'projection must be a projection name such as accounts_v2' });

export const ZSetAsideInput = z.object({ projection: ZProjectionName });
export const ZRetrySetAsideInput = z.object({ projection: ZProjectionName, position: ZPositionOf('position') });
export type TRetrySetAsideInput = z.input<typeof ZRetrySetAsideInput>;

/** a retry applied the event, or it failed again (the event stays set aside with the new error) */
export type TRetryAnswer = { applied: true } | { applied: false; error: string };
