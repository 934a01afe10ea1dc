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
import HistoryIcon from '@mui/icons-material/History';
import StorageIcon from '@mui/icons-material/Storage';
import SensorDoorIcon from '@mui/icons-material/SensorDoor';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import type { SystemPermission, TGrants } from '@rollcall/contracts';
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
import { auditEventsRoute, projectionsRoute } from '../features/audit/routes';
import { readersRoute } from '../features/readers/routes';
import { presenceRoute } from '../features/presence/routes';

export interface NavItem {
  labelKey: string;
  to: string;
  Icon: typeof SvgIcon;
  /** shown only to those who hold it somewhere (docs/adr/0011) */
  permission: SystemPermission;
}

/** The spec's menu, in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { labelKey: 'nav.accounts', to: accountsRoute, Icon: PeopleIcon, permission: 'accounts:read' },
  { labelKey: 'nav.organizations', to: organizationsRoute, Icon: CorporateFareIcon, permission: 'organizations:read' },
  { labelKey: 'nav.teams', to: teamsRoute, Icon: GroupsIcon, permission: 'teams:read' },
  { labelKey: 'nav.applications', to: applicationsRoute, Icon: AppsIcon, permission: 'applications:read' },
  { labelKey: 'nav.passwordPolicies', to: passwordPoliciesRoute, Icon: PolicyIcon, permission: 'policies:read' },
  { labelKey: 'nav.presence', to: presenceRoute, Icon: HowToRegIcon, permission: 'attendance:read' },
  { labelKey: 'nav.arrivalsDepartures', to: arrivalsDeparturesRoute, Icon: SwapHorizIcon, permission: 'attendance:read' },
  { labelKey: 'nav.statistics', to: statisticsRoute, Icon: BarChartIcon, permission: 'attendance:read' },
  { labelKey: 'nav.attendanceStatuses', to: attendanceStatusesRoute, Icon: EventAvailableIcon, permission: 'attendance:read' },
  { labelKey: 'nav.readers', to: readersRoute, Icon: SensorDoorIcon, permission: 'readers:manage' },
  { labelKey: 'nav.accessTokens', to: accessTokensRoute, Icon: VpnKeyIcon, permission: 'tokens:read' },
  { labelKey: 'nav.auditEvents', to: auditEventsRoute, Icon: HistoryIcon, permission: 'audit:read' },
  { labelKey: 'nav.projections', to: projectionsRoute, Icon: StorageIcon, permission: 'projections:manage' },
];

/**
 * The active entry is chosen by matching the current full path, so a detail page
 * (/accounts/profile/7) keeps its list's entry (/accounts) active.
 */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return matchPath({ path: item.to, end: false }, pathname) !== null;
}

/** Where a signed-in account starts: the first menu entry it may use; null when it administers nothing. */
export function homeFor(grants: TGrants): string | null {
  return NAV_ITEMS.find((item) => grants.anywhere.includes(item.permission))?.to ?? null;
}
