import { useEffect, useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { PAGE_SIZE_OPTIONS, type TPage } from '@rollcall/contracts';
import type { ServerSort } from './DataTable';
import { pageQueryProps } from './page-query-props';
import { useUrlTableState, type UrlTableFilters, type UrlTableState } from './use-url-table-state';

/** what a paged list query (`TPage`) answers, as `useQuery` gives it */
interface PagedListQuery<Row> {
  data?: TPage<Row>;
  isLoading: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

type RowOf<List extends PagedListQuery<unknown>> = NonNullable<List['data']> extends TPage<infer Row> ? Row : never;

/**
 * The options every list query of a server table is asked with: the previous page stays shown while
 * the next loads; a page asked for a moment ago (the first screen's prefetch, routing/console-route.ts)
 * is not asked again when the table mounts. Live messages and mutations keep it current after that.
 */
export const SERVER_TABLE_QUERY = { placeholderData: keepPreviousData, staleTime: 3_000 };

/** the input of a list with a search field: page, size, search (left out when empty) and sort */
export const searchListInput = <SortField extends string>({ page, limit, search, sortBy, desc }: UrlTableState<SortField>) => ({ page, limit, search: search || undefined, sortBy, desc });

/** a list the server does not sort: one name that is never written to the URL */
const UNSORTED = { fields: ['none'] as const, defaultSort: 'none' as const };

/**
 * A server-paged list page: the table's state in the URL (page, size, search, sort and the list's
 * own filters, use-url-table-state.ts), the list query (`useList`, e.g.
 * `(input) => trpc.accounts.list.useQuery(input, SERVER_TABLE_QUERY)`) asked with the input
 * `toInput` makes of that state, and what DataTable needs for paging and sorting. A page beyond the
 * last one (rows removed or filters narrowed meanwhile) moves to the last. `useList` and `toInput`
 * are functions outside the component: the same hook every render, an input that changes only with
 * the state.
 */
export function useServerTable<Input, List extends PagedListQuery<unknown>, SortField extends string = 'none', Filters extends object = object>(
  useList: (input: Input) => List,
  options: {
    /** the sortable columns' ids (the server's sortBy values); a list without it is not sortable */
    sort?: { fields: readonly SortField[]; defaultSort: SortField };
    filters?: UrlTableFilters<Filters>;
    toInput: (state: UrlTableState<SortField> & Filters) => Input;
  },
) {
  const sort = options.sort ?? (UNSORTED as unknown as { fields: readonly SortField[]; defaultSort: SortField });
  const { state, setPage, setLimit, setSearch, setFilters, setSort } = useUrlTableState<SortField, Filters>({ sortFields: sort.fields, defaultSort: sort.defaultSort, filters: options.filters });
  const { toInput } = options;
  const input = useMemo(() => toInput(state), [toInput, state]);
  const list = useList(input);

  const lastPage = list.data?.last_page;
  const total = list.data?.total;
  useEffect(() => {
    if (lastPage && total && state.page > lastPage) setPage(lastPage);
  }, [lastPage, total, state.page, setPage]);

  const sortable = options.sort !== undefined;
  const props = {
    ...pageQueryProps(list as PagedListQuery<RowOf<List>>),
    page: state.page,
    pageSize: state.limit,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    onPageChange: setPage,
    onPageSizeChange: setLimit,
    ...(sortable ? { sort: { sortBy: state.sortBy, desc: state.desc }, onSortChange: (next: ServerSort) => setSort(next.sortBy, next.desc) } : {}),
  };
  return { state, input, list, props, setSearch, setFilters };
}
