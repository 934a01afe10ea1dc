import { Body, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAuthenticateInput, type TCurrentAccount } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Request, Response } from 'express';
import type { RequestContext } from '../../application/request-context';
import { CommandGateway } from '../../core/command-gateway';
import { writeConsistencyHeaders } from '../../http/consistency-headers';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { credentialFrom } from '../../http/request-context.factory';
import { parseWith } from '../../http/zod-body';
import { AllowedWhilePasswordChangeRequired, Ctx, CurrentPrincipal, Public } from '../auth.guard';
import { SignInCommand, type SignInResult } from '../commands/sign-in.handler';
import { SignOutCommand } from '../commands/sign-out.handler';
import { sessionOf } from '../permissions';
import type { Principal } from '../principal';
import { CurrentAccountQuery } from '../queries/current-account.query';

/**
 * Sign-in, sign-out and the current account, shared by v1 and v2 (which only wrap answers
 * differently). No rule lives here: the handlers decide.
 */
export abstract class AuthRoutes {
  constructor(
    protected readonly gateway: CommandGateway,
    protected readonly queryBus: QueryBus,
  ) {}

  protected abstract wrap<T>(value: T): unknown;

  @Public()
  @Post('admin/authenticate')
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
   * The spec signs out with GET. Because a cookie rides along on cross-site navigations, a GET
   * sign-out is honoured only with a bearer header or from our own origin; POST works too.
   */
  @AllowedWhilePasswordChangeRequired()
  @Get('admin/logout')
  async logoutByGet(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const site = request.headers['sec-fetch-site'];
    if (credentialFrom(request)?.via === 'cookie' && site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new DomainError('auth.forbidden', 'Sign-out from another site is refused');
    }
    return this.logout(principal, context, response);
  }

  @AllowedWhilePasswordChangeRequired()
  @Post('admin/logout')
  @HttpCode(200)
  async logout(@CurrentPrincipal() principal: Principal, @Ctx() context: RequestContext, @Res({ passthrough: true }) response: Response) {
    await this.gateway.execute(new SignOutCommand(sessionOf(principal).sessionId, context));
    clearSessionCookie(response);
    return this.wrap({ message: 'Signed out' });
  }

  @AllowedWhilePasswordChangeRequired()
  @Get('account/current')
  async current(@CurrentPrincipal() principal: Principal) {
    return this.wrap(await this.queryBus.execute<CurrentAccountQuery, TCurrentAccount>(new CurrentAccountQuery(principal.accountId, principal.grants)));
  }
}
