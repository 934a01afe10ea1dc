import { lazyWithReload } from '../../lib/lazy-with-reload';
import { passwordPoliciesPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** the password policies */
export const passwordPoliciesRoutes: AdminRoute[] = [
  { path: passwordPoliciesPath, permission: 'policies:read', screen: lazyWithReload(() => import('./PasswordPoliciesPage')) },
];
