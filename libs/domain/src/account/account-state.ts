import type { AccountAdditional, AccountEvent } from './account-events';

export type AccountState =
  | { status: 'none' }
  | {
      status: 'created';
      id: string;
      username: string;
      email: string;
      firstName: string;
      lastName: string;
      additional: AccountAdditional;
      statusId: number;
      passwordHash: string | null;
      isProtected: boolean;
      expiresAt: string | null;
      lastSignInAt: string | null;
    }
  | { status: 'deleted'; id: string };

export const initialAccountState = (): AccountState => ({ status: 'none' });

export const emptyAdditional = (email: string): AccountAdditional => ({
  middleName: null,
  nickname: null,
  birthDate: null,
  gender: null,
  timeZone: null,
  locale: null,
  website: null,
  profile: null,
  address: null,
  telephone: [],
  emails: [{ value: email, type: 'work' }],
});

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated':
      return {
        status: 'created',
        id: event.data.accountId,
        username: event.data.username,
        email: event.data.email,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        additional: emptyAdditional(event.data.email),
        statusId: event.data.statusId,
        passwordHash: event.data.passwordHash,
        isProtected: event.data.isProtected,
        expiresAt: event.data.expiresAt,
        lastSignInAt: null,
      };
    case 'AccountSignedIn':
      return state.status === 'created' ? { ...state, lastSignInAt: event.data.at } : state;
    case 'AccountProfileUpdated':
      return state.status === 'created'
        ? { ...state, firstName: event.data.firstName, lastName: event.data.lastName, email: event.data.email, additional: event.data.additional }
        : state;
    case 'AccountProfilePictureChanged':
      return state;
    case 'AccountDeleted':
      return { status: 'deleted', id: event.data.accountId };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
