import type { QueryBus } from '@nestjs/cqrs';
import { buildAccessTokensRouter } from './features/access-tokens/trpc/access-tokens.router';
import { accountsLiveProcedure, buildAccountsRouter, buildServerRouter, changeOwnPasswordProcedure } from './features/accounts/trpc/accounts.router';
import { buildApplicationsRouter } from './features/applications/trpc/applications.router';
import { buildAttendanceStatusesRouter } from './features/attendance-statuses/trpc/attendance-statuses.router';
import { buildArrivalsDeparturesRouter } from './features/attendance/trpc/arrivals-departures.router';
import { buildAttendanceReportsRouter } from './features/attendance/trpc/attendance-reports.router';
import { attendanceLiveProcedure, buildSmartCardsRouter } from './features/attendance/trpc/attendance.router';
import { buildAuditRouter } from './features/audit/trpc/audit.router';
import { authProcedures } from './features/auth/trpc/auth.router';
import { buildCalendarRouter } from './features/calendar/trpc/calendar.router';
import { buildConsentsRouter } from './features/oidc/trpc/oidc.router';
import { buildMeRouter } from './features/me/trpc/me.router';
import { buildOrganizationsRouter } from './features/organizations/trpc/organizations.router';
import { buildPoliciesRouter } from './features/policies/trpc/policies.router';
import { buildReadersRouter } from './features/readers/trpc/readers.router';
import { buildSsoClaimsRouter } from './features/sso-claims/trpc/sso-claims.router';
import { buildSecondFactorsRouter } from './features/second-factors/trpc/second-factors.router';
import { buildTeamsRouter } from './features/teams/trpc/teams.router';
import type { CommandGateway } from './platform/commands/command-gateway';
import { type LiveFeed } from './platform/live/live-feed';
import type { ProjectionsService } from './platform/projections/projections.service';
import { router } from './platform/trpc/trpc';

export interface AppRouterDeps {
  gateway: CommandGateway;
  queryBus: QueryBus;
  live: LiveFeed;
  projectionsService: ProjectionsService;
}

/** The console's API: the same command and query handlers as REST v1 and v2. */
export function buildAppRouter({ gateway, queryBus, live, projectionsService }: AppRouterDeps) {
  return router({
    auth: router({ ...authProcedures({ gateway, queryBus }), changePassword: changeOwnPasswordProcedure({ gateway }) }),
    accounts: buildAccountsRouter({ gateway, queryBus }),
    server: buildServerRouter(),
    policies: buildPoliciesRouter({ gateway, queryBus }),
    tokens: buildAccessTokensRouter({ gateway, queryBus }),
    organizations: buildOrganizationsRouter({ gateway, queryBus }),
    teams: buildTeamsRouter({ gateway, queryBus }),
    attendanceStatuses: buildAttendanceStatusesRouter({ gateway, queryBus }),
    calendar: buildCalendarRouter({ gateway, queryBus }),
    applications: buildApplicationsRouter({ gateway, queryBus }),
    readers: buildReadersRouter({ gateway, queryBus }),
    smartCards: buildSmartCardsRouter({ gateway, queryBus }),
    arrivalsDepartures: buildArrivalsDeparturesRouter({ gateway, queryBus }),
    attendanceReports: buildAttendanceReportsRouter({ queryBus }),
    audit: buildAuditRouter({ gateway, queryBus, projectionsService }),
    consents: buildConsentsRouter({ gateway, queryBus }),
    ssoClaims: buildSsoClaimsRouter({ gateway, queryBus }),
    secondFactors: buildSecondFactorsRouter({ gateway, queryBus }),
    me: buildMeRouter({ gateway, queryBus }),
    live: router({
      attendance: attendanceLiveProcedure(live),
      accounts: accountsLiveProcedure(live),
    }),
  });
}

export type AppRouter = ReturnType<typeof buildAppRouter>;
