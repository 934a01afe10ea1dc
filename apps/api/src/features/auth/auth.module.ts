import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ACCESS_CHECKS, CALLER_AUTHENTICATION } from '../../platform/access/caller-access';
import { AccessPolicy } from './access-policy';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { CredentialCache } from './credential-cache';
import { ResolveAccessTokenHandler } from './queries/resolve-access-token.query';
import { TokenUsageRecorder } from './token-usage-recorder';
import { SessionActivityRecorder } from './session-activity-recorder';
import { SignInHandler } from './commands/sign-in.handler';
import { SignOutHandler } from './commands/sign-out.handler';
import { CompleteSecondFactorHandler } from './commands/complete-second-factor.handler';
import { SignInChallenges } from './second-factor/sign-in-challenge';
import { SecondFactorVerifier } from './second-factor/second-factor-verifier';
import { PasskeyCeremonies } from './second-factor/passkey-ceremonies';
import { PasskeySignInOfferedHandler, PasskeySignInOptionsHandler, PasskeyStepOptionsHandler, SignInWithPasskeyHandler } from './commands/passkey-sign-in.handler';
import { TotpSecretBox } from './second-factor/totp-secret-box';
import { CurrentAccountHandler } from './queries/current-account.query';
import { ResolveSessionHandler } from './queries/resolve-session.query';
import { AuthV1Controller } from './rest/auth.v1.controller';
import { AuthV2Controller } from './rest/auth.v2.controller';
import { PasswordAttempts } from './password-attempts';
import { SignInThrottle } from './sign-in-throttle';

@Module({
  // PasswordAttempts: the own change's current password, under the sign-in's throttle (one instance) and lockout
  // TotpSecretBox, SecondFactorVerifier: the second-factors feature seals and checks with the same ones (docs/adr/0025)
  exports: [Authenticator, TokenUsageRecorder, SessionActivityRecorder, AccessPolicy, PasswordAttempts, TotpSecretBox, SecondFactorVerifier, PasskeyCeremonies, CALLER_AUTHENTICATION, ACCESS_CHECKS],
  controllers: [AuthV1Controller, AuthV2Controller],
  providers: [
    AccessPolicy, CredentialCache, TokenUsageRecorder, SessionActivityRecorder, Authenticator, ResolveAccessTokenHandler, SignInHandler, CompleteSecondFactorHandler, SignInChallenges, TotpSecretBox, SecondFactorVerifier, PasskeyCeremonies, PasskeyStepOptionsHandler, PasskeySignInOptionsHandler, SignInWithPasskeyHandler, PasskeySignInOfferedHandler, SignInThrottle, PasswordAttempts, SignOutHandler, ResolveSessionHandler, CurrentAccountHandler, { provide: APP_GUARD, useClass: AuthGuard },
    // the platform's ports (platform/access/caller-access.ts): the tRPC server checks callers through them
    { provide: CALLER_AUTHENTICATION, useExisting: Authenticator },
    { provide: ACCESS_CHECKS, useExisting: AccessPolicy },
  ],
})
export class AuthModule {}
