import { Body, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ERROR_STATUS, ZAuthenticateEitherStepInput, ZAuthenticateWithCodeInput, ZSecondFactorStepInput, ZSignInWithSecondFactorAnswer, type TCurrentAccount } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Request, Response } from 'express';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import { CommandGateway } from '../../../platform/commands/command-gateway';
import { writeConsistencyHeaders } from '../../../platform/http/consistency-headers';
import { clearSessionCookie, setSessionCookie } from '../../../platform/http/session-cookie';
import { isAllowedOrigin } from '../../../platform/http/http-pipeline';
import { credentialFrom } from '../../../platform/http/request-context.factory';
import { parseWith } from '../../../platform/http/zod-body';
import { AllowedWhilePasswordChangeRequired, AllowedWhileSecondFactorEnrolmentRequired, Public } from '../../../platform/access/route-decorators';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { SignInCommand, type SignInResult } from '../commands/sign-in.handler';
import { SignOutCommand } from '../commands/sign-out.handler';
import { sessionOf } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { CurrentAccountQuery } from '../queries/current-account.query';
import { ZCurrentAccount, ZMessageAnswer } from '@rollcall/contracts';
import { CompleteSecondFactorCommand } from '../commands/complete-second-factor.handler';
import { SECOND_FACTOR_REQUIRED_MESSAGE } from '../second-factor/second-factor-messages';
import { Documented } from '../../../platform/http/openapi/rest-description';

/**
 * Did this request, carrying the session cookie, come from our own origin? The browser's own verdict
 * (Sec-Fetch-Site: same-origin, or none for a typed address or bookmark) where it gives one; else the
 * Origin header, else the Referer's origin, against the request's host and ROLLCALL_ALLOWED_ORIGINS.
 * A request with none of the three is refused: a browser that sends no Sec-Fetch-Site sends no Origin
 * on a GET either, and our pages send no Referer (Referrer-Policy: no-referrer), so nothing would tell
 * a forged cross-site navigation from ours.
 */
export function sameOriginCookieRequest(request: Request, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && allowedOrigins.includes(origin)) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  // `Origin: null` (a sandboxed frame, a redirect chain) names no origin and never matches the host
  if (origin !== undefined) return origin !== 'null' && isAllowedOrigin(origin, request.headers.host, allowedOrigins);
  const referer = request.headers.referer;
  if (referer === undefined) return false;
  let refererOrigin: string;
  try {
    refererOrigin = new URL(referer).origin;
  } catch {
    return false;
  }
  return refererOrigin !== 'null' && isAllowedOrigin(refererOrigin, request.headers.host, allowedOrigins);
}

/**
 * Sign-in, sign-out and the current account, shared by v1 and v2 (which only wrap answers
 * differently). No rule lives here: the handlers decide.
 */
export abstract class AuthRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
    protected readonly config: AppConfig,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  /**
   * Two steps where the account has a second factor (docs/adr/0025, docs/api/compat.md): the right
   * password answers 401 `auth.second_factor_required` with `second_factor.challenge`, which a client
   * that knows nothing of second factors reads as a failed sign-in with a clear code (never a session
   * without the code); `{challenge, code}` then signs in. `{username, password, code}` does both at once.
   */
  @Public()
  @Post('admin/authenticate')
  @Documented({
    summary:
      'Sign in; also sets the user_session cookie. password_change_required: true when the session may only change its password; second_factor_enrolment_required: true when it may only enrol a second factor. An account with a second factor: the password alone answers 401 auth.second_factor_required with second_factor {challenge, methods, expires_at}; send {challenge, code} (a TOTP or recovery code), or {username, password, code} at once',
    answer: ZSignInWithSecondFactorAnswer,
    body: ZAuthenticateEitherStepInput,
  })
  @HttpCode(200)
  async authenticate(@Body() body: unknown, @Ctx() context: RequestContext, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const secondStep = typeof body === 'object' && body !== null && 'challenge' in body;
    const outcome = secondStep
      ? await this.gateway.execute<SignInResult>(new CompleteSecondFactorCommand(parseWith(ZSecondFactorStepInput, body), context))
      : await this.gateway.execute<SignInResult>(new SignInCommand(parseWith(ZAuthenticateWithCodeInput, body), context));
    const result = outcome.value;
    if (result.kind === 'second_factor_required') {
      // the one error shape, unwrapped in every version like every error, with what the next step needs beside it
      response.status(ERROR_STATUS['auth.second_factor_required']);
      return { error: { code: 'auth.second_factor_required', message: SECOND_FACTOR_REQUIRED_MESSAGE }, second_factor: { challenge: result.challenge, methods: result.methods, expires_at: result.expiresAt } };
    }
    writeConsistencyHeaders(response, outcome);
    setSessionCookie(response, result.token, result.expiresAt, request.secure);
    // a session that must change its password (or enrol a second factor) first says so (the console then shows that form)
    return this.wrap({
      token: result.token,
      ...(result.passwordChangeRequired ? { password_change_required: true } : {}),
      ...(result.secondFactorEnrolmentRequired ? { second_factor_enrolment_required: true } : {}),
      ...(result.recoveryCodesRemaining !== null ? { recovery_codes_remaining: result.recoveryCodesRemaining } : {}),
    });
  }

  /**
   * The spec signs out with GET. Because a cookie rides along on cross-site navigations (a link, an
   * image), a GET sign-out that relies on the cookie is honoured only when the browser shows it comes
   * from our own origin (sameOriginCookieRequest); a bearer header, which no browser adds on its own,
   * needs no such proof. POST works too.
   */
  @AllowedWhilePasswordChangeRequired()
  @AllowedWhileSecondFactorEnrolmentRequired()
  @Get('admin/logout')
  @Documented({ summary: 'Sign out (revokes the session on the server)', answer: ZMessageAnswer })
  async logoutByGet(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    if (credentialFrom(request)?.via === 'cookie' && !sameOriginCookieRequest(request, this.config.allowedOrigins)) {
      throw new DomainError('auth.forbidden', 'Sign-out from another site is refused');
    }
    return this.logout(principal, context, response);
  }

  @AllowedWhilePasswordChangeRequired()
  @AllowedWhileSecondFactorEnrolmentRequired()
  @Post('admin/logout')
  @Documented({ summary: 'Sign out (POST form)', answer: ZMessageAnswer })
  @HttpCode(200)
  async logout(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    await this.gateway.execute(new SignOutCommand(sessionOf(principal).sessionId, context));
    clearSessionCookie(response);
    return this.wrap({ message: 'Signed out' });
  }

  @AllowedWhilePasswordChangeRequired()
  @AllowedWhileSecondFactorEnrolmentRequired()
  @Get('account/current')
  @Documented({ summary: 'The signed-in account, with what it may do and where (grants)', answer: ZCurrentAccount })
  async current(@CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(principal.accountId, principal.grants)));
  }
}
