import type { AccountEvent } from './account-events';

export type AccountState =
  | { status: 'none' }
  | {
      status: 'created';
      id: string;
      username: string;
      statusId: number;
      passwordHash: string | null;
      isProtected: boolean;
      expiresAt: string | null;
      lastSignInAt: string | null;
    };

export const initialAccountState = (): AccountState => ({ status: 'none' });

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated':
      return {
        status: 'created',
        id: event.data.accountId,
        username: event.data.username,
        statusId: event.data.statusId,
        passwordHash: event.data.passwordHash,
        isProtected: event.data.isProtected,
        expiresAt: event.data.expiresAt,
        lastSignInAt: null,
      };
    case 'AccountSignedIn':
      return state.status === 'created' ? { ...state, lastSignInAt: event.data.at } : state;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
