import { lazyWithReload } from '../../lib/lazy-with-reload';
import { accountProfilePath, accountsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';
import { prefetchAccountsList } from './accounts-list-query';

/** the account list and an account's profile */
export const accountsRoutes: AdminRoute[] = [
  { path: accountsPath, permission: 'accounts:read', screen: lazyWithReload(() => import('./AccountsPage'), { firstScreen: 'accounts' }), prefetch: prefetchAccountsList },
  { path: accountProfilePath, permission: 'accounts:read', screen: lazyWithReload(() => import('./profile/AccountProfilePage')) },
];
