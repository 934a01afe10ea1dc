import type { SystemPermission } from '@rollcall/contracts';
import type { Grants } from './grants';

/** A signed-in account, through the console or the REST API's session token. */
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
   * The password policy requires a second factor the account has not enrolled (docs/adr/0025): until
   * it enrols one the session may only use its own session's calls (enrol, account/current, sign-out);
   * everything that needs a permission answers 403 `auth.second_factor_enrolment_required`.
   */
  secondFactorEnrolmentRequired?: boolean;
  /** what the account may do, and where (docs/adr/0011); none at all: only its own session's routes */
  grants: Grants;
}

/** A request carrying an access token: it acts as the token's account, within the token's permissions. */
export interface TokenPrincipal {
  kind: 'token';
  accountId: string;
  tokenId: string;
  /** the token's own list (ADR 0007) */
  permissions: ReadonlySet<SystemPermission>;
  /** its account's grants restricted to that list: a token never exceeds its holder */
  grants: Grants;
  passwordChangeRequired: false;
}

/** Who a request acts as, once authenticated. Door readers join with the attendance issue. */
export type Principal = SessionPrincipal | TokenPrincipal;
