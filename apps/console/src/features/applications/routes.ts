import { lazyWithReload } from '../../lib/lazy-with-reload';
import { applicationDetailsPath, applicationsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the application list and an application's details */
export const applicationsRoutes: AdminRoute[] = [
  { path: applicationsPath, permission: 'applications:read', screen: lazyWithReload(() => import('./ApplicationsPage')) },
  { path: applicationDetailsPath, permission: 'applications:read', screen: lazyWithReload(() => import('./details/ApplicationDetailsPage')) },
];
