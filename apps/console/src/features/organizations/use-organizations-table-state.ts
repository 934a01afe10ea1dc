import { useMemo } from 'react';
import { ORGANIZATION_SORT_FIELDS, type TListOrganizationsInput } from '@rollcall/contracts';
import { useUrlTableState } from '../../components/data-table/use-url-table-state';

export type OrganizationSortField = (typeof ORGANIZATION_SORT_FIELDS)[number];

/** The organizations table's page, size, search and sort live in the URL. */
export function useOrganizationsTableState() {
  const { setFilters: _noFilters, ...table } = useUrlTableState({ sortFields: ORGANIZATION_SORT_FIELDS, defaultSort: 'created_at' });
  const { state } = table;
  const input: TListOrganizationsInput = useMemo(() => ({ page: state.page, limit: state.limit, search: state.search || undefined, sortBy: state.sortBy, desc: state.desc }), [state]);
  return { ...table, input };
}
