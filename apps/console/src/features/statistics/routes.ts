import { lazyWithReload } from '../../lib/lazy-with-reload';
import { statisticsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** attendance statistics per account and month */
export const statisticsRoutes: AdminRoute[] = [
  { path: statisticsPath, permission: 'attendance:read', screen: lazyWithReload(() => import('./StatisticsPage')) },
];
