import type { Generated } from 'kysely';

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

export interface SessionTable {
  id: string;
  token_hash: string;
  account_id: string;
  started_at: string;
  expires_at: string;
  ended_at: string | null;
}

export interface PasswordPolicyTable {
  id: string;
  title: string;
  description: string;
  min_length: number;
  min_strength: number;
  history: number | null;
  max_age: number | null;
  lockout: number;
  /** seconds */
  lockout_duration: number;
  created_at: string;
  /** null only for a moment in a table built before the column existed (see the projection) */
  updated_at: string | null;
}

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

export interface ProjectionCheckpointTable {
  projection: string;
  position_commit: number;
  position_sequence: number;
  updated_at: string;
  last_error: string | null;
}

/** which account an activation link (by its SHA-256) belongs to; the account stream decides if it still works */
export interface AccountActivationTable {
  account_id: string;
  token_hash: string;
  expires_at: string;
}

/**
 * Mails waiting to be sent (docs/adr/0008). Not a read model: written by command handlers, drained
 * by the sender, never rebuilt. `body` holds the clear link only until the row is sent or given up.
 */
export interface MailOutboxTable {
  id: string;
  kind: string;
  account_id: string | null;
  recipient: string;
  subject: string;
  body: string;
  /** pending | sent | failed | superseded */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** a sender holds the row until then; a crash lets it expire and another attempt is made */
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** organizations_v1: one row per live organization, where it sits in the tree (docs/adr/0009) */
export interface OrganizationTable {
  id: string;
  title: string;
  /** what search, find and the title sort read */
  title_lower: string;
  description: string;
  parent_id: string | null;
  is_protected: number;
  created_at: string;
  updated_at: string;
}

/** organization_members_v1: which accounts belong to which live organization, since when */
export interface OrganizationMemberTable {
  organization_id: string;
  account_id: string;
  created_at: string;
}

/** teams_v1: one row per live team (docs/adr/0010); `organization_id` null for a multi-organization team */
export interface TeamTable {
  id: string;
  title: string;
  /** what search, find and the title sort read */
  title_lower: string;
  description: string;
  interorg: number;
  organization_id: string | null;
  is_protected: number;
  created_at: string;
  updated_at: string;
}

/** team_members_v1: which accounts belong to which live team, since when */
export interface TeamMemberTable {
  team_id: string;
  account_id: string;
  created_at: string;
}

/** organization_permissions_v1: the live permissions of live organizations (docs/adr/0010) */
export interface OrganizationPermissionTable {
  id: string;
  organization_id: string;
  title: string;
  slug: string;
  description: string;
  is_protected: number;
  created_at: string;
}

/** organization_roles_v1: the live roles of live organizations */
export interface OrganizationRoleTable {
  id: string;
  organization_id: string;
  title: string;
  slug: string;
  description: string;
  is_protected: number;
  created_at: string;
}

/** organization_role_permissions_v1: which permission each role holds */
export interface OrganizationRolePermissionTable {
  role_id: string;
  permission_id: string;
  organization_id: string;
}

/** account_roles_v1: which roles an account holds in an organization it belongs to, since when */
export interface AccountRoleTable {
  account_id: string;
  organization_id: string;
  role_id: string;
  created_at: string;
}

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

/** attendance_statuses_v1: one row per live attendance status; active 1 means selectable */
export interface AttendanceStatusTable { id: string; title: string; active: number; created_at: string; updated_at: string }
/** calendar_events_v1: one row per live day of a calendar event group; dates YYYY-MM-DD, times HH:mm:ss, local to the account */
export interface CalendarEventTable { id: string; account_id: string; event_group_id: string; attendance_status_id: string; title: string; description: string; date: string; start_time: string; end_time: string; group_start_date: string; group_end_date: string; group_start_time: string; group_end_time: string }

export interface ReadDatabase {
  accounts_v2: AccountTable;
  account_status_counts_v2: AccountStatusCountTable;
  sessions_v1: SessionTable;
  password_policies_v2: PasswordPolicyTable;
  projection_checkpoints: ProjectionCheckpointTable;
  projection_set_aside: import('../projections/set-aside').ProjectionSetAsideTable;
  access_tokens_v1: AccessTokenTable;
  access_token_usage: AccessTokenUsageTable;
  account_activations_v1: AccountActivationTable;
  mail_outbox_v1: MailOutboxTable;
  organizations_v1: OrganizationTable;
  organization_members_v1: OrganizationMemberTable;
  organization_time_zones_v1: import('../../features/organizations/projections/organization-time-zones.projection').OrganizationTimeZoneTable;
  organization_permissions_v1: OrganizationPermissionTable;
  organization_roles_v1: OrganizationRoleTable;
  organization_role_permissions_v1: OrganizationRolePermissionTable;
  account_roles_v1: AccountRoleTable;
  teams_v1: TeamTable;
  team_members_v1: TeamMemberTable;
  applications_v1: ApplicationTable;
  application_permissions_v1: ApplicationPermissionTable;
  application_roles_v1: ApplicationRoleTable;
  application_role_permissions_v1: ApplicationRolePermissionTable;
  account_application_roles_v1: AccountApplicationRoleTable;
  attendance_statuses_v1: AttendanceStatusTable;
  calendar_events_v1: CalendarEventTable;
  readers_v1: import('../../features/readers/reader-tables').ReaderTable;
  reader_health: import('../../features/readers/reader-tables').ReaderHealthTable;
  smart_cards_v1: import('../../features/attendance/attendance-tables').SmartCardTable;
  attendance_slots_v1: import('../../features/attendance/attendance-tables').AttendanceSlotTable;
  unknown_cards_v1: import('../../features/attendance/attendance-tables').UnknownCardTable;
  event_log_v1: import('../../features/audit/audit-tables').EventLogTable;
  oidc_store: import('../../features/oidc/oidc-tables').OidcStoreTable;
  application_consents_v1: import('../../features/oidc/oidc-tables').ApplicationConsentTable;
  account_sso_claims_v1: import('../../features/sso-claims/sso-claims-tables').AccountSsoClaimTable;
  _unused?: { id: Generated<number> };
}
