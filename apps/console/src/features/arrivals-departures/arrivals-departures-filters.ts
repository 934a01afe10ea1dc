import type { ARRIVALS_DEPARTURES_SORT_FIELDS, TArrivalsDeparturesInput } from '@rollcall/contracts';
import type { UrlTableFilters, UrlTableState } from '../../components/data-table/use-url-table-state';

/** a picked organization or account: its id filters, its title is kept so a reload shows the same chip */
export interface PickedFilter {
  id: string;
  title: string;
}

export interface ArrivalsDeparturesFilters {
  dateFrom: string;
  dateTo: string;
  organization: PickedFilter | null;
  account: PickedFilter | null;
  readerId: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const picked = (params: URLSearchParams, id: string, title: string): PickedFilter | null => {
  const value = params.get(id);
  return value ? { id: value, title: params.get(title) ?? value } : null;
};

const pad = (n: number) => String(n).padStart(2, '0');
/** today's date where the browser is (YYYY-MM-DD) */
export function today(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `period=all` in the URL: the whole history asked for on purpose (no date filter) */
const WHOLE_HISTORY = 'all';

/**
 * The log's filters in the URL. Without dates it opens on today (as attendance consoles open on the
 * current day); the whole history is asked for on purpose (`period=all`), so a link keeps it.
 */
export const arrivalsDeparturesFilters: UrlTableFilters<ArrivalsDeparturesFilters> = {
  read: (params) => {
    const from = DATE.test(params.get('date_from') ?? '') ? (params.get('date_from') as string) : '';
    const to = DATE.test(params.get('date_to') ?? '') ? (params.get('date_to') as string) : '';
    const dated = from !== '' || to !== '' || params.get('period') === WHOLE_HISTORY;
    return { ...readRest(params), dateFrom: dated ? from : today(), dateTo: dated ? to : today() };
  },
  write: ({ dateFrom, dateTo, organization, account, readerId }, params) => {
    if (dateFrom) params.set('date_from', dateFrom);
    if (dateTo) params.set('date_to', dateTo);
    if (!dateFrom && !dateTo) params.set('period', WHOLE_HISTORY);
    if (organization) {
      params.set('organization_id', organization.id);
      params.set('organization', organization.title);
    }
    if (account) {
      params.set('account_id', account.id);
      params.set('account', account.title);
    }
    if (readerId) params.set('reader_id', readerId);
  },
};

function readRest(params: URLSearchParams): Omit<ArrivalsDeparturesFilters, 'dateFrom' | 'dateTo'> {
  return {
    organization: picked(params, 'organization_id', 'organization'),
    account: picked(params, 'account_id', 'account'),
    readerId: params.get('reader_id') ?? '',
  };
}

/** the log's input: page, size, sort and its filters (date range, organization, account, reader) */
export const arrivalsDeparturesInput = (state: UrlTableState<(typeof ARRIVALS_DEPARTURES_SORT_FIELDS)[number]> & ArrivalsDeparturesFilters): TArrivalsDeparturesInput => ({
  page: state.page,
  limit: state.limit,
  sortBy: state.sortBy,
  desc: state.desc,
  date_from: state.dateFrom || undefined,
  date_to: state.dateTo || undefined,
  organization_id: state.organization?.id,
  account_id: state.account?.id,
  reader_id: state.readerId || undefined,
});
