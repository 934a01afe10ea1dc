import { DomainError } from '../shared';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import type { AccountState } from './account-state';

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'CreateAccount':
      if (state.status !== 'none') throw new DomainError('account.exists', 'This account already exists');
      return [{ type: 'AccountCreated', data: { ...command.data } }];
    case 'RecordSignIn':
      if (state.status === 'none') throw new DomainError('account.not_found', 'Account not found');
      return [{ type: 'AccountSignedIn', data: { accountId: state.id, sessionId: command.data.sessionId, at: command.data.at } }];
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}
