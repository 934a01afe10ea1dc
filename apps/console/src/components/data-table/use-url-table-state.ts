import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';

export const DEFAULT_PAGE_SIZE = PAGE_SIZE_OPTIONS[0];

export interface UrlTableState<SortField extends string> {
  page: number;
  limit: number;
  search: string;
  sortBy: SortField;
  desc: boolean;
}

/** A list's own filters beyond page, size, search and sort (the accounts' status filter). */
export interface UrlTableFilters<Filters extends object> {
  read: (params: URLSearchParams) => Filters;
  /** appends only what differs from the default */
  write: (filters: Filters, params: URLSearchParams) => void;
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** page and size from the URL, the size only from the spec's options (10, 20, 30) */
export function readPaging(params: URLSearchParams): { page: number; limit: number } {
  const limit = positiveInt(params.get('limit'), DEFAULT_PAGE_SIZE);
  return { page: positiveInt(params.get('page'), 1), limit: (PAGE_SIZE_OPTIONS as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE };
}

/** writes page and size when they differ from the defaults */
export function writePaging({ page, limit }: { page: number; limit: number }, params: URLSearchParams): void {
  if (page !== 1) params.set('page', String(page));
  if (limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(limit));
}

const noFilters: UrlTableFilters<object> = { read: () => ({}), write: () => undefined };

/** a table's sort fields, its default sort and its own filters: what reads its state from a URL */
export interface UrlTableShape<SortField extends string, Filters extends object = object> {
  sortFields: readonly SortField[];
  defaultSort: SortField;
  filters?: UrlTableFilters<Filters>;
}

/** the table's state in these search parameters, defaults for what they leave out or get wrong */
export function readUrlTableState<SortField extends string, Filters extends object = object>(
  params: URLSearchParams,
  { sortFields, defaultSort, ...shape }: UrlTableShape<SortField, Filters>,
): UrlTableState<SortField> & Filters {
  const filters = (shape.filters ?? noFilters) as UrlTableFilters<Filters>;
  const sortBy = params.get('sortBy');
  const sort = sortBy !== null && (sortFields as readonly string[]).includes(sortBy) ? (sortBy as SortField) : defaultSort;
  return { ...readPaging(params), search: params.get('search') ?? '', sortBy: sort, desc: params.get('desc') !== 'false', ...filters.read(params) };
}

/**
 * A server-paged table's state in the URL, so a reload, Back or a shared link shows the same page.
 * Only what differs from the defaults is written: a plain /accounts stays plain. A page-size change returns to page 1 (spec), as does any change of
 * what is listed; search changes replace the history entry instead of adding one per keystroke.
 */
export function useUrlTableState<SortField extends string, Filters extends object = object>(options: {
  sortFields: readonly SortField[];
  defaultSort: SortField;
  filters?: UrlTableFilters<Filters>;
}) {
  const { sortFields, defaultSort } = options;
  const filters = (options.filters ?? noFilters) as UrlTableFilters<Filters>;
  const [params, setParams] = useSearchParams();
  // the page this table lives on: a late write (the debounced search) after leaving it, while the
  // next page's code is still loading, must not land in the next page's URL
  const { pathname } = useLocation();
  const ownPath = useRef(pathname);
  useEffect(() => {
    ownPath.current = pathname;
  }, [pathname]);

  const isSortField = useCallback((value: string | null): value is SortField => value !== null && (sortFields as readonly string[]).includes(value), [sortFields]);
  const readState = useCallback((from: URLSearchParams) => readUrlTableState(from, { sortFields, defaultSort, filters }), [sortFields, defaultSort, filters]);

  const state = useMemo(() => readState(params), [readState, params]);
  // for callbacks that fire later (the debounced search): the state as it is then
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  const update = useCallback(
    (change: Partial<UrlTableState<SortField> & Filters>, updateOptions?: { replace?: boolean }) => {
      if (window.location.pathname !== ownPath.current) return;
      setParams(
        (current) => {
          const next = { ...readState(current), ...change };
          const written = new URLSearchParams();
          writePaging(next, written);
          if (next.search) written.set('search', next.search);
          filters.write(next, written);
          if (next.sortBy !== defaultSort) written.set('sortBy', next.sortBy);
          if (!next.desc) written.set('desc', 'false');
          return written;
        },
        { replace: updateOptions?.replace },
      );
    },
    [setParams, readState, filters, defaultSort],
  );

  const actions = useMemo(
    () => ({
      setPage: (page: number) => update({ page } as Partial<UrlTableState<SortField> & Filters>),
      setLimit: (limit: number) => update({ limit, page: 1 } as Partial<UrlTableState<SortField> & Filters>),
      setSearch: (search: string) => {
        if (search !== latest.current.search) update({ search, page: 1 } as Partial<UrlTableState<SortField> & Filters>, { replace: true });
      },
      setFilters: (change: Partial<Filters>) => update({ ...change, page: 1 } as Partial<UrlTableState<SortField> & Filters>),
      setSort: (sortBy: string, desc: boolean) => update({ sortBy: isSortField(sortBy) ? sortBy : defaultSort, desc, page: 1 } as Partial<UrlTableState<SortField> & Filters>),
    }),
    [update, isSortField, defaultSort],
  );

  return { state, ...actions };
}
