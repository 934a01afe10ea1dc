import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@rollcall/domain';
import type { Request } from 'express';
import type { RequestContext } from '../../platform/commands/request-context';
import { requestContext } from '../../platform/http/request-context.factory';
import { Authenticator } from './authenticator';
import { AccessPolicy } from './access-policy';
import { REQUIRED_PERMISSION, type PermissionRequirement } from './permissions';
import type { Principal } from './principal';

const IS_PUBLIC = 'rollcall:public';
/** Marks the few routes that work without a session (sign-in, API documents). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

const ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED = 'rollcall:allowed-while-password-change-required';
/** The few routes a session that must change its password may call (account/current, the change, logout). */
export const AllowedWhilePasswordChangeRequired = () => SetMetadata(ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, true);

export const passwordChangeRequiredError = () => new DomainError('auth.password_change_required', 'Change your password first: this session may only change the password or sign out');

export type AuthenticatedRequest = Request & { principal?: Principal; rollcallContext?: RequestContext };

/** Every route needs a valid session unless marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly access: AccessPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const { principal, refusal } = await this.authenticator.authenticate(request);
    request.principal = principal ?? undefined;
    request.rollcallContext = requestContext(request, principal);
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    if (refusal) throw refusal;
    if (!principal) throw new DomainError('auth.required', 'Sign in first: this call needs a valid session');
    if (principal.passwordChangeRequired && !this.reflector.getAllAndOverride<boolean>(ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, [context.getHandler(), context.getClass()])) {
      throw passwordChangeRequiredError();
    }
    const required = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(REQUIRED_PERMISSION, [context.getHandler(), context.getClass()]);
    await this.access.authorize(principal, required?.permission, required?.requirements ?? [], { param: request.params, body: request.body, query: request.query });
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new DomainError('auth.required', 'Sign in first: this call needs a valid session');
  return principal;
});

export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return request.rollcallContext ?? requestContext(request, null);
});
