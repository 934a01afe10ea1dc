/** The read tables of applications (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** applications_v1: one row per live application (docs/adr/0014); lists as JSON text */
export interface ApplicationTable {
  id: string;
  title: string;
  /** what search and the title sort read */
  title_lower: string;
  url: string | null;
  description: string;
  /** JSON: [{scope, description}] */
  scopes: string;
  client_type: string;
  /** JSON: string[] */
  redirect_uris: string;
  /** JSON: string[] */
  post_logout_redirect_uris: string;
  /** JSON: string[] */
  grant_types: string;
  require_pkce: number;
  /** SHA-256 (hex) of the current client secret; null for a public client. Never answered. */
  secret_hash: string | null;
  secret_issued_at: string | null;
  created_at: string;
  updated_at: string;
}

/** application_permissions_v1: the live permissions of live applications */
export interface ApplicationPermissionTable {
  id: string;
  application_id: string;
  slug: string;
  description: string;
  created_at: string;
}

/** application_roles_v1: the live roles of live applications */
export interface ApplicationRoleTable {
  id: string;
  application_id: string;
  title: string;
  slug: string;
  description: string;
  created_at: string;
}

/** application_role_permissions_v1: the live links of a permission to a role; `id` is the relation id */
export interface ApplicationRolePermissionTable {
  id: string;
  application_id: string;
  role_id: string;
  permission_id: string;
  created_at: string;
}

/** account_application_roles_v1: which live application roles an account holds, since when */
export interface AccountApplicationRoleTable {
  account_id: string;
  application_id: string;
  role_id: string;
  created_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    applications_v1: ApplicationTable;
    application_permissions_v1: ApplicationPermissionTable;
    application_roles_v1: ApplicationRoleTable;
    application_role_permissions_v1: ApplicationRolePermissionTable;
    account_application_roles_v1: AccountApplicationRoleTable;
  }
}
