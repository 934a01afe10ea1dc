import { isValidElement } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { isPreloadable, lazyWithReload } from './lib/lazy-with-reload';
import BlankLayout from './layouts/BlankLayout';
import { NotFoundPage, RouteErrorPage } from './features/errors/ErrorPage';
import { accountProfilePath, accountsPath, accessTokensPath, auditEventsPath, projectionsPath, applicationDetailsPath, applicationsPath, arrivalsDeparturesPath, attendanceStatusesPath, activatePath, changePasswordPath, indexPath, signInPath, organizationDetailsPath, organizationsPath, passwordPoliciesPath, statisticsPath, teamsPath, readersPath, presencePath, oidcInteractionPath } from './paths';

// Route-level code splitting: each screen (and the admin shell) is its own chunk.
const AdminLayout = lazyWithReload(() => import('./layouts/AdminLayout'));
const IndexPage = lazyWithReload(() => import('./features/auth/IndexPage'));
const SignInPage = lazyWithReload(() => import('./features/auth/SignInPage'));
const ChangePasswordPage = lazyWithReload(() => import('./features/auth/ChangePasswordPage'));
const ActivatePage = lazyWithReload(() => import('./features/auth/ActivatePage'));
const AccountsPage = lazyWithReload(() => import('./features/accounts/AccountsPage'));
const AccountProfilePage = lazyWithReload(() => import('./features/accounts/profile/AccountProfilePage'));
const PasswordPoliciesPage = lazyWithReload(() => import('./features/password-policies/PasswordPoliciesPage'));
const AccessTokensPage = lazyWithReload(() => import('./features/access-tokens/AccessTokensPage'));
const EventLogPage = lazyWithReload(() => import('./features/audit/EventLogPage'));
const ProjectionsPage = lazyWithReload(() => import('./features/audit/ProjectionsPage'));
const OrganizationsPage = lazyWithReload(() => import('./features/organizations/OrganizationsPage'));
const OrganizationDetailsPage = lazyWithReload(() => import('./features/organizations/details/OrganizationDetailsPage'));
const TeamsPage = lazyWithReload(() => import('./features/teams/TeamsPage'));
const ApplicationsPage = lazyWithReload(() => import('./features/applications/ApplicationsPage'));
const ApplicationDetailsPage = lazyWithReload(() => import('./features/applications/details/ApplicationDetailsPage'));
const AttendanceStatusesPage = lazyWithReload(() => import('./features/attendance-statuses/AttendanceStatusesPage'));
const ReadersPage = lazyWithReload(() => import('./features/readers/ReadersPage'));
const ArrivalsDeparturesPage = lazyWithReload(() => import('./features/arrivals-departures/ArrivalsDeparturesPage'));
const PresencePage = lazyWithReload(() => import('./features/presence/PresencePage'));
const StatisticsPage = lazyWithReload(() => import('./features/statistics/StatisticsPage'));
const OidcInteractionPage = lazyWithReload(() => import('./features/oidc/OidcInteractionPage'));

const adminScreens: RouteObject[] = [
  { path: accountsPath, element: <AccountsPage /> },
  { path: accountProfilePath, element: <AccountProfilePage /> },
  { path: organizationsPath, element: <OrganizationsPage /> },
  { path: organizationDetailsPath, element: <OrganizationDetailsPage /> },
  { path: teamsPath, element: <TeamsPage /> },
  { path: applicationsPath, element: <ApplicationsPage /> },
  { path: applicationDetailsPath, element: <ApplicationDetailsPage /> },
  { path: passwordPoliciesPath, element: <PasswordPoliciesPage /> },
  { path: presencePath, element: <PresencePage /> },
  { path: arrivalsDeparturesPath, element: <ArrivalsDeparturesPage /> },
  { path: statisticsPath, element: <StatisticsPage /> },
  { path: attendanceStatusesPath, element: <AttendanceStatusesPage /> },
  { path: readersPath, element: <ReadersPage /> },
  { path: accessTokensPath, element: <AccessTokensPage /> },
  { path: auditEventsPath, element: <EventLogPage /> },
  { path: projectionsPath, element: <ProjectionsPage /> },
];

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: indexPath,
        element: <BlankLayout />,
        children: [
          { index: true, element: <IndexPage /> },
          { path: signInPath, element: <SignInPage /> },
          { path: changePasswordPath, element: <ChangePasswordPage /> },
          { path: activatePath, element: <ActivatePage /> },
          { path: oidcInteractionPath, element: <OidcInteractionPage /> },
        ],
      },
      {
        element: <AdminLayout />,
        // A failing screen shows the error page inside the shell, so the menu stays usable.
        children: [{ errorElement: <RouteErrorPage embedded />, children: adminScreens }],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Starts loading the code of the screen at `pathname` and of its layout at once, before the first
 * render. Left to React, the admin shell's chunk loads first and the screen's only once the shell
 * renders, and the shell's `auth.me` call waits for both (issue 10: time to the first list).
 * `admin`: the path is an admin screen, which asks `auth.me` first; `loaded`: when the code is here.
 */
export function preloadScreen(pathname: string): { admin: boolean; loaded: Promise<void> } {
  let admin = false;
  const loading: Array<Promise<void>> = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const type = isValidElement(route.element) ? route.element.type : undefined;
    if (type === AdminLayout) admin = true;
    if (isPreloadable(type)) loading.push(type.preload());
  }
  return { admin, loaded: Promise.all(loading).then(() => undefined) };
}

export const router = createBrowserRouter(routes);
