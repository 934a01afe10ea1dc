import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RevokeOwnConsentHandler } from './commands/revoke-own-consent.handler';
import { SignOutOwnSessionsHandler } from './commands/sign-out-own-sessions.handler';
import { UpdateOwnProfileHandler } from './commands/update-own-profile.handler';
import { ListOwnConsentsHandler } from './queries/list-own-consents.query';
import { ListOwnSessionsHandler } from './queries/list-own-sessions.query';
import { OwnAttendanceHandler } from './queries/own-attendance.query';
import { MeV2Controller } from './rest/me.v2.controller';

/**
 * A page of one's own: every account's profile, password, sessions, attendance and consents, acting
 * only on the signed-in account. REST v2 (rest/me.v2.controller.ts) and tRPC (trpc/me.router.ts)
 * over the same handlers; what belongs to another feature (the profile's rules, sign-out, the
 * password change, consents) is that feature's command, called through the command bus.
 */
@Module({
  // SessionActivityRecorder: the sessions' 'last seen', noted by the auth feature on every call
  imports: [AuthModule],
  controllers: [MeV2Controller],
  providers: [UpdateOwnProfileHandler, SignOutOwnSessionsHandler, RevokeOwnConsentHandler, ListOwnSessionsHandler, OwnAttendanceHandler, ListOwnConsentsHandler],
})
export class MeModule {}
