import { DomainError } from '../shared';
import { decideAccountApplicationAccess, isAccountApplicationCommand } from '../application/account-application-access';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import { accountProfileViolations, throwProfileViolations } from './account-profile-rules';
import { ACCOUNT_STATUS_ID_VALUES, ACTIVE, AWAITING_ACTIVATION, type AccountState } from './account-state';

const notFound = () => new DomainError('account.not_found', 'Account not found');
/** unknown, used, replaced and expired links answer alike: a link tells nothing about the account */
export const activationInvalid = () => new DomainError('activation.invalid', 'This activation link is invalid or has expired');
const reused = () => new DomainError('password.reused', 'Password was used recently: the password history of the policy forbids reusing it', 'password');

/** The primary e-mail's entry in the list follows a change of the primary e-mail. */
const followPrimary = (entries: { value: string; type: string }[], previous: string, next: string) =>
  entries.map((entry) => (entry.value.toLowerCase() === previous.toLowerCase() ? { ...entry, value: next } : entry));

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  // application roles, claims and consent exist only for a live account
  if (isAccountApplicationCommand(command)) {
    if (state.status !== 'created') throw notFound();
    return decideAccountApplicationAccess(command, state.applications, state.id);
  }
  switch (command.type) {
    case 'CreateAccount':
      if (state.status !== 'none') throw new DomainError('account.exists', 'This account already exists');
      return [{ type: 'AccountCreated', data: { ...command.data } }];
    case 'RecordSignIn':
      if (state.status !== 'created') throw notFound();
      // a lock taken by a parallel attempt after the caller checked still wins
      if (state.lockedUntil !== null && state.lockedUntil > command.data.at) throw new DomainError('account.locked', 'This account is locked');
      // a password changed by a parallel call after the caller checked the old one wins too
      if (command.data.passwordHash !== undefined && command.data.passwordHash !== state.passwordHash) throw new DomainError('account.password_changed', 'The password has changed since it was checked');
      return [{ type: 'AccountSignedIn', data: { accountId: state.id, sessionId: command.data.sessionId, at: command.data.at } }];
    case 'UpdateAccountProfile': {
      if (state.status !== 'created') throw notFound();
      const { today, updatedAt, firstName, lastName, email, additional } = command.data;
      throwProfileViolations(accountProfileViolations({ firstName, lastName, email, additional }, today));
      const nextEmail = email.trim();
      return [
        {
          type: 'AccountProfileUpdated',
          data: {
            accountId: state.id,
            firstName: firstName.trim(),
            lastName: lastName.trim(),
            email: nextEmail,
            additional: {
              ...additional,
              telephone: additional.telephone ?? state.additional.telephone,
              emails: additional.emails ?? followPrimary(state.additional.emails, state.email, nextEmail),
            },
            updatedAt,
          },
        },
      ];
    }
    case 'ChangeProfilePicture':
      if (state.status !== 'created') throw notFound();
      return [{ type: 'AccountProfilePictureChanged', data: { accountId: state.id, picture: command.data.picture, changedAt: command.data.changedAt } }];
    case 'DeleteAccount':
      if (state.status !== 'created') throw notFound();
      if (state.isProtected) throw new DomainError('account.protected', 'This account is protected and cannot be deleted');
      return [{ type: 'AccountDeleted', data: { accountId: state.id, deletedAt: command.data.deletedAt } }];
    case 'EraseAccountPersonalData': {
      if (state.status === 'none') throw notFound();
      if (state.status === 'deleted' && state.erased) throw new DomainError('account.erased', "This account's personal data has already been erased");
      const erased: AccountEvent = { type: 'AccountPersonalDataErased', data: { accountId: state.id, erasedAt: command.data.erasedAt } };
      if (state.status === 'deleted') return [erased];
      if (state.isProtected) throw new DomainError('account.protected', 'This account is protected and cannot be erased');
      return [{ type: 'AccountDeleted', data: { accountId: state.id, deletedAt: command.data.erasedAt } }, erased];
    }
    case 'ChangeAccountAuth': {
      if (state.status !== 'created') throw notFound();
      const { statusId, policyId, changedAt } = command.data;
      if (!ACCOUNT_STATUS_ID_VALUES.includes(statusId)) throw new DomainError('account.status_invalid', 'Unknown account status', 'status_id');
      const events: AccountEvent[] = [];
      if (statusId !== state.statusId) events.push({ type: 'AccountStatusChanged', data: { accountId: state.id, statusId, changedAt } });
      if (policyId !== state.policyId) events.push({ type: 'AccountPolicyChanged', data: { accountId: state.id, policyId, changedAt } });
      return events;
    }
    case 'RequirePasswordChange':
      if (state.status !== 'created') throw notFound();
      return [{ type: 'PasswordChangeRequired', data: { accountId: state.id, at: command.data.at } }];
    case 'SetPassword': {
      if (state.status !== 'created') throw notFound();
      if (command.data.checkedPasswordHash !== undefined) {
        // the owner proved its current password: a lock taken or a change made by a parallel call since still wins
        if (state.lockedUntil !== null && state.lockedUntil > command.data.changedAt) throw new DomainError('account.locked', 'This account is locked');
        if (command.data.checkedPasswordHash !== state.passwordHash) throw new DomainError('account.password_changed', 'The password has changed since it was checked');
      }
      if (command.data.reusesRecentPassword) throw reused();
      const changed: AccountEvent = { type: 'PasswordChanged', data: { accountId: state.id, passwordHash: command.data.passwordHash, changedAt: command.data.changedAt } };
      // a first password set by an administrator activates the account (its link stops working)
      if (state.statusId !== AWAITING_ACTIVATION) return [changed];
      return [changed, { type: 'AccountStatusChanged', data: { accountId: state.id, statusId: ACTIVE, changedAt: command.data.changedAt } }];
    }
    case 'IssueActivation':
      if (state.status !== 'created') throw notFound();
      if (state.statusId !== AWAITING_ACTIVATION) throw new DomainError('activation.not_awaiting', 'Only an account awaiting activation can get an activation e-mail');
      return [{ type: 'ActivationIssued', data: { accountId: state.id, ...command.data } }];
    case 'ActivateAccount': {
      const { tokenHash, passwordHash, reusesRecentPassword, at } = command.data;
      if (state.status !== 'created' || state.statusId !== AWAITING_ACTIVATION || !state.activation) throw activationInvalid();
      if (state.activation.tokenHash !== tokenHash || state.activation.expiresAt <= at) throw activationInvalid();
      if (reusesRecentPassword) throw reused();
      return [
        { type: 'PasswordChanged', data: { accountId: state.id, passwordHash, changedAt: at } },
        { type: 'AccountStatusChanged', data: { accountId: state.id, statusId: ACTIVE, changedAt: at } },
        { type: 'AccountActivated', data: { accountId: state.id, tokenHash, at } },
      ];
    }
    case 'UnlockAccount': {
      if (state.status !== 'created') throw notFound();
      const locked = state.lockedUntil !== null && state.lockedUntil > command.data.at;
      // nothing to end: an unlock repeated or raced by the lock's own expiry changes nothing
      if (!locked && state.failedSignIns === 0) return [];
      return [{ type: 'AccountUnlocked', data: { accountId: state.id, at: command.data.at } }];
    }
    case 'JoinOrganization': {
      if (state.status !== 'created') throw notFound();
      const { organizationId, at } = command.data;
      if (state.organizationIds.includes(organizationId)) throw new DomainError('membership.exists', 'Account and organization already associated!', 'organization_id');
      return [{ type: 'AccountJoinedOrganization', data: { accountId: state.id, organizationId, at } }];
    }
    case 'LeaveOrganization': {
      if (state.status !== 'created') throw notFound();
      const { organizationId, at } = command.data;
      if (!state.organizationIds.includes(organizationId)) throw new DomainError('membership.not_found', 'This account does not belong to that organization');
      return [{ type: 'AccountLeftOrganization', data: { accountId: state.id, organizationId, at } }];
    }
    case 'GrantRole': {
      if (state.status !== 'created') throw notFound();
      const { organizationId, roleId, at } = command.data;
      if (!state.organizationIds.includes(organizationId)) throw new DomainError('membership.not_found', 'This account does not belong to that organization: add it as a member first');
      // switching on what is on changes nothing (a double click, two consoles)
      if ((state.rolesByOrganization[organizationId] ?? []).includes(roleId)) return [];
      return [{ type: 'RoleGrantedToAccount', data: { accountId: state.id, organizationId, roleId, at } }];
    }
    case 'RevokeRole': {
      if (state.status !== 'created') throw notFound();
      const { organizationId, roleId, at } = command.data;
      if (!(state.rolesByOrganization[organizationId] ?? []).includes(roleId)) return [];
      return [{ type: 'RoleRevokedFromAccount', data: { accountId: state.id, organizationId, roleId, at } }];
    }
    case 'RecordFailedSignIn': {
      if (state.status !== 'created') throw notFound();
      const { at, lockoutAttempts, lockoutDurationSeconds } = command.data;
      // attempts against a locked account are refused before they count
      if (state.lockedUntil !== null && state.lockedUntil > at) return [];
      const failed: AccountEvent = { type: 'SignInFailed', data: { accountId: state.id, at } };
      if (lockoutAttempts <= 0 || state.failedSignIns + 1 < lockoutAttempts) return [failed];
      const until = new Date(Date.parse(at) + lockoutDurationSeconds * 1000).toISOString();
      return [failed, { type: 'AccountLocked', data: { accountId: state.id, at, until } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}
