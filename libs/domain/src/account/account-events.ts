import type { DomainEvent } from '../shared';

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

export type AccountCreated = DomainEvent<'AccountCreated', AccountCreatedData>;
export type AccountSignedIn = DomainEvent<'AccountSignedIn', { accountId: string; sessionId: string; at: string }>;

export type AccountEvent = AccountCreated | AccountSignedIn;
export const ACCOUNT_EVENT_TYPES: AccountEvent['type'][] = ['AccountCreated', 'AccountSignedIn'];
