/**
 * Account statuses. The spec fixes only 3 ('password change required'); the rest follow what
 * Keycloak/ZITADEL users expect: an account is active, disabled by an administrator, must change its
 * password, or waits for its owner to set a first password (created without one / activation e-mail).
 */
export const ACCOUNT_STATUS = {
  active: 1,
  disabled: 2,
  passwordChangeRequired: 3,
  awaitingActivation: 4,
} as const;
export type AccountStatusId = (typeof ACCOUNT_STATUS)[keyof typeof ACCOUNT_STATUS];
export const ACCOUNT_STATUS_IDS = Object.values(ACCOUNT_STATUS) as AccountStatusId[];

/** English labels as served by `GET account/statuses`; the console translates by id. */
export const ACCOUNT_STATUS_LABELS: Record<AccountStatusId, string> = {
  1: 'Active',
  2: 'Disabled',
  3: 'Password change required',
  4: 'Awaiting activation',
};
