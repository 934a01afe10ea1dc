import type { QueryBus } from '@nestjs/cqrs';
import {
  ME_NOTICES,
  ZChangeOwnPasswordInput,
  ZOwnAttendanceInput,
  ZOwnConsentApplication,
  ZOwnSessionId,
  ZUpdateOwnProfileInput,
  type TAccount,
  type TOwnAttendance,
  type TOwnSession,
  type TOwnSessionsSignedOut,
} from '@rollcall/contracts';
import type { CommandGateway } from '../../../platform/commands/command-gateway';
import { router, sessionProcedure, sessionProcedureAllowedWhile } from '../../../platform/trpc/trpc';
import { supportedTimeZones } from '../../../platform/runtime/time-zones';
import { ChangeOwnPasswordCommand } from '../../accounts/commands/change-own-password.handler';
import { GetAccountQuery } from '../../accounts/queries/get-account.query';
import type { AccountConsent } from '../../oidc/queries/list-account-consents.query';
import { RevokeOwnConsentCommand } from '../commands/revoke-own-consent.handler';
import { SignOutOwnSessionsCommand } from '../commands/sign-out-own-sessions.handler';
import { UpdateOwnProfileCommand } from '../commands/update-own-profile.handler';
import { ListOwnConsentsQuery } from '../queries/list-own-consents.query';
import { ListOwnSessionsQuery } from '../queries/list-own-sessions.query';
import { OwnAttendanceQuery } from '../queries/own-attendance.query';

/**
 * `me.*`: the page of one's own. Every procedure acts on the signed-in session's own account
 * (ctx.principal), never on an id from the input, so no other account can be reached through it;
 * a signed-in session needs no permission for it (access tokens cannot call it, as with auth.me).
 * A session that must change its password first may only change it here; one that must enrol a
 * second factor first may call none of it (it enrols first), as over REST.
 */
export function buildMeRouter({ gateway, queryBus }: { gateway: CommandGateway; queryBus: QueryBus }) {
  // as REST's guard: the change is open to a session that must change its password, nothing to one that must enrol first
  const session = sessionProcedureAllowedWhile({ passwordChangeRequired: true });
  const own = sessionProcedure;
  return router({
    /** the zones the profile's time zone may name (server.timeZones needs accounts:read, which an ordinary account lacks) */
    timeZones: own.query(() => supportedTimeZones()),
    profile: own.query(({ ctx }) => queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(ctx.principal.accountId))),
    updateProfile: own.input(ZUpdateOwnProfileInput).mutation(async ({ input, ctx }) => {
      await gateway.execute(new UpdateOwnProfileCommand(ctx.principal.accountId, input, ctx.context));
      return { message: ME_NOTICES.profileSaved, account: await queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(ctx.principal.accountId)) };
    }),
    /** the accounts feature's own change: current password, the policy's rules and history; every other session ends */
    changePassword: session.input(ZChangeOwnPasswordInput).mutation(async ({ input, ctx }) => {
      await gateway.execute(new ChangeOwnPasswordCommand(ctx.principal.accountId, input, ctx.context, ctx.principal.sessionId));
      return { message: ME_NOTICES.passwordChanged };
    }),
    sessions: own.query(({ ctx }) => queryBus.execute<ListOwnSessionsQuery, TOwnSession[]>(new ListOwnSessionsQuery(ctx.principal.accountId, ctx.principal.sessionId))),
    signOutSession: own.input(ZOwnSessionId).mutation(async ({ input, ctx }): Promise<TOwnSessionsSignedOut> => {
      const outcome = await gateway.execute<{ signed_out: number }>(new SignOutOwnSessionsCommand(ctx.principal.accountId, ctx.principal.sessionId, { sessionId: input.id }, ctx.context));
      return { message: ME_NOTICES.sessionSignedOut, signed_out: outcome.value.signed_out };
    }),
    signOutOtherSessions: own.mutation(async ({ ctx }): Promise<TOwnSessionsSignedOut> => {
      const outcome = await gateway.execute<{ signed_out: number }>(new SignOutOwnSessionsCommand(ctx.principal.accountId, ctx.principal.sessionId, 'others', ctx.context));
      return { message: ME_NOTICES.otherSessionsSignedOut, signed_out: outcome.value.signed_out };
    }),
    attendance: own.input(ZOwnAttendanceInput.optional()).query(({ input, ctx }) => queryBus.execute<OwnAttendanceQuery, TOwnAttendance>(new OwnAttendanceQuery(ctx.principal.accountId, input?.date))),
    consents: own.query(({ ctx }) => queryBus.execute<ListOwnConsentsQuery, AccountConsent[]>(new ListOwnConsentsQuery(ctx.principal.accountId))),
    revokeConsent: own.input(ZOwnConsentApplication).mutation(async ({ input, ctx }) => {
      await gateway.execute(new RevokeOwnConsentCommand(ctx.principal.accountId, input.application_id, ctx.context));
      return { message: ME_NOTICES.consentRevoked };
    }),
  });
}
