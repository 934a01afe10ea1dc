import { Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ProjectionRegistry } from '../core/projection-registry';
import { AuthGuard } from './auth.guard';
import { SignInHandler } from './commands/sign-in.handler';
import { SignOutHandler } from './commands/sign-out.handler';
import { SessionsProjection } from './projections/sessions.projection';
import { CurrentAccountHandler } from './queries/current-account.query';
import { ResolveSessionHandler } from './queries/resolve-session.query';
import { AuthV1Controller } from './rest/auth.v1.controller';
import { AuthV2Controller } from './rest/auth.v2.controller';

@Module({
  controllers: [AuthV1Controller, AuthV2Controller],
  providers: [SessionsProjection, SignInHandler, SignOutHandler, ResolveSessionHandler, CurrentAccountHandler, { provide: APP_GUARD, useClass: AuthGuard }],
})
export class AuthModule implements OnModuleInit {
  constructor(
    private readonly registry: ProjectionRegistry,
    private readonly projection: SessionsProjection,
  ) {}
  onModuleInit(): void {
    this.registry.register(this.projection);
  }
}
