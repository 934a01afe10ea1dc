import type { TAccessToken } from '@rollcall/contracts';

/** The columns every token answer reads: the token, its account's username and its last use. */
export const ACCESS_TOKEN_COLUMNS = [
  'access_tokens_v1.id',
  'access_tokens_v1.account_id',
  'access_tokens_v1.display_prefix',
  'access_tokens_v1.title',
  'access_tokens_v1.permissions',
  'access_tokens_v1.restrictions',
  'access_tokens_v1.expires_at',
  'access_tokens_v1.created_at',
  'access_tokens_v1.updated_at',
  'accounts_v2.username as account_username',
  'access_token_usage.last_used_at',
] as const;

interface AccessTokenRow {
  id: string;
  account_id: string;
  display_prefix: string;
  title: string;
  permissions: string;
  restrictions: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  account_username: string | null;
  last_used_at: string | null;
}

/** `unique_id` is the recognisable prefix with an ellipsis: the secret itself was shown once, at creation. */
export const toAccessToken = (row: AccessTokenRow): TAccessToken => ({
  id: row.id,
  unique_id: `${row.display_prefix}…`,
  token_title: row.title,
  account_id: row.account_id,
  account_username: row.account_username,
  created_at: row.created_at,
  updated_at: row.updated_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
  permissions: JSON.parse(row.permissions) as string[],
  restrictions: JSON.parse(row.restrictions) as string[],
});
