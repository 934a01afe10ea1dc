import { Body, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAuthenticateInput, type TCurrentAccount } from '@rollcall/contracts';
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
import { AllowedWhilePasswordChangeRequired, Public } from '../../../platform/access/route-decorators';
import { Ctx, CurrentPrincipal } from '../../../platform/http/request-params';
import { SignInCommand, type SignInResult } from '../commands/sign-in.handler';
import { SignOutCommand } from '../commands/sign-out.handler';
import { sessionOf } from '../../../platform/access/permissions';
import type { Principal } from '../../../platform/access/principal';
import { CurrentAccountQuery } from '../queries/current-account.query';
import { ZCurrentAccount, ZMessageAnswer, ZSignInAnswer } from '@rollcall/contracts';
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

  @Public()
  @Post('admin/authenticate')
  @Documented({ summary: 'Sign in; also sets the user_session cookie. password_change_required: true when the session may only change its password', answer: ZSignInAnswer, body: ZAuthenticateInput })
  @HttpCode(200)
  async authenticate(@Body() body: unknown, @Ctx() context: RequestContext, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const input = parseWith(ZAuthenticateInput, body);
    const outcome = await this.gateway.execute<SignInResult>(new SignInCommand(input, context));
    writeConsistencyHeaders(response, outcome);
    setSessionCookie(response, outcome.value.token, outcome.value.expiresAt, request.secure);
    // a session that must change its password first says so (the console then shows the change form)
    return this.wrap(outcome.value.passwordChangeRequired ? { token: outcome.value.token, password_change_required: true } : { token: outcome.value.token });
  }

  /**
   * The spec signs out with GET. Because a cookie rides along on cross-site navigations (a link, an
   * image), a GET sign-out that relies on the cookie is honoured only when the browser shows it comes
   * from our own origin (sameOriginCookieRequest); a bearer header, which no browser adds on its own,
   * needs no such proof. POST works too.
   */
  @AllowedWhilePasswordChangeRequired()
  @Get('admin/logout')
  @Documented({ summary: 'Sign out (revokes the session on the server)', answer: ZMessageAnswer })
  async logoutByGet(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    if (credentialFrom(request)?.via === 'cookie' && !sameOriginCookieRequest(request, this.config.allowedOrigins)) {
      throw new DomainError('auth.forbidden', 'Sign-out from another site is refused');
    }
    return this.logout(principal, context, response);
  }

  @AllowedWhilePasswordChangeRequired()
  @Post('admin/logout')
  @Documented({ summary: 'Sign out (POST form)', answer: ZMessageAnswer })
  @HttpCode(200)
  async logout(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    await this.gateway.execute(new SignOutCommand(sessionOf(principal).sessionId, context));
    clearSessionCookie(response);
    return this.wrap({ message: 'Signed out' });
  }

  @AllowedWhilePasswordChangeRequired()
  @Get('account/current')
  @Documented({ summary: 'The signed-in account, with what it may do and where (grants)', answer: ZCurrentAccount })
  async current(@CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(principal.accountId, principal.grants)));
  }
}
