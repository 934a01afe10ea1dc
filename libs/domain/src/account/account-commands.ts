import type { AccountCreatedData, AccountProfile, ContactEntry } from './account-events';

export type CreateAccount = { type: 'CreateAccount'; data: AccountCreatedData };
/** The password was verified by the caller (hash checks are I/O-heavy and live outside the decider). */
export type RecordSignIn = { type: 'RecordSignIn'; data: { sessionId: string; at: string } };
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

export type AccountCommand = CreateAccount | RecordSignIn | UpdateAccountProfile | ChangeProfilePicture | DeleteAccount;
