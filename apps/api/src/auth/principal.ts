/** Who a request acts as, once authenticated. Access tokens and readers join later. */
export interface Principal {
  kind: 'session';
  accountId: string;
  sessionId: string;
  /**
   * Status 3 or a password older than its policy allows: until the password is changed the session
   * may only read account/current, change its password and sign out (everything else: 403
   * `auth.password_change_required`).
   */
  passwordChangeRequired: boolean;
}
