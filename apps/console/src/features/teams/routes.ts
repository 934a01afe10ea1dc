import { lazyWithReload } from '../../lib/lazy-with-reload';
import { teamsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the team list */
export const teamsRoutes: AdminRoute[] = [
  { path: teamsPath, permission: 'teams:read', screen: lazyWithReload(() => import('./TeamsPage')) },
];
