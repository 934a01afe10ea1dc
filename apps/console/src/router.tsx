import { isValidElement } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { isPreloadable, lazyWithReload } from './lib/lazy-with-reload';
import BlankLayout from './layouts/BlankLayout';
import type { AdminRoute, ConsoleRoute } from './routing/console-route';
import { RequirePermission } from './routing/RequirePermission';
import { NotFoundPage, RouteErrorPage } from './features/errors/ErrorPage';
import { accessTokensRoutes } from './features/access-tokens/routes';
import { accountsRoutes } from './features/accounts/routes';
import { applicationsRoutes } from './features/applications/routes';
import { arrivalsDeparturesRoutes } from './features/arrivals-departures/routes';
import { attendanceStatusesRoutes } from './features/attendance-statuses/routes';
import { auditRoutes } from './features/audit/routes';
import { authRoutes } from './features/auth/routes';
import { oidcRoutes } from './features/oidc/routes';
import { organizationsRoutes } from './features/organizations/routes';
import { passwordPoliciesRoutes } from './features/password-policies/routes';
import { presenceRoutes } from './features/presence/routes';
import { readersRoutes } from './features/readers/routes';
import { unknownCardsRoutes } from './features/unknown-cards/routes';
import { statisticsRoutes } from './features/statistics/routes';
import { teamsRoutes } from './features/teams/routes';
import { meRoutes } from './features/me/routes';
import { secondFactorsRoutes } from './features/second-factors/routes';

// Route-level code splitting: each screen (features/*/routes.ts) and the admin shell is its own chunk.
const AdminLayout = lazyWithReload(() => import('./layouts/AdminLayout'), { firstScreen: 'accounts' });

/** the pages outside the admin shell: title bar and a centred form */
const publicScreens: ConsoleRoute[] = [...authRoutes, ...oidcRoutes, ...secondFactorsRoutes];

/** the screens of the admin shell, each with the permission it needs */
const adminScreens: AdminRoute[] = [
  ...accountsRoutes,
  ...organizationsRoutes,
  ...teamsRoutes,
  ...applicationsRoutes,
  ...passwordPoliciesRoutes,
  ...presenceRoutes,
  ...arrivalsDeparturesRoutes,
  ...statisticsRoutes,
  ...attendanceStatusesRoutes,
  ...readersRoutes,
  ...unknownCardsRoutes,
  ...accessTokensRoutes,
  ...auditRoutes,
];

/** the screens of the admin shell every signed-in account may see (its own things): no permission to check */
const ownScreens: ConsoleRoute[] = [...meRoutes];

/** what router.tsx keeps of a screen beside its element (react-router's `handle`) */
interface ScreenHandle {
  prefetch?: ConsoleRoute['prefetch'];
}

const publicRoute = ({ path, screen: Screen, prefetch }: ConsoleRoute): RouteObject => ({ path, element: <Screen />, handle: { prefetch } satisfies ScreenHandle });
const adminRoute = ({ path, screen: Screen, permission, prefetch }: AdminRoute): RouteObject => ({
  element: <RequirePermission permission={permission} />,
  children: [{ path, element: <Screen />, handle: { prefetch } satisfies ScreenHandle }],
});

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { element: <BlankLayout />, children: publicScreens.map(publicRoute) },
      {
        element: <AdminLayout />,
        // A failing screen shows the error page inside the shell, so the menu stays usable.
        children: [{ errorElement: <RouteErrorPage embedded />, children: [...adminScreens.map(adminRoute), ...ownScreens.map(publicRoute)] }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Starts loading the code of the screen at `pathname` and of its layout at once, before the first
 * render. Left to React, the admin shell's chunk loads first and the screen's only once the shell
 * renders, and the shell's `auth.me` call waits for both (the time to the first list).
 * `admin`: the path is an admin screen, which asks `auth.me` first; `loaded`: when the code is here;
 * `prefetch`: the screen's first queries, to ask with `auth.me`.
 */
export function preloadScreen(pathname: string): { admin: boolean; loaded: Promise<void>; prefetch: ConsoleRoute['prefetch'] } {
  let admin = false;
  let prefetch: ConsoleRoute['prefetch'];
  const loading: Array<Promise<void>> = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const type = isValidElement(route.element) ? route.element.type : undefined;
    if (type === AdminLayout) admin = true;
    if (isPreloadable(type)) loading.push(type.preload());
    prefetch ??= (route.handle as ScreenHandle | undefined)?.prefetch;
  }
  return { admin, loaded: Promise.all(loading).then(() => undefined), prefetch };
}

export const router = createBrowserRouter(routes);
