/** Tables of the OpenID Connect provider (docs/adr/0014). */

/**
 * oidc_store: the provider's protocol state (sessions, interactions, codes, tokens, grants, and our
 * signing keys), owned by no projection and never rebuilt: it is short-lived state, not business
 * facts. Keyed by (model, id); `expires_at` in epoch seconds, null for never.
 */
export interface OidcStoreTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  /** a Grant's account and client, so revoking a consent finds that pair's grants */
  account_id: string | null;
  client_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

/** application_consents_v1: the scopes an account consented to per application, owned by ApplicationConsentsProjection */
export interface ApplicationConsentTable {
  account_id: string;
  application_id: string;
  /** JSON array of scope tokens */
  scopes: string;
  given_at: string;
  updated_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    oidc_store: OidcStoreTable;
    application_consents_v1: ApplicationConsentTable;
  }
}
