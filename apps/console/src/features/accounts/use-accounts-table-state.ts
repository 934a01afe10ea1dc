import { useMemo } from 'react';
import { ACCOUNT_SORT_FIELDS, type TListAccountsInput } from '@rollcall/contracts';
import { useUrlTableState, type UrlTableFilters } from '../../components/data-table/use-url-table-state';

export type AccountSortField = (typeof ACCOUNT_SORT_FIELDS)[number];

/** 'Filter by Account Status': any number of status ids, `?status=1&status=3` */
const statusFilter: UrlTableFilters<{ status: number[] }> = {
  read: (params) => ({ status: [...new Set(params.getAll('status').map(Number).filter((id) => Number.isInteger(id) && id > 0))] }),
  write: ({ status }, params) => {
    for (const id of status) params.append('status', String(id));
  },
};

/** The accounts table's state (page, limit, search, status, sort) lives in the URL. */
export function useAccountsTableState() {
  const { setFilters, ...table } = useUrlTableState({ sortFields: ACCOUNT_SORT_FIELDS, defaultSort: 'created_at', filters: statusFilter });
  const { state } = table;
  const input: TListAccountsInput = useMemo(
    () => ({ page: state.page, limit: state.limit, search: state.search || undefined, status: state.status.length ? state.status : undefined, sortBy: state.sortBy, desc: state.desc }),
    [state],
  );
  return { ...table, input, setStatus: (status: number[]) => setFilters({ status }) };
}
