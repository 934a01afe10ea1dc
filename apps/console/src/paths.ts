/**
 * Every address of the console and the links to them (the spec's routes, exactly). A screen links
 * to another feature's screen through this file, never through that feature's folder; each
 * feature's `routes.ts` says which screen answers a path and who may see it.
 */

/** The root path: target after logout and after a loss of access (401/403). */
export const indexPath = '/';
export const signInPath = '/login';
export const changePasswordPath = '/change-password';
/** where a session whose password policy requires a second factor it lacks enrols one before anything else (docs/adr/0025) */
export const enrolSecondFactorPath = '/second-factor/enrol';
/** public: the link of an activation e-mail (the API builds it as ROLLCALL_PUBLIC_URL + /activate/<token>) */
export const activatePath = '/activate/:token';
/**
 * The provider's sign-in and consent page (outside the admin shell). The API's OpenID Connect
 * provider sends the browser here (its interaction URL) and answers the page's JSON calls under the
 * same path, where its interaction cookie is sent.
 */
export const oidcInteractionPath = '/oidc/interaction/:uid';

export const accountsPath = '/accounts';
/** The id is optional (spec): without it the profile screen has no account to show yet. */
export const accountProfilePath = '/accounts/profile/:id?';
export const organizationsPath = '/organizations';
export const organizationDetailsPath = '/organizations/details/:id?';
export const teamsPath = '/teams';
export const teamDetailsPath = '/teams/details/:id';
export const applicationsPath = '/applications';
export const applicationDetailsPath = '/applications/details/:id?';
export const passwordPoliciesPath = '/password-policies';
export const presencePath = '/presence';
export const arrivalsDeparturesPath = '/arrivals-departures';
export const statisticsPath = '/statistics';
export const attendanceStatusesPath = '/attendance-statuses';
export const readersPath = '/readers';
export const unknownCardsPath = '/unknown-cards';
export const accessTokensPath = '/access-tokens';
export const auditEventsPath = '/audit/events';
export const projectionsPath = '/audit/projections';

export const toIndex = (): string => indexPath;
export const toSignIn = (): string => signInPath;
export const toChangePassword = (): string => changePasswordPath;
export const toEnrolSecondFactor = (): string => enrolSecondFactorPath;
export const toAccounts = (): string => accountsPath;
export const toAccount = (id: string): string => `/accounts/profile/${encodeURIComponent(id)}`;
export const toOrganizations = (): string => organizationsPath;
export const toOrganization = (id: string): string => `/organizations/details/${encodeURIComponent(id)}`;
export const toTeams = (): string => teamsPath;
export const toTeam = (id: string): string => `/teams/details/${encodeURIComponent(id)}`;
export const toApplications = (): string => applicationsPath;
export const toApplication = (id: string): string => `/applications/details/${encodeURIComponent(id)}`;

/**
 * The Event log, optionally of one entity's streams: `{ stream: 'account-<id>' }` shows the account's
 * stream and its day streams. The parameter is the one the Event log reads (features/audit/audit-filters.ts).
 */
export const toAuditEvents = ({ stream }: { stream?: string } = {}): string => (stream ? `${auditEventsPath}?${new URLSearchParams({ stream }).toString()}` : auditEventsPath);

/** A page of one's own: every signed-in account's profile, password, sessions, attendance and applications (the landing page of an account that administers nothing). */
export const mePath = '/me';
export const toMe = (): string => mePath;
