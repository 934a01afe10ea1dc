import type SvgIcon from '@mui/material/SvgIcon';
import PeopleIcon from '@mui/icons-material/People';
import CorporateFareIcon from '@mui/icons-material/CorporateFare';
import GroupsIcon from '@mui/icons-material/Groups';
import AppsIcon from '@mui/icons-material/Apps';
import PolicyIcon from '@mui/icons-material/Policy';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import BarChartIcon from '@mui/icons-material/BarChart';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { matchPath } from 'react-router-dom';
import { accountsRoute } from '../features/accounts/routes';
import { organizationsRoute } from '../features/organizations/routes';
import { teamsRoute } from '../features/teams/routes';
import { applicationsRoute } from '../features/applications/routes';
import { passwordPoliciesRoute } from '../features/password-policies/routes';
import { arrivalsDeparturesRoute } from '../features/arrivals-departures/routes';
import { statisticsRoute } from '../features/statistics/routes';
import { attendanceStatusesRoute } from '../features/attendance-statuses/routes';
import { accessTokensRoute } from '../features/access-tokens/routes';

export interface NavItem {
  labelKey: string;
  to: string;
  Icon: typeof SvgIcon;
}

/** The spec's menu, in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { labelKey: 'nav.accounts', to: accountsRoute, Icon: PeopleIcon },
  { labelKey: 'nav.organizations', to: organizationsRoute, Icon: CorporateFareIcon },
  { labelKey: 'nav.teams', to: teamsRoute, Icon: GroupsIcon },
  { labelKey: 'nav.applications', to: applicationsRoute, Icon: AppsIcon },
  { labelKey: 'nav.passwordPolicies', to: passwordPoliciesRoute, Icon: PolicyIcon },
  { labelKey: 'nav.arrivalsDepartures', to: arrivalsDeparturesRoute, Icon: SwapHorizIcon },
  { labelKey: 'nav.statistics', to: statisticsRoute, Icon: BarChartIcon },
  { labelKey: 'nav.attendanceStatuses', to: attendanceStatusesRoute, Icon: EventAvailableIcon },
  { labelKey: 'nav.accessTokens', to: accessTokensRoute, Icon: VpnKeyIcon },
];

/**
 * The active entry is chosen by matching the current full path, so a detail page
 * (/accounts/profile/7) keeps its list's entry (/accounts) active.
 */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return matchPath({ path: item.to, end: false }, pathname) !== null;
}
