import { lazyWithReload } from '../../lib/lazy-with-reload';
import { arrivalsDeparturesPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the arrivals and departures log */
export const arrivalsDeparturesRoutes: AdminRoute[] = [
  { path: arrivalsDeparturesPath, permission: 'attendance:read', screen: lazyWithReload(() => import('./ArrivalsDeparturesPage')) },
];
