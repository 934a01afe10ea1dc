/** The read tables of access-tokens (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** access_tokens_v1: live tokens; permissions and restrictions as JSON arrays */
export interface AccessTokenTable {
  id: string;
  account_id: string;
  token_hash: string;
  display_prefix: string;
  title: string;
  permissions: string;
  restrictions: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Last use of each access token: operational data written in batches by TokenUsageRecorder, not an
 * event-sourced read model, so a rebuild leaves it alone (docs/adr/0007-access-tokens.md).
 */
export interface AccessTokenUsageTable {
  token_id: string;
  last_used_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    access_tokens_v1: AccessTokenTable;
    access_token_usage: AccessTokenUsageTable;
  }
}
