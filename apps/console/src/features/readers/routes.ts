import { lazyWithReload } from '../../lib/lazy-with-reload';
import { readersPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the door and enrollment readers */
export const readersRoutes: AdminRoute[] = [
  { path: readersPath, permission: 'readers:manage', screen: lazyWithReload(() => import('./ReadersPage')) },
];
