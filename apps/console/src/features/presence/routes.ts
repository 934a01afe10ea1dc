import { lazyWithReload } from '../../lib/lazy-with-reload';
import { presencePath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** who is in right now */
export const presenceRoutes: AdminRoute[] = [
  { path: presencePath, permission: 'attendance:read', screen: lazyWithReload(() => import('./PresencePage')) },
];
