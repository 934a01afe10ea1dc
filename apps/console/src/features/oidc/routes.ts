import { lazyWithReload } from '../../lib/lazy-with-reload';
import { oidcInteractionPath } from '../../paths';
import type { ConsoleRoute } from '../../routing/console-route';

/** the single sign-on provider's sign-in and consent page: outside the admin shell, open to anyone */
export const oidcRoutes: ConsoleRoute[] = [
  { path: oidcInteractionPath, screen: lazyWithReload(() => import('./OidcInteractionPage')) },
];
