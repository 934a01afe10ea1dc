import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyLiveMessages, liveCacheRule, mergeRefetches, REFETCH, type Refetch } from './live-cache';

type Message = { kind: 'renamed'; id: string; name: string } | { kind: 'added'; id: string };
interface Row {
  id: string;
  name: string;
}

// the tRPC key shape: [path, { input, type }]
const path = ['people', 'list'];
const keyOf = (input: { page: number }) => [path, { input, type: 'query' }];
const rule = liveCacheRule<Message, { page: number }, Row[]>([path], (rows, _input, messages) => {
  let next = rows;
  for (const message of messages) {
    if (message.kind === 'added') return REFETCH;
    if (next.some((row) => row.id === message.id)) next = next.map((row) => (row.id === message.id ? { ...row, name: message.name } : row));
  }
  return next;
});

function cacheWith(pages: Record<number, Row[]>) {
  const queryClient = new QueryClient();
  for (const [page, rows] of Object.entries(pages)) queryClient.setQueryData(keyOf({ page: Number(page) }), rows);
  return queryClient;
}

describe('live pushes on the query cache', () => {
  it('patch every cached answer the messages carry, and leave the others as they are', () => {
    const queryClient = cacheWith({ 1: [{ id: 'a', name: 'Ada' }], 2: [{ id: 'b', name: 'Bob' }] });
    const second = queryClient.getQueryData(keyOf({ page: 2 }));
    const refetch = applyLiveMessages(queryClient, [rule], [{ kind: 'renamed', id: 'a', name: 'Ada L.' }]);
    expect(refetch).toEqual([]);
    expect(queryClient.getQueryData(keyOf({ page: 1 }))).toEqual([{ id: 'a', name: 'Ada L.' }]);
    expect(queryClient.getQueryData(keyOf({ page: 2 }))).toBe(second);
  });

  it('name the answers to fetch again where the messages do not carry the change', () => {
    const queryClient = cacheWith({ 1: [{ id: 'a', name: 'Ada' }], 2: [{ id: 'b', name: 'Bob' }] });
    const refetch = applyLiveMessages(queryClient, [rule], [{ kind: 'added', id: 'c' }]);
    expect(refetch).toEqual([
      { queryKey: keyOf({ page: 1 }), exact: true },
      { queryKey: keyOf({ page: 2 }), exact: true },
    ]);
    expect(queryClient.getQueryData(keyOf({ page: 1 }))).toEqual([{ id: 'a', name: 'Ada' }]);
  });

  it('fetch again an answer that was on its way when the push came, rather than patch it', async () => {
    const queryClient = cacheWith({ 1: [{ id: 'a', name: 'Ada' }] });
    let answer: (rows: Row[]) => void = () => undefined;
    const fetching = queryClient.fetchQuery({ queryKey: keyOf({ page: 1 }), queryFn: () => new Promise<Row[]>((resolve) => (answer = resolve)), staleTime: 0 });
    const refetch = applyLiveMessages(queryClient, [rule], [{ kind: 'renamed', id: 'a', name: 'Ada L.' }]);
    expect(refetch).toEqual([{ queryKey: keyOf({ page: 1 }), exact: true }]);
    answer([{ id: 'a', name: 'Ada' }]);
    await fetching;
  });

  it('leave a query never answered to its own first fetch', () => {
    const queryClient = new QueryClient();
    queryClient.getQueryCache().build(queryClient, { queryKey: keyOf({ page: 1 }) });
    expect(applyLiveMessages(queryClient, [rule], [{ kind: 'added', id: 'c' }])).toEqual([]);
  });

  it('fetch a burst\'s answers once each', () => {
    const pending = new Map<string, Refetch>();
    mergeRefetches(pending, [{ queryKey: keyOf({ page: 1 }), exact: true }]);
    mergeRefetches(pending, [{ queryKey: keyOf({ page: 1 }), exact: true }, { queryKey: [path], exact: false }]);
    expect([...pending.values()]).toEqual([
      { queryKey: keyOf({ page: 1 }), exact: true },
      { queryKey: [path], exact: false },
    ]);
  });
});
