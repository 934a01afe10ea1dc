import type { IncomingMessage } from 'node:http';
import type { SystemPermission } from '@rollcall/contracts';
import type { DomainError } from '@rollcall/domain';
import type { Principal, SessionPrincipal } from './principal';
import type { RequestParts, ResourceKind, ResourceRequirement } from './resource-requirements';

/** Who a request is, or why its credential was refused (an expired or out-of-place access token). */
export type Authentication = { principal: Principal; refusal: null } | { principal: null; refusal: DomainError | null };

/**
 * What the platform's surfaces (the tRPC server, its sockets) need to know about a caller, as ports:
 * the auth feature implements them (Authenticator, AccessPolicy) and provides them under these
 * tokens, so the platform checks every call without importing a feature (docs/adr/0022).
 */
export interface CallerAuthentication {
  /** the bearer header or the session cookie of a request, as a principal */
  authenticate(request: IncomingMessage): Promise<Authentication>;
  /** a console session by its token, as it is now (null once ended, expired or its account gone) */
  resolveSession(token: string): Promise<SessionPrincipal | null>;
  /** a session used outside authenticate() (a WebSocket's upgrade): noted for its 'last seen' */
  noteSession(principal: SessionPrincipal, request: IncomingMessage): void;
}

export interface AccessChecks {
  /** throws auth.forbidden (or not_found where the caller may not know the resource) unless allowed */
  authorize(principal: Principal, permission: SystemPermission | undefined, requirements: readonly ResourceRequirement[], request: RequestParts): Promise<void>;
  /** whether the principal holds the permission over one resource */
  permits(principal: Principal, permission: SystemPermission, kind: ResourceKind, id: string): Promise<boolean>;
}

export const CALLER_AUTHENTICATION = Symbol('CALLER_AUTHENTICATION');
export const ACCESS_CHECKS = Symbol('ACCESS_CHECKS');
