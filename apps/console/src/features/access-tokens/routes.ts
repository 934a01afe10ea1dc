import { lazyWithReload } from '../../lib/lazy-with-reload';
import { accessTokensPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** every access token of every account */
export const accessTokensRoutes: AdminRoute[] = [
  { path: accessTokensPath, permission: 'tokens:read', screen: lazyWithReload(() => import('./AccessTokensPage')) },
];
