import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { DomainError } from '@rollcall/domain';
import type { Request } from 'express';
import type { RequestContext } from '../commands/request-context';
import { requestContext } from '../http/request-context.factory';
import type { Principal } from './principal';

/**
 * What a route says about its caller, read by the auth feature's guard: the platform's controllers
 * (health, metrics, the API documents) mark themselves public without knowing who checks.
 */
export const IS_PUBLIC = 'rollcall:public';
/** Marks the few routes that work without a session (sign-in, API documents). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED = 'rollcall:allowed-while-password-change-required';
/** The few routes a session that must change its password may call (account/current, the change, logout). */
export const AllowedWhilePasswordChangeRequired = () => SetMetadata(ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, true);

export const passwordChangeRequiredError = () => new DomainError('auth.password_change_required', 'Change your password first: this session may only change the password or sign out');

export type AuthenticatedRequest = Request & { principal?: Principal; rollcallContext?: RequestContext };

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new DomainError('auth.required', 'Sign in first: this call needs a valid session');
  return principal;
});

export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return request.rollcallContext ?? requestContext(request, null);
});
