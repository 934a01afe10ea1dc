import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import { AccessTokensModule } from './features/access-tokens/access-tokens.module';
import { AccountsModule } from './features/accounts/accounts.module';
import { AuthModule } from './features/auth/auth.module';
import { BootstrapAdminService } from './features/accounts/bootstrap-admin.service';
import type { AppConfig } from './platform/config/app-config';
import { CoreModule } from './platform/platform.module';
import { APP_CONFIG } from './platform/tokens';
import { OpenApiController } from './platform/http/openapi/openapi.controller';
import { LIVE_SOURCES, LiveFeed } from './platform/live/live-feed';
import { attendanceLive } from './features/attendance/attendance.live';
import { accountChangesLive } from './features/accounts/accounts.live';
import { MailModule } from './platform/mail/mail.module';
import { OrganizationsModule } from './features/organizations/organizations.module';
import { PoliciesModule } from './features/policies/policies.module';
import { TeamsModule } from './features/teams/teams.module';
import { ApplicationsModule } from './features/applications/applications.module';
import { TRPC_ROUTER, TrpcServer } from './platform/trpc/trpc-server';
import { QueryBus } from '@nestjs/cqrs';
import { CommandGateway } from './platform/commands/command-gateway';
import { ProjectionsService } from './platform/projections/projections.service';
import { buildAppRouter } from './root-router';
import { allProjections } from './all-projections';
import { PROJECTION_WORKER_SCRIPT, PROJECTIONS } from './platform/projections/projection-registry';
import { DoorProtocolModule } from './features/doors/door-protocol.module';
import { ReadersModule } from './features/readers/readers.module';
import { AttendanceModule } from './features/attendance/attendance.module';
import { AttendanceStatusesModule } from './features/attendance-statuses/attendance-statuses.module';
import { CalendarModule } from './features/calendar/calendar.module';
import { AuditModule } from './features/audit/audit.module';
import { OidcModule } from './features/oidc/oidc.module';
import { SsoClaimsModule } from './features/sso-claims/sso-claims.module';
import { MeModule } from './features/me/me.module';
import { SecondFactorsModule } from './features/second-factors/second-factors.module';

import { HealthController } from './platform/operations/health.controller';
import { MetricsController } from './platform/operations/metrics.controller';
import { OperationsGauges } from './platform/operations/operations-gauges';

/**
 * The worker thread's entry beside this file once built; running from the sources (the test suites),
 * the built one (`npm run build`), since a worker thread runs JavaScript.
 */
function projectionWorkerScript(): string {
  const beside = join(__dirname, 'projection-worker.js');
  return existsSync(beside) ? beside : join(__dirname, '../dist/projection-worker.js');
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const configModule: DynamicModule = { module: class ConfigModule {}, global: true, providers: [{ provide: APP_CONFIG, useValue: config }, { provide: PROJECTIONS, useFactory: allProjections }, { provide: PROJECTION_WORKER_SCRIPT, useValue: projectionWorkerScript() }], exports: [APP_CONFIG, PROJECTIONS, PROJECTION_WORKER_SCRIPT] };
    return {
      module: AppModule,
      // the reader protocol first: a door's scan is the busiest request and Express tries routes in
      // order (features/doors/door-protocol.module.ts); then AuthModule, whose fixed routes
      // (account/current) must be matched before account/:id
      imports: [configModule, CoreModule, DoorProtocolModule, AuthModule, AccountsModule, PoliciesModule, AccessTokensModule, OrganizationsModule, MailModule, TeamsModule, ApplicationsModule, AttendanceStatusesModule, CalendarModule, ReadersModule, AttendanceModule, AuditModule, SsoClaimsModule, OidcModule, MeModule, SecondFactorsModule],
      controllers: [OpenApiController, HealthController, MetricsController],
      providers: [
        { provide: LIVE_SOURCES, useValue: [attendanceLive, accountChangesLive] },
        LiveFeed,
        {
          provide: TRPC_ROUTER,
          inject: [CommandGateway, QueryBus, LiveFeed, ProjectionsService],
          useFactory: (gateway: CommandGateway, queryBus: QueryBus, live: LiveFeed, projectionsService: ProjectionsService) => buildAppRouter({ gateway, queryBus, live, projectionsService }),
        },
        TrpcServer, BootstrapAdminService, OperationsGauges],
    };
  }
}
