import { lazyWithReload } from '../../lib/lazy-with-reload';
import { teamDetailsPath, teamsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the team list and a team's details */
export const teamsRoutes: AdminRoute[] = [
  { path: teamsPath, permission: 'teams:read', screen: lazyWithReload(() => import('./TeamsPage')) },
  { path: teamDetailsPath, permission: 'teams:read', screen: lazyWithReload(() => import('./details/TeamDetailsPage')) },
];
