import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@rollcall/domain';
import { requestContext } from '../../platform/http/request-context.factory';
import { REQUIRED_PERMISSION, type PermissionRequirement } from '../../platform/access/permissions';
import { ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, ALLOWED_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED, IS_PUBLIC, restrictionRefusal } from '../../platform/access/route-decorators';
import { type AuthenticatedRequest } from '../../platform/http/request-params';
import { Authenticator } from './authenticator';
import { AccessPolicy } from './access-policy';

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
    // the password first, then the second factor (docs/adr/0025): one restriction at a time, as tRPC's procedures
    const restricted = restrictionRefusal(principal, {
      passwordChangeRequired: this.reflector.getAllAndOverride<boolean>(ALLOWED_WHILE_PASSWORD_CHANGE_REQUIRED, [context.getHandler(), context.getClass()]),
      secondFactorEnrolmentRequired: this.reflector.getAllAndOverride<boolean>(ALLOWED_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED, [context.getHandler(), context.getClass()]),
    });
    if (restricted) throw restricted;
    const required = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(REQUIRED_PERMISSION, [context.getHandler(), context.getClass()]);
    await this.access.authorize(principal, required?.permission, required?.requirements ?? [], { param: request.params, body: request.body, query: request.query });
    return true;
  }
}
