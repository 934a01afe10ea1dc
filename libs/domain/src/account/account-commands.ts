import type { AccountCreatedData } from './account-events';

export type CreateAccount = { type: 'CreateAccount'; data: AccountCreatedData };
/** The password was verified by the caller (hash checks are I/O-heavy and live outside the decider). */
export type RecordSignIn = { type: 'RecordSignIn'; data: { sessionId: string; at: string } };

export type AccountCommand = CreateAccount | RecordSignIn;
