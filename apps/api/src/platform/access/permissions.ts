import { SetMetadata } from '@nestjs/common';
import type { SystemPermission } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import { scopeOf, type Scope } from './grants';
import type { Principal, SessionPrincipal } from './principal';
import type { ResourceRequirement } from './resource-requirements';

export const REQUIRED_PERMISSION = 'rollcall:required-permission';

export interface PermissionRequirement {
  permission: SystemPermission;
  requirements: readonly ResourceRequirement[];
}

/**
 * The system permission a route needs, and where: on the resources named by `requirements` (their
 * ids taken from the request), EVERYWHERE, or, with none, anywhere (lists, filtered by the query to
 * `listScope`). Checked by AccessPolicy (docs/adr/0011). A route without it is for sessions only
 * (sign-out, the own account and password change): tokens are refused there.
 */
export const RequirePermission = (permission: SystemPermission, ...requirements: ResourceRequirement[]) =>
  SetMetadata(REQUIRED_PERMISSION, { permission, requirements } satisfies PermissionRequirement);

/** Where a list may look: everywhere, or the organizations (subtrees included) where the principal holds `permission`. */
export function listScope(principal: Principal, permission: SystemPermission): Scope {
  return scopeOf(principal.grants, permission);
}

/** Routes without a permission are for sessions only; this narrows the principal where they need the session itself. */
export function sessionOf(principal: Principal): SessionPrincipal {
  if (principal.kind !== 'session') throw new DomainError('auth.forbidden', 'This call needs a signed-in session: access tokens cannot make it');
  return principal;
}
