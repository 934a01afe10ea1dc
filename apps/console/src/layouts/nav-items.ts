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
import CreditCardOffIcon from '@mui/icons-material/CreditCardOff';
import type { SystemPermission, TGrants } from '@rollcall/contracts';
import { matchPath } from 'react-router-dom';
import { accountsPath, organizationsPath, teamsPath, applicationsPath, passwordPoliciesPath, arrivalsDeparturesPath, statisticsPath, attendanceStatusesPath, accessTokensPath, auditEventsPath, projectionsPath, readersPath, presencePath, unknownCardsPath } from '../paths';

export interface NavItem {
  labelKey: string;
  to: string;
  Icon: typeof SvgIcon;
  /** shown only to those who hold it somewhere (docs/adr/0011) */
  permission: SystemPermission;
}

/** The spec's menu, in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { labelKey: 'nav.accounts', to: accountsPath, Icon: PeopleIcon, permission: 'accounts:read' },
  { labelKey: 'nav.organizations', to: organizationsPath, Icon: CorporateFareIcon, permission: 'organizations:read' },
  { labelKey: 'nav.teams', to: teamsPath, Icon: GroupsIcon, permission: 'teams:read' },
  { labelKey: 'nav.applications', to: applicationsPath, Icon: AppsIcon, permission: 'applications:read' },
  { labelKey: 'nav.passwordPolicies', to: passwordPoliciesPath, Icon: PolicyIcon, permission: 'policies:read' },
  { labelKey: 'nav.presence', to: presencePath, Icon: HowToRegIcon, permission: 'attendance:read' },
  { labelKey: 'nav.arrivalsDepartures', to: arrivalsDeparturesPath, Icon: SwapHorizIcon, permission: 'attendance:read' },
  { labelKey: 'nav.statistics', to: statisticsPath, Icon: BarChartIcon, permission: 'attendance:read' },
  { labelKey: 'nav.attendanceStatuses', to: attendanceStatusesPath, Icon: EventAvailableIcon, permission: 'attendance:read' },
  { labelKey: 'nav.readers', to: readersPath, Icon: SensorDoorIcon, permission: 'readers:manage' },
  { labelKey: 'nav.unknownCards', to: unknownCardsPath, Icon: CreditCardOffIcon, permission: 'readers:manage' },
  { labelKey: 'nav.accessTokens', to: accessTokensPath, Icon: VpnKeyIcon, permission: 'tokens:read' },
  { labelKey: 'nav.auditEvents', to: auditEventsPath, Icon: HistoryIcon, permission: 'audit:read' },
  { labelKey: 'nav.projections', to: projectionsPath, Icon: StorageIcon, permission: 'projections:manage' },
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
