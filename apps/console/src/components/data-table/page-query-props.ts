import type { TPage } from '@rollcall/contracts';

/** What a paged list query (`TPage`) gives a DataTable: its rows, the footer's figures and the loading and error states. */
export function pageQueryProps<TRow>(query: { data?: TPage<TRow>; isLoading: boolean; isFetching: boolean; error: unknown; refetch: () => unknown }) {
  return {
    rows: query.data?.data,
    total: query.data?.total ?? 0,
    from: query.data?.from,
    to: query.data?.to,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
}
