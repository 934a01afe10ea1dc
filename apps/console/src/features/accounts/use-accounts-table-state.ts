import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ACCOUNT_SORT_FIELDS, PAGE_SIZE_OPTIONS, type TListAccountsInput } from '@rollcall/contracts';

export type AccountSortField = (typeof ACCOUNT_SORT_FIELDS)[number];

export const DEFAULT_PAGE_SIZE = PAGE_SIZE_OPTIONS[0];
const DEFAULT_SORT: AccountSortField = 'created_at';

export interface AccountsTableState {
  page: number;
  limit: number;
  search: string;
  status: number[];
  sortBy: AccountSortField;
  desc: boolean;
}

const isSortField = (value: string | null): value is AccountSortField =>
  value !== null && (ACCOUNT_SORT_FIELDS as readonly string[]).includes(value);

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

function readState(params: URLSearchParams): AccountsTableState {
  const limit = positiveInt(params.get('limit'), DEFAULT_PAGE_SIZE);
  const sortBy = params.get('sortBy');
  return {
    page: positiveInt(params.get('page'), 1),
    limit: (PAGE_SIZE_OPTIONS as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
    search: params.get('search') ?? '',
    status: [...new Set(params.getAll('status').map(Number).filter((id) => Number.isInteger(id) && id > 0))],
    sortBy: isSortField(sortBy) ? sortBy : DEFAULT_SORT,
    desc: params.get('desc') !== 'false',
  };
}

/** Writes only what differs from the defaults, so a plain /accounts stays plain. */
function writeState(state: AccountsTableState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(state.limit));
  if (state.search) params.set('search', state.search);
  for (const id of state.status) params.append('status', String(id));
  if (state.sortBy !== DEFAULT_SORT) params.set('sortBy', state.sortBy);
  if (!state.desc) params.set('desc', 'false');
  return params;
}

/** The accounts table's state (page, limit, search, status, sort) lives in the URL. */
export function useAccountsTableState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readState(params), [params]);
  // For callbacks that fire later (the debounced search): the state as it is then.
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  const update = useCallback(
    (change: Partial<AccountsTableState>, options?: { replace?: boolean }) => {
      setParams((current) => writeState({ ...readState(current), ...change }), { replace: options?.replace });
    },
    [setParams],
  );

  const actions = useMemo(
    () => ({
      setPage: (page: number) => update({ page }),
      // A page-size change returns to page 1 (spec), as does any change of what is listed.
      setLimit: (limit: number) => update({ limit, page: 1 }),
      setSearch: (search: string) => {
        if (search !== latest.current.search) update({ search, page: 1 }, { replace: true });
      },
      setStatus: (status: number[]) => update({ status, page: 1 }),
      setSort: (sortBy: string, desc: boolean) => update({ sortBy: isSortField(sortBy) ? sortBy : DEFAULT_SORT, desc, page: 1 }),
    }),
    [update],
  );

  const input: TListAccountsInput = useMemo(
    () => ({
      page: state.page,
      limit: state.limit,
      search: state.search || undefined,
      status: state.status.length ? state.status : undefined,
      sortBy: state.sortBy,
      desc: state.desc,
    }),
    [state],
  );

  return { state, input, ...actions };
}
