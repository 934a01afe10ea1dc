import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@rollcall/domain';
import type { Request } from 'express';
import type { Principal } from '../access/principal';
import type { RequestContext } from '../commands/request-context';
import { requestContext } from './request-context.factory';

/** a request once the auth guard has read its credential */
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
