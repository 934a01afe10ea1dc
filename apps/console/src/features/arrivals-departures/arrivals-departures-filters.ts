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

/** the log's filters in the URL */
export const arrivalsDeparturesFilters: UrlTableFilters<ArrivalsDeparturesFilters> = {
  read: (params) => ({
    dateFrom: DATE.test(params.get('date_from') ?? '') ? (params.get('date_from') as string) : '',
    dateTo: DATE.test(params.get('date_to') ?? '') ? (params.get('date_to') as string) : '',
    organization: picked(params, 'organization_id', 'organization'),
    account: picked(params, 'account_id', 'account'),
    readerId: params.get('reader_id') ?? '',
  }),
  write: ({ dateFrom, dateTo, organization, account, readerId }, params) => {
    if (dateFrom) params.set('date_from', dateFrom);
    if (dateTo) params.set('date_to', dateTo);
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
