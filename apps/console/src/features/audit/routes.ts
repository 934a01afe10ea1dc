import { lazyWithReload } from '../../lib/lazy-with-reload';
import { auditEventsPath, projectionsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the event log and the read models' state */
export const auditRoutes: AdminRoute[] = [
  { path: auditEventsPath, permission: 'audit:read', screen: lazyWithReload(() => import('./EventLogPage')) },
  { path: projectionsPath, permission: 'projections:manage', screen: lazyWithReload(() => import('./ProjectionsPage')) },
];
