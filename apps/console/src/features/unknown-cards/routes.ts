import { lazyWithReload } from '../../lib/lazy-with-reload';
import { unknownCardsPath } from '../../paths';
import type { AdminRoute } from '../../routing/console-route';

/** cards scanned that no account holds: the permission of `GET scanner/unknown-cards` */
export const unknownCardsRoutes: AdminRoute[] = [{ path: unknownCardsPath, permission: 'readers:manage', screen: lazyWithReload(() => import('./UnknownCardsPage')) }];
