import type { Decider } from '../shared';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import { evolveAccount, initialAccountState, type AccountState } from './account-state';
import { decideAccount } from './decide-account';

export * from './account-events';
export * from './account-commands';
export * from './account-state';
export * from './decide-account';
export * from './account-profile-rules';

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};

/** Stream names are `<aggregate>-<id>` so `$all` readers can tell aggregates apart. */
export const accountStream = (accountId: string) => `account-${accountId}`;

/** Username and e-mail are unique, case-insensitively, reserved atomically with the append. */
export const usernameReservation = (username: string) => ({ scope: 'account.username', value: username.toLowerCase() });
export const emailReservation = (email: string) => ({ scope: 'account.email', value: email.trim().toLowerCase() });
