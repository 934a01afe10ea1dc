import type { Decider } from '../shared';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import { evolveAccount, initialAccountState, type AccountState } from './account-state';
import { decideAccount } from './decide-account';

export * from './account-events';
export * from './account-commands';
export * from './account-state';
export * from './decide-account';

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};

/** Stream names are `<aggregate>-<id>` so `$all` readers can tell aggregates apart. */
export const accountStream = (accountId: string) => `account-${accountId}`;
