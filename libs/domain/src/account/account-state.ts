import {
  emptyAccountApplicationAccess,
  evolveAccountApplicationAccess,
  isAccountApplicationEvent,
  type AccountApplicationAccessState,
} from '../application/account-application-access';
import type { AccountAdditional, AccountEvent } from './account-events';

/** status ids the decider acts on (libs/contracts ACCOUNT_STATUS names them all; domain imports nothing) */
export const ACTIVE = 1;
export const DISABLED = 2;
export const PASSWORD_CHANGE_REQUIRED = 3;
export const AWAITING_ACTIVATION = 4;
export const ACCOUNT_STATUS_ID_VALUES = [ACTIVE, DISABLED, PASSWORD_CHANGE_REQUIRED, AWAITING_ACTIVATION];

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
      policyId: string | null;
      /** newest first, the current one included; at most PASSWORD_HISTORY_KEPT */
      passwordHistory: string[];
      /** the last PasswordChanged, else the creation (aging counts from it) */
      passwordChangedAt: string;
      /** failed sign-ins since the last success or lock */
      failedSignIns: number;
      lockedUntil: string | null;
      /** the one activation link that works, while the account awaits activation */
      activation: { tokenHash: string; expiresAt: string } | null;
      /** the organizations it belongs to, in joining order */
      organizationIds: string[];
      /** the roles it holds, by organization (only organizations it belongs to) */
      rolesByOrganization: Record<string, string[]>;
      /** application roles held, claim values and consents (application/account-application-access.ts) */
      applications: AccountApplicationAccessState;
    }
  /** erased: its personal data key is destroyed (docs/adr/0015) */
  | { status: 'deleted'; id: string; erased: boolean };

/** a policy's history reaches back at most 24 passwords (PASSWORD_POLICY_LIMITS.history.max) */
export const PASSWORD_HISTORY_KEPT = 24;

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
  if (isAccountApplicationEvent(event)) return state.status === 'created' ? { ...state, applications: evolveAccountApplicationAccess(state.applications, event) } : state;
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
        policyId: event.data.policyId,
        passwordHistory: event.data.passwordHash ? [event.data.passwordHash] : [],
        passwordChangedAt: event.data.createdAt,
        failedSignIns: 0,
        lockedUntil: null,
        activation: null,
        organizationIds: event.data.organizationId ? [event.data.organizationId] : [],
        rolesByOrganization: {},
        applications: emptyAccountApplicationAccess(),
      };
    case 'AccountSignedIn':
      return state.status === 'created' ? { ...state, lastSignInAt: event.data.at, failedSignIns: 0 } : state;
    case 'AccountStatusChanged':
      // a link issued while awaiting activation must not come back to life if the status returns to 4
      return state.status === 'created'
        ? { ...state, statusId: event.data.statusId, activation: event.data.statusId === AWAITING_ACTIVATION ? state.activation : null }
        : state;
    case 'AccountPolicyChanged':
      return state.status === 'created' ? { ...state, policyId: event.data.policyId } : state;
    case 'PasswordChangeRequired':
      return state.status === 'created' ? { ...state, statusId: PASSWORD_CHANGE_REQUIRED } : state;
    case 'PasswordChanged':
      return state.status === 'created'
        ? {
            ...state,
            passwordHash: event.data.passwordHash,
            passwordHistory: [event.data.passwordHash, ...state.passwordHistory].slice(0, PASSWORD_HISTORY_KEPT),
            passwordChangedAt: event.data.changedAt,
            statusId: state.statusId === PASSWORD_CHANGE_REQUIRED ? ACTIVE : state.statusId,
          }
        : state;
    case 'SignInFailed':
      return state.status === 'created' ? { ...state, failedSignIns: state.failedSignIns + 1 } : state;
    case 'AccountLocked':
      return state.status === 'created' ? { ...state, failedSignIns: 0, lockedUntil: event.data.until } : state;
    case 'ActivationIssued':
      return state.status === 'created' ? { ...state, activation: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt } } : state;
    case 'AccountActivated':
      return state.status === 'created' ? { ...state, activation: null } : state;
    case 'AccountUnlocked':
      return state.status === 'created' ? { ...state, failedSignIns: 0, lockedUntil: null } : state;
    case 'AccountProfileUpdated':
      return state.status === 'created'
        ? { ...state, firstName: event.data.firstName, lastName: event.data.lastName, email: event.data.email, additional: event.data.additional }
        : state;
    case 'AccountProfilePictureChanged':
      return state;
    case 'AccountJoinedOrganization':
      return state.status === 'created' ? { ...state, organizationIds: [...state.organizationIds, event.data.organizationId] } : state;
    case 'AccountLeftOrganization': {
      if (state.status !== 'created') return state;
      const { [event.data.organizationId]: _ended, ...rolesByOrganization } = state.rolesByOrganization;
      return { ...state, organizationIds: state.organizationIds.filter((id) => id !== event.data.organizationId), rolesByOrganization };
    }
    case 'RoleGrantedToAccount': {
      if (state.status !== 'created') return state;
      const held = state.rolesByOrganization[event.data.organizationId] ?? [];
      return { ...state, rolesByOrganization: { ...state.rolesByOrganization, [event.data.organizationId]: [...held, event.data.roleId] } };
    }
    case 'RoleRevokedFromAccount': {
      if (state.status !== 'created') return state;
      const held = (state.rolesByOrganization[event.data.organizationId] ?? []).filter((id) => id !== event.data.roleId);
      return { ...state, rolesByOrganization: { ...state.rolesByOrganization, [event.data.organizationId]: held } };
    }
    case 'AccountDeleted':
      return { status: 'deleted', id: event.data.accountId, erased: false };
    case 'AccountPersonalDataErased':
      return { status: 'deleted', id: event.data.accountId, erased: true };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
