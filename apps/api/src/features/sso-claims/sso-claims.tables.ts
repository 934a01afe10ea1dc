/** Read table of per-account single sign-on claims (docs/adr/0014). */

/** account_sso_claims_v1: the claim values set for an account (tab 10), one row per set claim, owned by AccountSsoClaimsProjection */
export interface AccountSsoClaimTable {
  account_id: string;
  claim: string;
  value: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    account_sso_claims_v1: AccountSsoClaimTable;
  }
}
