/** The read tables of organizations (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
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

/** organization_time_zones_v1: one row per live organization that names a zone for its members' attendance days */
export interface OrganizationTimeZoneTable {
  organization_id: string;
  time_zone: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    organizations_v1: OrganizationTable;
    organization_members_v1: OrganizationMemberTable;
    organization_time_zones_v1: OrganizationTimeZoneTable;
    organization_permissions_v1: OrganizationPermissionTable;
    organization_roles_v1: OrganizationRoleTable;
    organization_role_permissions_v1: OrganizationRolePermissionTable;
    account_roles_v1: AccountRoleTable;
  }
}
