import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { applyLiveMessages, mergeRefetches, type LiveCacheRule, type Refetch } from './live-cache';

/** Bursts of pushes (a reader delivering its queue, an import, a replay) fetch an answer once. */
const COALESCE_MS = 150;

type Pushed<Data> = Data extends readonly (infer Message)[] ? Message : Data;

/** a live.* subscription of the tRPC client (its `useSubscription`) */
interface LiveProcedure<Data> {
  useSubscription(input: undefined, options: { enabled?: boolean; onStarted?: () => void; onData?: (data: Data) => void; onError?: (error: unknown) => void }): unknown;
}

export interface LiveOptions<Message> {
  /** the cached queries the pushes change (features/<area>/<area>.live.ts) */
  cache?: readonly LiveCacheRule<Message>[];
  /** what else a push does on this screen (the smart card dialog closing) */
  onMessages?: (messages: readonly Message[]) => void;
  /** after the socket came back: pushes may have been missed meanwhile (the cached queries are fetched again anyway) */
  onReconnect?: () => void;
  enabled?: boolean;
}

/**
 * The console's one way to follow a live channel (the socket carries subscriptions only, docs/adr/0021):
 * each push is applied to the query cache where it carries what the screen shows and fetches the
 * rest again (live-cache.ts); a push is a list of messages (live.attendance sends one commit's at
 * once, live.accounts one). A failed subscription is only logged: the screens work without it and
 * the link reconnects on its own.
 */
export function useLive<Data>(procedure: LiveProcedure<Data>, options: LiveOptions<Pushed<Data>>) {
  const queryClient = useQueryClient();
  // the handlers of the latest render, for pushes that arrive later
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const starts = useRef(0);
  const pending = useRef(new Map<string, Refetch>());
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const refetchSoon = (refetch: readonly Refetch[]) => {
    if (refetch.length === 0) return;
    mergeRefetches(pending.current, refetch);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const due = [...pending.current.values()];
      pending.current.clear();
      for (const { queryKey, exact } of due) void queryClient.invalidateQueries({ queryKey, exact });
    }, COALESCE_MS);
  };

  procedure.useSubscription(undefined, {
    enabled: options.enabled ?? true,
    onStarted: () => {
      starts.current += 1;
      if (starts.current === 1) return;
      refetchSoon((latest.current.cache ?? []).map((rule) => ({ queryKey: rule.queryKey, exact: false })));
      latest.current.onReconnect?.();
    },
    onData: (data) => {
      const messages = (Array.isArray(data) ? data : [data]) as Pushed<Data>[];
      refetchSoon(applyLiveMessages(queryClient, latest.current.cache ?? [], messages));
      latest.current.onMessages?.(messages);
    },
    onError: (error) => {
      console.warn('live subscription failed', error);
    },
  });
}
