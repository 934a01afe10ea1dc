import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** What a rule answers when a push changes a cached answer in a way the push does not carry. */
export const REFETCH = Symbol('refetch');

/**
 * How live pushes change one query's cached answers (every input it was asked with). `apply` gets an
 * answer, the input it was asked with and one push's messages, and returns the answer with what the
 * messages carry, the same answer when they change nothing there, or REFETCH.
 */
export interface LiveCacheRule<Message> {
  queryKey: QueryKey;
  apply(data: unknown, input: unknown, messages: readonly Message[]): unknown;
}

/** a rule over one query, typed by its input and answer (tRPC's key holds the input: `[path, { input, type }]`) */
export function liveCacheRule<Message, Input, Data>(queryKey: QueryKey, patch: (data: Data, input: Input, messages: readonly Message[]) => Data | typeof REFETCH): LiveCacheRule<Message> {
  return { queryKey, apply: (data, input, messages) => patch(data as Data, input as Input, messages) };
}

/** a query to fetch again: one cached answer (`exact`), or every answer under a key */
export interface Refetch {
  queryKey: QueryKey;
  exact: boolean;
}

const inputOf = (queryKey: QueryKey): unknown => (queryKey[1] as { input?: unknown } | undefined)?.input;

/**
 * Applies one push to the cache and returns the answers to fetch again. An answer being fetched
 * while the push arrives may have been read before it (the push comes after the read model is
 * written): it is fetched again rather than patched.
 */
export function applyLiveMessages<Message>(queryClient: QueryClient, rules: readonly LiveCacheRule<Message>[], messages: readonly Message[]): Refetch[] {
  const refetch: Refetch[] = [];
  for (const rule of rules) {
    for (const query of queryClient.getQueryCache().findAll({ queryKey: rule.queryKey })) {
      const data = query.state.data;
      if (query.state.fetchStatus === 'fetching') refetch.push({ queryKey: query.queryKey, exact: true });
      else if (data !== undefined) {
        const next = rule.apply(data, inputOf(query.queryKey), messages);
        if (next === REFETCH) refetch.push({ queryKey: query.queryKey, exact: true });
        else if (next !== data) queryClient.setQueryData(query.queryKey, next);
      }
    }
  }
  return refetch;
}

/** the pending refetches, once each (a key's answers, or one answer) */
export function mergeRefetches(pending: Map<string, Refetch>, added: readonly Refetch[]): void {
  for (const entry of added) pending.set(`${entry.exact ? 'exact' : 'all'}:${hashKey(entry.queryKey)}`, entry);
}
