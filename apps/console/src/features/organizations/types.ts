import type { TAccountOrganization, TDeletionChoice, TOrganization, TOrganizationMember, TOrganizationSearchItem, TSubOrganization } from '@rollcall/contracts';

/** The organization shapes of the console, as the API answers them (libs/contracts/src/organizations). */
export type OrganizationRow = TOrganization;
export type OrganizationDetails = TOrganization;
export type SubOrganizationRow = TSubOrganization;
export type MemberRow = TOrganizationMember;
export type AccountOrganizationRow = TAccountOrganization;
export type DeletionChoice = TDeletionChoice;
/** An organization as the search picker offers it. */
export type OrganizationOption = TOrganizationSearchItem;
