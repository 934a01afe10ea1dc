import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ME_NOTICES,
  ZAccount,
  ZApplicationConsent,
  ZChangeOwnPasswordInput,
  ZMessageAnswer,
  ZOwnAttendance,
  ZOwnAttendanceInput,
  ZOwnConsentApplication,
  ZOwnProfileSaved,
  ZOwnSession,
  ZOwnSessionId,
  ZOwnSessionsSignedOut,
  ZUpdateOwnProfileInput,
  type TAccount,
  type TOwnAttendance,
  type TOwnSession,
} from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Response } from 'express';
import { z } from 'zod';
import type { Principal, SessionPrincipal } from '../../../platform/access/principal';
import { AllowedWhilePasswordChangeRequired } from '../../../platform/access/route-decorators';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { Documented } from '../../../platform/http/openapi/rest-description';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { parseWith } from '../../../platform/http/zod-body';
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
 * The page of one's own over REST, Rollcall's own (beyond the spec; docs/api/compat.md, 'A page of
 * one's own'): v2 and unprefixed /api, answers in `{data}`. Every route acts on the signed-in
 * session's own account and takes no account id; no permission is needed beyond a session (an
 * access token is refused, as on account/current), the same handlers as tRPC's `me.*`.
 */
@Controller(['api/v2', 'api'])
export class MeV2Controller {
  constructor(
    private readonly gateway: CommandGateway,
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** the session behind the request (the guard refused tokens: a route without a permission takes sessions only) */
  private session(principal: Principal): SessionPrincipal {
    if (principal.kind !== 'session') throw new DomainError('auth.forbidden', 'This call needs a signed-in session: access tokens cannot make it');
    return principal;
  }

  @Get('me/profile')
  @Documented({ summary: "The signed-in account's own profile", answer: ZAccount })
  async profile(@CurrentPrincipal() principal: Principal) {
    const { accountId } = this.session(principal);
    return { data: await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountId)) };
  }

  @Patch('me/profile')
  @Documented({ summary: 'The signed-in account changes what it may of its own profile: names, telephone numbers, language, time zone (a field left out keeps its value)', answer: ZOwnProfileSaved, body: ZUpdateOwnProfileInput })
  async updateProfile(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { accountId } = this.session(principal);
    const outcome = await this.gateway.execute(new UpdateOwnProfileCommand(accountId, parseWith(ZUpdateOwnProfileInput, body), context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: ME_NOTICES.profileSaved, account: await this.queryBus.execute<GetAccountQuery, TAccount>(new GetAccountQuery(accountId)) } };
  }

  /** the same change as account/password/change: current password, the policy's rules and history; every other session ends */
  @AllowedWhilePasswordChangeRequired()
  @Post('me/password')
  @Documented({ summary: 'The signed-in account changes its own password under its policy (current password required); every other session of the account ends', answer: ZMessageAnswer, body: ZChangeOwnPasswordInput })
  @HttpCode(200)
  async changePassword(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const session = this.session(principal);
    const outcome = await this.gateway.execute(new ChangeOwnPasswordCommand(session.accountId, parseWith(ZChangeOwnPasswordInput, body), context, session.sessionId));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: ME_NOTICES.passwordChanged } };
  }

  @Get('me/sessions')
  @Documented({ summary: "The signed-in account's open sessions: when, from where and what each is; the one asking is marked current", answer: ZOwnSession.array() })
  async sessions(@CurrentPrincipal() principal: Principal) {
    const session = this.session(principal);
    return { data: await this.queryBus.execute<ListOwnSessionsQuery, TOwnSession[]>(new ListOwnSessionsQuery(session.accountId, session.sessionId)) };
  }

  @Delete('me/sessions')
  @Documented({ summary: 'Signs out every other session of the signed-in account (not the one asking)', answer: ZOwnSessionsSignedOut })
  async signOutOthers(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const session = this.session(principal);
    const outcome = await this.gateway.execute<{ signed_out: number }>(new SignOutOwnSessionsCommand(session.accountId, session.sessionId, 'others', context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: ME_NOTICES.otherSessionsSignedOut, signed_out: outcome.value.signed_out } };
  }

  @Delete('me/sessions/:id')
  @Documented({ summary: 'Signs out one other session of the signed-in account; a session of another account is not found', answer: ZOwnSessionsSignedOut, params: ZOwnSessionId })
  async signOutOne(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const session = this.session(principal);
    const input = parseWith(ZOwnSessionId, { id });
    const outcome = await this.gateway.execute<{ signed_out: number }>(new SignOutOwnSessionsCommand(session.accountId, session.sessionId, { sessionId: input.id }, context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: ME_NOTICES.sessionSignedOut, signed_out: outcome.value.signed_out } };
  }

  @Get('me/attendance')
  @Documented({ summary: "The signed-in account's own attendance: the day, its week and month with totals, the month's absences and its cards, in its time zone", answer: ZOwnAttendance, query: ZOwnAttendanceInput })
  async attendance(@CurrentPrincipal() principal: Principal, @Query() query: unknown) {
    const { accountId } = this.session(principal);
    const input = parseWith(ZOwnAttendanceInput, query);
    return { data: await this.queryBus.execute<OwnAttendanceQuery, TOwnAttendance>(new OwnAttendanceQuery(accountId, input.date)) };
  }

  @Get('me/consents')
  @Documented({ summary: 'The applications the signed-in account gave consent to, with the scopes each may see', answer: ZApplicationConsent.array() })
  async consents(@CurrentPrincipal() principal: Principal) {
    const { accountId } = this.session(principal);
    return { data: await this.queryBus.execute<ListOwnConsentsQuery, AccountConsent[]>(new ListOwnConsentsQuery(accountId)) };
  }

  @Delete('me/consents/:applicationId')
  @Documented({ summary: "Revokes the signed-in account's consent to an application: its grants and tokens stop working now, its next sign-in asks again", answer: ZMessageAnswer, params: z.object({ applicationId: ZOwnConsentApplication.shape.application_id }) })
  async revokeConsent(@CurrentPrincipal() principal: Principal, @Param('applicationId') applicationId: string, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    const { accountId } = this.session(principal);
    const input = parseWith(ZOwnConsentApplication, { application_id: applicationId });
    const outcome = await this.gateway.execute(new RevokeOwnConsentCommand(accountId, input.application_id, context));
    writeConsistencyHeaders(response, outcome);
    return { data: { message: ME_NOTICES.consentRevoked } };
  }
}
