import type { Response } from 'express';
import type { ConsistentOutcome } from '../commands/command-gateway';

/** Tells a client where its write landed and whether the read models already show it. */
export function writeConsistencyHeaders(response: Response, outcome: ConsistentOutcome<unknown>): void {
  response.setHeader('X-Rollcall-Position', outcome.position);
  response.setHeader('X-Rollcall-Consistency', outcome.consistent ? 'consistent' : 'stale');
}
