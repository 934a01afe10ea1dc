import type { DomainEvent } from '../shared';
import { ACCOUNT_APPLICATION_EVENT_TYPES, type AccountApplicationEvent } from '../application/account-application-access';

export interface AccountCreatedData {
  accountId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  /** argon2id PHC string, or null when the owner sets a first password later. */
  passwordHash: string | null;
  statusId: number;
  policyId: string | null;
  expiresAt: string | null;
  organizationId: string | null;
  sendActivation: boolean;
  isProtected: boolean;
  createdAt: string;
}

export interface ContactEntry {
  value: string;
  type: string;
}

/** The profile fields beyond the names and the primary e-mail (spec: `additional`). */
export interface AccountAdditional {
  middleName: string | null;
  nickname: string | null;
  /** YYYY-MM-DD */
  birthDate: string | null;
  gender: 'male' | 'female' | null;
  /** IANA name; the API checks it against the runtime's list before the command */
  timeZone: string | null;
  locale: 'en' | 'de' | null;
  website: string | null;
  profile: string | null;
  address: string | null;
  telephone: ContactEntry[];
  emails: ContactEntry[];
}

export interface AccountProfile {
  firstName: string;
  lastName: string;
  email: string;
  additional: AccountAdditional;
}

export interface AccountProfileUpdatedData extends AccountProfile {
  accountId: string;
  updatedAt: string;
}

export type AccountCreated = DomainEvent<'AccountCreated', AccountCreatedData>;
export type AccountSignedIn = DomainEvent<'AccountSignedIn', { accountId: string; sessionId: string; at: string }>;
export type AccountProfileUpdated = DomainEvent<'AccountProfileUpdated', AccountProfileUpdatedData>;
/** picture: a data URL, or null when removed */
export type AccountProfilePictureChanged = DomainEvent<'AccountProfilePictureChanged', { accountId: string; picture: string | null; changedAt: string }>;
export type AccountDeleted = DomainEvent<'AccountDeleted', { accountId: string; deletedAt: string }>;
/**
 * The account's personal data key was destroyed (docs/adr/0015): its names, e-mails, phones, birth date,
 * picture and claim values read as erased everywhere from now on, in every replay too.
 */
export type AccountPersonalDataErased = DomainEvent<'AccountPersonalDataErased', { accountId: string; erasedAt: string }>;

export type AccountStatusChanged = DomainEvent<'AccountStatusChanged', { accountId: string; statusId: number; changedAt: string }>;
/** policyId null: no policy is enforced any more */
export type AccountPolicyChanged = DomainEvent<'AccountPolicyChanged', { accountId: string; policyId: string | null; changedAt: string }>;
/** the account's status becomes 3: its next sign-in must change the password first */
export type PasswordChangeRequired = DomainEvent<'PasswordChangeRequired', { accountId: string; at: string }>;
/** passwordHash: argon2id PHC string of the new password */
export type PasswordChanged = DomainEvent<'PasswordChanged', { accountId: string; passwordHash: string; changedAt: string }>;
export type SignInFailed = DomainEvent<'SignInFailed', { accountId: string; at: string }>;
export type AccountLocked = DomainEvent<'AccountLocked', { accountId: string; at: string; until: string }>;
/** tokenHash: SHA-256 (hex) of the activation link's token; the clear token is never stored in an event */
export type ActivationIssued = DomainEvent<'ActivationIssued', { accountId: string; tokenHash: string; expiresAt: string; issuedAt: string }>;
/** the link was used: follows the PasswordChanged and AccountStatusChanged of the same decision */
export type AccountActivated = DomainEvent<'AccountActivated', { accountId: string; tokenHash: string; at: string }>;
export type AccountUnlocked = DomainEvent<'AccountUnlocked', { accountId: string; at: string }>;
/** membership: the account belongs to the organization (its roles there come with the roles work) */
export type AccountJoinedOrganization = DomainEvent<'AccountJoinedOrganization', { accountId: string; organizationId: string; at: string }>;
/** leaving an organization also ends the roles held there */
export type AccountLeftOrganization = DomainEvent<'AccountLeftOrganization', { accountId: string; organizationId: string; at: string }>;
/** a role of an organization the account belongs to */
export type RoleGrantedToAccount = DomainEvent<'RoleGrantedToAccount', { accountId: string; organizationId: string; roleId: string; at: string }>;
export type RoleRevokedFromAccount = DomainEvent<'RoleRevokedFromAccount', { accountId: string; organizationId: string; roleId: string; at: string }>;

export type AccountEvent =
  | AccountCreated
  | AccountSignedIn
  | AccountProfileUpdated
  | AccountProfilePictureChanged
  | AccountDeleted
  | AccountPersonalDataErased
  | AccountStatusChanged
  | AccountPolicyChanged
  | PasswordChangeRequired
  | PasswordChanged
  | SignInFailed
  | AccountLocked
  | ActivationIssued
  | AccountActivated
  | AccountUnlocked
  | AccountJoinedOrganization
  | AccountLeftOrganization
  | RoleGrantedToAccount
  | RoleRevokedFromAccount
  /** application roles held, claim values and consent (application/account-application-access.ts, docs/adr/0014) */
  | AccountApplicationEvent;
export const ACCOUNT_EVENT_TYPES: AccountEvent['type'][] = [
  'AccountCreated',
  'AccountSignedIn',
  'AccountProfileUpdated',
  'AccountProfilePictureChanged',
  'AccountDeleted',
  'AccountPersonalDataErased',
  'AccountStatusChanged',
  'AccountPolicyChanged',
  'PasswordChangeRequired',
  'PasswordChanged',
  'SignInFailed',
  'AccountLocked',
  'ActivationIssued',
  'AccountActivated',
  'AccountUnlocked',
  'AccountJoinedOrganization',
  'AccountLeftOrganization',
  'RoleGrantedToAccount',
  'RoleRevokedFromAccount',
  ...ACCOUNT_APPLICATION_EVENT_TYPES,
];
