import type { TStatisticsListInput } from '@rollcall/contracts';
import type { UrlTableFilters, UrlTableState } from '../../components/data-table/use-url-table-state';

export interface PickedOrganization {
  id: string;
  title: string;
}

export interface StatisticsFilters {
  /** YYYY-MM, '' for this month */
  month: string;
  organization: PickedOrganization | null;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** the screen's month and organization in the URL */
export const statisticsFilters: UrlTableFilters<StatisticsFilters> = {
  read: (params) => {
    const organization = params.get('organization_id');
    return {
      month: MONTH.test(params.get('date_at') ?? '') ? (params.get('date_at') as string) : '',
      organization: organization ? { id: organization, title: params.get('organization') ?? organization } : null,
    };
  },
  write: ({ month, organization }, params) => {
    if (month) params.set('date_at', month);
    if (organization) {
      params.set('organization_id', organization.id);
      params.set('organization', organization.title);
    }
  },
};

/** the month's input: page, size, month and organization (the rows come by name; there is nothing to sort) */
export const statisticsInput = (state: UrlTableState<string> & StatisticsFilters): TStatisticsListInput => ({ page: state.page, limit: state.limit, date_at: state.month || undefined, organization_id: state.organization?.id });
