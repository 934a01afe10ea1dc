import { getQueryKey } from '@trpc/react-query';
import type { TAttendanceLiveMessage, TUnknownCard } from '@rollcall/contracts';
import { liveCacheRule, REFETCH } from '../../live/live-cache';
import { trpc } from '../../trpc';

/**
 * live.attendance on the list of unknown cards: a scan of an unknown card (new, or seen again: its
 * count and latest door change) and a card registered at an enrollment reader fetch the list again.
 */
export function patchUnknownCards(list: TUnknownCard[], _input: unknown, messages: readonly TAttendanceLiveMessage[]): TUnknownCard[] | typeof REFETCH {
  const changes = messages.some((message) => message.kind === 'attendance.unknown_card' || (message.kind === 'scanner.register_mode' && message.card_uid !== null));
  return changes ? REFETCH : list;
}

export const unknownCardsLive = liveCacheRule(getQueryKey(trpc.smartCards.unknownCards), patchUnknownCards);
