import type { SystemPermission } from '@rollcall/contracts';

/** A signed-in administrator, through the console or the REST API's session token. */
export interface SessionPrincipal {
  kind: 'session';
  accountId: string;
  sessionId: string;
  /**
   * Status 3 or a password older than its policy allows: until the password is changed the session
   * may only read account/current, change its password and sign out (everything else: 403
   * `auth.password_change_required`).
   */
  passwordChangeRequired: boolean;
  /**
   * Holds a protected role of the protected top-level organization (the bootstrap's `administrator`):
   * every system permission, everywhere. Organization-scoped administrators come next (docs/adr/0011);
   * until then a session without it may only use the session-only routes (its own account).
   */
  administrator: boolean;
}

/** A request carrying an access token: it acts as the token's account, within the token's permissions. */
export interface TokenPrincipal {
  kind: 'token';
  accountId: string;
  tokenId: string;
  permissions: ReadonlySet<SystemPermission>;
  passwordChangeRequired: false;
}

/** Who a request acts as, once authenticated. Door readers join with the attendance issue. */
export type Principal = SessionPrincipal | TokenPrincipal;
