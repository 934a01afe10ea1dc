import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { applyLiveMessages, mergeRefetches, type LiveCacheRule, type Refetch } from './live-cache';

/** Bursts of pushes (a reader delivering its queue, an import, a replay) fetch an answer once. */
const COALESCE_MS = 150;

type Pushed<Data> = Data extends readonly (infer Message)[] ? Message : Data;

/** a live.* subscription of the tRPC client (its `useSubscription`) */
interface LiveProcedure<Data> {
  useSubscription(input: undefined, options: { enabled?: boolean; onStarted?: () => void; onData?: (data: Data) => void; onError?: (error: unknown) => void }): { status: 'idle' | 'connecting' | 'pending' | 'error' };
}

/**
 * What a live screen tells its user about the channel (live/LiveStatus.tsx shows it):
 * - `connecting`: not yet followed since the screen opened (nothing shown is out of date yet);
 * - `offline`: the socket or the network is gone since `offlineSince`: what is shown may be stale;
 * - `catching-up`: back, the cached answers are being fetched again;
 * - `live`: following; `caughtUpAt` says when it last caught up after a loss.
 */
export interface LiveConnection {
  state: 'connecting' | 'offline' | 'catching-up' | 'live';
  offlineSince?: Date;
  caughtUpAt?: Date;
}

const subscribeOnline = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};
/** the browser's own view of the network: the socket may take a while to notice a lost link */
const useOnline = () => useSyncExternalStore(subscribeOnline, () => navigator.onLine);

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
export function useLive<Data>(procedure: LiveProcedure<Data>, options: LiveOptions<Pushed<Data>>): LiveConnection {
  const queryClient = useQueryClient();
  // the handlers of the latest render, for pushes that arrive later
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
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

  const subscription = procedure.useSubscription(undefined, {
    enabled: options.enabled ?? true,
    onData: (data) => {
      const messages = (Array.isArray(data) ? data : [data]) as Pushed<Data>[];
      refetchSoon(applyLiveMessages(queryClient, latest.current.cache ?? [], messages));
      latest.current.onMessages?.(messages);
    },
    onError: (error) => {
      console.warn('live subscription failed', error);
    },
  });

  const online = useOnline();
  const connected = online && subscription.status === 'pending';
  const [connection, setConnection] = useState<LiveConnection>({ state: 'connecting' });
  const everConnected = useRef(false);
  useEffect(() => {
    if (!connected) {
      // before the first start nothing shown is from the channel yet; after it, the screen is stale
      if (everConnected.current) setConnection((now) => (now.state === 'offline' ? now : { state: 'offline', offlineSince: new Date() }));
      return;
    }
    if (!everConnected.current) {
      everConnected.current = true;
      setConnection({ state: 'live' });
      return;
    }
    // back after a loss: pushes may have been missed meanwhile, so every cached answer the pushes
    // keep is fetched again, and only then is the screen said to have caught up
    let current = true;
    setConnection((now) => ({ ...now, state: 'catching-up' }));
    latest.current.onReconnect?.();
    const rules = latest.current.cache ?? [];
    void Promise.allSettled(rules.map((rule) => queryClient.invalidateQueries({ queryKey: rule.queryKey, exact: false }))).then(() => {
      if (current) setConnection({ state: 'live', caughtUpAt: new Date() });
    });
    return () => {
      current = false;
    };
  }, [connected, queryClient]);
  return connection;
}
