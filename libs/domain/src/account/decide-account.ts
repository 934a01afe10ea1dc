import { DomainError } from '../shared';
import type { AccountCommand } from './account-commands';
import type { AccountEvent } from './account-events';
import { accountProfileViolations, throwProfileViolations } from './account-profile-rules';
import type { AccountState } from './account-state';

const notFound = () => new DomainError('account.not_found', 'Account not found');

/** The primary e-mail's entry in the list follows a change of the primary e-mail. */
const followPrimary = (entries: { value: string; type: string }[], previous: string, next: string) =>
  entries.map((entry) => (entry.value.toLowerCase() === previous.toLowerCase() ? { ...entry, value: next } : entry));

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'CreateAccount':
      if (state.status !== 'none') throw new DomainError('account.exists', 'This account already exists');
      return [{ type: 'AccountCreated', data: { ...command.data } }];
    case 'RecordSignIn':
      if (state.status !== 'created') throw notFound();
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
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}
