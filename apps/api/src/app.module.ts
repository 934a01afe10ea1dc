import { type DynamicModule, Module } from '@nestjs/common';
import { AccessTokensModule } from './access-tokens/access-tokens.module';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { BootstrapAdminService } from './bootstrap/bootstrap-admin.service';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core/core.module';
import { APP_CONFIG } from './core/tokens';
import { OpenApiController } from './http/openapi/openapi.controller';
import { LiveFeed } from './live/live-feed';
import { MailModule } from './mail/mail.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PoliciesModule } from './policies/policies.module';
import { TeamsModule } from './teams/teams.module';
import { ApplicationsModule } from './applications/applications.module';
import { TrpcServer } from './trpc/trpc-server';
import { ReaderProtocolModule } from './readers/reader-protocol.module';
import { ReadersModule } from './readers/readers.module';
import { AttendanceModule } from './attendance/attendance.module';
import { AttendanceStatusesModule } from './attendance-statuses/attendance-statuses.module';
import { CalendarModule } from './calendar/calendar.module';
import { AuditModule } from './audit/audit.module';
import { OidcModule } from './oidc/oidc.module';
import { SsoClaimsModule } from './sso-claims/sso-claims.module';

import { HealthController } from './operations/health.controller';
import { MetricsController } from './operations/metrics.controller';
import { OperationsGauges } from './operations/operations-gauges';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const configModule: DynamicModule = { module: class ConfigModule {}, global: true, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
    return {
      module: AppModule,
      // the reader protocol first: a door's scan is the busiest request and Express tries routes in
      // order (readers/reader-protocol.module.ts); then AuthModule, whose fixed routes
      // (account/current) must be matched before account/:id
      imports: [configModule, CoreModule, ReaderProtocolModule, AuthModule, AccountsModule, PoliciesModule, AccessTokensModule, OrganizationsModule, MailModule, TeamsModule, ApplicationsModule, AttendanceStatusesModule, CalendarModule, ReadersModule, AttendanceModule, AuditModule, SsoClaimsModule, OidcModule],
      controllers: [OpenApiController, HealthController, MetricsController],
      providers: [LiveFeed, TrpcServer, BootstrapAdminService, OperationsGauges],
    };
  }
}
