import type { TLiveMessage } from '@rollcall/contracts';
import { formatPosition } from '../../platform/event-store/event-store.port';
import { MESSAGE_CHANNEL, type LiveSource } from '../../platform/live/live-feed';

/**
 * Account changes go out one by one, once every projection holds them: who may see an account
 * change depends on other read models (its memberships, docs/adr/0011).
 */
export const accountChangesLive: LiveSource = {
  projections: new Set(['accounts_v2']),
  channel: MESSAGE_CHANNEL,
  delivery: 'every-projection',
  messages: (_projection, events) => {
    const messages: TLiveMessage[] = [];
    for (const event of events) {
      if (!event.streamId.startsWith('account-')) continue;
      const accountId = event.streamId.slice('account-'.length);
      messages.push({ kind: 'account.changed', accountId, position: formatPosition(event.position) });
    }
    return messages;
  },
};
