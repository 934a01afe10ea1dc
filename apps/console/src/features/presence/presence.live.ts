import { getQueryKey } from '@trpc/react-query';
import type { TAttendanceLiveMessage, TPresence, TPresenceQuery } from '@rollcall/contracts';
import { liveCacheRule, REFETCH } from '../../live/live-cache';
import { trpc } from '../../trpc';

/**
 * live.attendance on the presence board: whoever leaves is taken off it as the push says; an arrival
 * (whose name, organizations and teams the push does not carry) and a correction (which may open or
 * close a slot) fetch the board again. Scans themselves change it only through presence.
 */
export function patchPresence(board: TPresence, _input: TPresenceQuery, messages: readonly TAttendanceLiveMessage[]): TPresence | typeof REFETCH {
  let next = board;
  for (const message of messages) {
    if (message.kind === 'attendance.corrected' || (message.kind === 'presence.changed' && message.present)) return REFETCH;
    if (message.kind === 'presence.changed') {
      const present = next.present.filter((person) => person.account_id !== message.account_id);
      if (present.length !== next.present.length) next = { ...next, present, total: next.total - (next.present.length - present.length) };
    }
  }
  return next;
}

export const presenceLive = liveCacheRule(getQueryKey(trpc.arrivalsDepartures.presence), patchPresence);
