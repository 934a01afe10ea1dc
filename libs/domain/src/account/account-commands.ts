import type { AccountApplicationCommand } from '../application/account-application-access';
import type { AccountCreatedData, AccountProfile, ContactEntry } from './account-events';

export type CreateAccount = { type: 'CreateAccount'; data: AccountCreatedData };
/** The password was verified by the caller (hash checks are I/O-heavy and live outside the decider). */
/**
 * passwordHash: the hash the sign-in verified the password against; when the password has changed
 * since, the sign-in is refused (a session of the old password must not outlive its change).
 */
export type RecordSignIn = { type: 'RecordSignIn'; data: { sessionId: string; at: string; passwordHash?: string | null } };
/**
 * The whole profile. Contact lists left undefined keep their current entries (the profile form does
 * not edit them). `today` (YYYY-MM-DD) comes from the caller's clock: a birth date may not be after it.
 */
export type UpdateAccountProfile = {
  type: 'UpdateAccountProfile';
  data: Omit<AccountProfile, 'additional'> & {
    additional: Omit<AccountProfile['additional'], 'telephone' | 'emails'> & { telephone?: ContactEntry[]; emails?: ContactEntry[] };
    today: string;
    updatedAt: string;
  };
};
export type ChangeProfilePicture = { type: 'ChangeProfilePicture'; data: { picture: string | null; changedAt: string } };
export type DeleteAccount = { type: 'DeleteAccount'; data: { deletedAt: string } };
/**
 * The right to be forgotten (docs/adr/0015): a live account is deleted by the same decision; a deleted
 * one may be erased later. The caller destroys the account's personal data key once this is stored.
 */
export type EraseAccountPersonalData = { type: 'EraseAccountPersonalData'; data: { erasedAt: string } };

/** Status and policy of the auth info; only what differs from the state becomes an event. */
export type ChangeAccountAuth = { type: 'ChangeAccountAuth'; data: { statusId: number; policyId: string | null; changedAt: string } };
export type RequirePasswordChange = { type: 'RequirePasswordChange'; data: { at: string } };
/**
 * A new password, already hashed and checked against its policy's length and strength by the caller.
 * `reusesRecentPassword`: the caller verified it against the policy's last N hashes (argon2 is I/O).
 */
export type SetPassword = {
  type: 'SetPassword';
  data: {
    passwordHash: string;
    reusesRecentPassword: boolean;
    changedAt: string;
    /**
     * The owner's own change: the hash its current password was verified against. The change is
     * refused if the account is locked at `changedAt` (a parallel wrong guess may have locked it since
     * the check) or its password changed since (the proof is stale). An administrator's set has none.
     */
    checkedPasswordHash?: string | null;
  };
};
/** A wrong password; the lockout rule (the policy's, else the built-in default) travels with the command (0 attempts = no lockout, which sign-in never sends). */
export type RecordFailedSignIn = { type: 'RecordFailedSignIn'; data: { at: string; lockoutAttempts: number; lockoutDurationSeconds: number } };

/** status 4 only: a new single-use link; only its SHA-256 reaches the event, and it replaces any earlier one */
export type IssueActivation = { type: 'IssueActivation'; data: { tokenHash: string; expiresAt: string; issuedAt: string } };
/**
 * The owner sets the first password through an activation link. The caller hashed the token and
 * the password, and checked the password against the account's policy (as for SetPassword).
 */
export type ActivateAccount = { type: 'ActivateAccount'; data: { tokenHash: string; passwordHash: string; reusesRecentPassword: boolean; at: string } };
/** An administrator ends a lockout and forgets the failed sign-ins. */
export type UnlockAccount = { type: 'UnlockAccount'; data: { at: string } };
/** The caller checked that the organization exists (it is another aggregate). */
export type JoinOrganization = { type: 'JoinOrganization'; data: { organizationId: string; at: string } };
export type LeaveOrganization = { type: 'LeaveOrganization'; data: { organizationId: string; at: string } };
/** The caller checked that the role belongs to that organization (the organization is another aggregate). */
export type GrantRole = { type: 'GrantRole'; data: { organizationId: string; roleId: string; at: string } };
export type RevokeRole = { type: 'RevokeRole'; data: { organizationId: string; roleId: string; at: string } };

export type AccountCommand =
  | CreateAccount
  | RecordSignIn
  | UpdateAccountProfile
  | ChangeProfilePicture
  | DeleteAccount
  | EraseAccountPersonalData
  | ChangeAccountAuth
  | RequirePasswordChange
  | SetPassword
  | RecordFailedSignIn
  | IssueActivation
  | ActivateAccount
  | UnlockAccount
  | JoinOrganization
  | LeaveOrganization
  | GrantRole
  | RevokeRole
  /** application roles, claims and consent: decided by application/account-application-access.ts */
  | AccountApplicationCommand;
