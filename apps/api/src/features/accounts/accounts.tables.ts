/** The read tables of accounts (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** Rows of the read models. Each table is owned by exactly one projection (named with a version). */
export interface AccountTable {
  id: string;
  username: string;
  username_lower: string;
  email: string;
  email_lower: string;
  first_name: string;
  last_name: string;
  /** lower-cased "username first last email", what the list search matches */
  search_text: string;
  status_id: number;
  policy_id: string | null;
  organization_id: string | null;
  is_protected: number;
  password_hash: string | null;
  expires_at: string | null;
  created_at: string;
  last_login_at: string | null;
  /** the last password change, else the creation: password aging counts from it */
  password_changed_at: string | null;
  additional: string;
  position_commit: number;
  position_sequence: number;
}

/** accounts per status, kept by the accounts projection so a list's total needs no count(*) */
export interface AccountStatusCountTable {
  status_id: number;
  count: number;
}

/** which account an activation link (by its SHA-256) belongs to; the account stream decides if it still works */
export interface AccountActivationTable {
  account_id: string;
  token_hash: string;
  expires_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    accounts_v2: AccountTable;
    account_status_counts_v2: AccountStatusCountTable;
    account_activations_v1: AccountActivationTable;
  }
}
