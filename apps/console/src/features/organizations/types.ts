import type {
  TAccountOrganization,
  TDeletionChoice,
  TOrganization,
  TOrganizationMember,
  TOrganizationSearchItem,
  TPermission,
  TRole,
  TSubOrganization,
} from '@rollcall/contracts';

/** The organization shapes of the console, as the API answers them (libs/contracts/src/organizations). */
export type OrganizationRow = TOrganization;
export type OrganizationDetails = TOrganization;
export type SubOrganizationRow = TSubOrganization;
export type MemberRow = TOrganizationMember;
export type AccountOrganizationRow = TAccountOrganization;
export type DeletionChoice = TDeletionChoice;
/** An organization as the search picker offers it. */
export type OrganizationOption = TOrganizationSearchItem;
/** a row of the Permissions tab */
export type PermissionRow = TPermission;
/** a row of the Roles tab, with the ids of its permissions */
export type RoleRow = TRole;
