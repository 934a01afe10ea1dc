import { getQueryKey } from '@trpc/react-query';
import type { TLiveMessage, TListAccountsInput, TPage, TAccountListItem } from '@rollcall/contracts';
import { liveCacheRule, REFETCH } from '../../live/live-cache';
import { trpc } from '../../trpc';

/**
 * live.accounts on the account list: a change names only the account, not what its row shows, and a
 * new account may land on any page; the list is fetched again. Projection lag changes nothing here.
 */
export const accountsListLive = liveCacheRule<TLiveMessage, TListAccountsInput, TPage<TAccountListItem>>(getQueryKey(trpc.accounts.list), (page, _input, messages) =>
  messages.some((message) => message.kind === 'account.changed') ? REFETCH : page,
);
