import { ACCOUNT_SORT_FIELDS, type TListAccountsInput } from '@rollcall/contracts';
import { readUrlTableState, type UrlTableFilters, type UrlTableState } from '../../components/data-table/use-url-table-state';
import { searchListInput } from '../../components/data-table/use-server-table';
import type { TrpcQueryUtils } from '../../trpc';

/** 'Filter by Account Status': any number of status ids, `?status=1&status=3` */
export const statusFilter: UrlTableFilters<{ status: number[] }> = {
  read: (params) => ({ status: [...new Set(params.getAll('status').map(Number).filter((id) => Number.isInteger(id) && id > 0))] }),
  write: ({ status }, params) => {
    for (const id of status) params.append('status', String(id));
  },
};

export const accountsTableSort = { fields: ACCOUNT_SORT_FIELDS, defaultSort: 'created_at' } as const;

export const toAccountsListInput = (state: UrlTableState<(typeof ACCOUNT_SORT_FIELDS)[number]> & { status: number[] }): TListAccountsInput => ({
  ...searchListInput(state),
  status: state.status.length ? state.status : undefined,
});

/** how long the list of account statuses is taken as current (it changes when an administrator edits them) */
export const ACCOUNT_STATUSES_STALE_MS = 5 * 60_000;

/**
 * /accounts's two queries asked before the first render, with `auth.me` (router.tsx preloadScreen):
 * with the same input the page will ask, so the page finds them answered or on their way instead of
 * asking only once the shell and the page have rendered (docs/benchmarks.md, console-first-screen).
 * Not quiet, as the page's own queries are not: a 401 or 403 here is the lost session or permission
 * the page would have met, and leaves for the root page the same way.
 */
export function prefetchAccountsList(utils: TrpcQueryUtils, search: URLSearchParams): void {
  const state = readUrlTableState(search, { sortFields: accountsTableSort.fields, defaultSort: accountsTableSort.defaultSort, filters: statusFilter });
  void utils.accounts.list.prefetch(toAccountsListInput(state));
  void utils.accounts.statuses.prefetch(undefined, { staleTime: ACCOUNT_STATUSES_STALE_MS });
}
