import { SetMetadata } from '@nestjs/common';
import type { SystemPermission } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Principal, SessionPrincipal } from './principal';

export const REQUIRED_PERMISSION = 'rollcall:required-permission';

/**
 * The system permission a route needs. A session holds them all when its account is an administrator
 * (the protected administrator role of the first organization; organization-scoped grants follow,
 * docs/adr/0011), none otherwise; an access token holds only those chosen for it. A route without
 * one is for sessions only (sign-out, the own account and password change): tokens are refused there.
 */
export const RequirePermission = (permission: SystemPermission) => SetMetadata(REQUIRED_PERMISSION, permission);

export function assertPermitted(principal: Principal, permission: SystemPermission | undefined): void {
  if (principal.kind === 'session') {
    if (permission && !principal.administrator) throw new DomainError('auth.forbidden', `This account lacks the permission ${permission}: it holds no administrator role`);
    return;
  }
  if (!permission) sessionOf(principal);
  else if (!principal.permissions.has(permission)) throw new DomainError('auth.forbidden', `This access token lacks the permission ${permission}`);
}

/** Routes without a permission are for sessions only; this narrows the principal where they need the session itself. */
export function sessionOf(principal: Principal): SessionPrincipal {
  if (principal.kind !== 'session') throw new DomainError('auth.forbidden', 'This call needs a signed-in session: access tokens cannot make it');
  return principal;
}
