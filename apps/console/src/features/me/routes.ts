import { lazyWithReload } from '../../lib/lazy-with-reload';
import { mePath } from '../../paths';
import type { ConsoleRoute } from '../../routing/console-route';

/** '/me': in the admin shell, open to every signed-in account (no permission: it shows only the account's own things) */
export const meRoutes: ConsoleRoute[] = [{ path: mePath, screen: lazyWithReload(() => import('./MePage')) }];
