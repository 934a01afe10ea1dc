import { lazyWithReload } from '../../lib/lazy-with-reload';
import { organizationDetailsPath, organizationsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the organization list and an organization's details */
export const organizationsRoutes: AdminRoute[] = [
  { path: organizationsPath, permission: 'organizations:read', screen: lazyWithReload(() => import('./OrganizationsPage')) },
  { path: organizationDetailsPath, permission: 'organizations:read', screen: lazyWithReload(() => import('./details/OrganizationDetailsPage')) },
];
