/**
 * What a whole-list query (an organization's permissions or roles) gives a DataTable, paged in the
 * browser so the one table and its footer serve these lists too.
 */
export function localPage<TRow>(query: { data?: TRow[]; isLoading: boolean; isFetching: boolean; error: unknown; refetch: () => unknown }, page: number, pageSize: number) {
  const all = query.data ?? [];
  // a deletion can empty the last page: show the last one that still has rows
  const lastPage = Math.max(1, Math.ceil(all.length / pageSize));
  const shown = Math.min(page, lastPage);
  const start = (shown - 1) * pageSize;
  return {
    rows: query.data ? all.slice(start, start + pageSize) : undefined,
    page: shown,
    total: all.length,
    from: all.length ? start + 1 : 0,
    to: Math.min(start + pageSize, all.length),
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
}
