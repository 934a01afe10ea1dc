import { useEffect, useRef } from 'react';
import { trpc } from '../../trpc';

/** Bursts of changes (an import, a replay) refresh the list once. */
const COALESCE_MS = 150;

/**
 * Follows live.accounts: every account change elsewhere refreshes the list, so a new account
 * appears without a reload. After a reconnect the list is refreshed too (changes may have been
 * missed while the socket was down).
 */
export function useLiveAccounts() {
  const utils = trpc.useUtils();
  const timer = useRef<number | undefined>(undefined);
  const starts = useRef(0);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const refresh = () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void utils.accounts.list.invalidate(), COALESCE_MS);
  };

  trpc.live.accounts.useSubscription(undefined, {
    onStarted: () => {
      starts.current += 1;
      if (starts.current > 1) refresh();
    },
    onData: (message) => {
      if (message.kind === 'projection.lag') return;
      refresh();
    },
    onError: (error) => {
      // The list still works without live updates; the link reconnects on its own.
      console.warn('live.accounts subscription failed', error);
    },
  });
}
