import { describe, expect, it } from 'vitest';
import { ACCOUNT_EVENT_TYPES, accountDecider, type AccountCreatedData, type AccountEvent } from './index';
import { type DomainError, fold } from '../shared';
import type { AccountCommand, UpdateAccountProfile } from './account-commands';
import { givenFor } from '../../test/given';

const alice: AccountCreatedData = {
  accountId: '5f0c1c1e-3a51-4a53-9d8a-0d6c1e8d0001',
  username: 'alice',
  email: 'alice@example.com',
  firstName: 'Alice',
  lastName: 'Liddell',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  statusId: 1,
  policyId: null,
  expiresAt: null,
  organizationId: null,
  sendActivation: false,
  isProtected: false,
  createdAt: '2026-11-22T08:00:00.000Z',
};

const given = givenFor(accountDecider);

describe('account decider', () => {
  it('creates an account', () =>
    given([])
      .when({ type: 'CreateAccount', data: alice })
      .then([{ type: 'AccountCreated', data: alice }]));

  it('refuses to create the same account twice', () =>
    given([{ type: 'AccountCreated', data: alice }]).when({ type: 'CreateAccount', data: alice }).thenThrows('account.exists'));

  it('records a sign-in of an existing account', () =>
    given([{ type: 'AccountCreated', data: alice }])
      .when({ type: 'RecordSignIn', data: { sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } })
      .then([{ type: 'AccountSignedIn', data: { accountId: alice.accountId, sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } }]));

  it('refuses a sign-in whose password was checked against a hash that has changed since', () => {
    const changed: AccountEvent = { type: 'PasswordChanged', data: { accountId: alice.accountId, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$bmV3$bmV3', changedAt: '2026-11-22T08:30:00.000Z' } };
    given([{ type: 'AccountCreated', data: alice }, changed])
      .when({ type: 'RecordSignIn', data: { sessionId: 's1', at: '2026-11-22T09:00:00.000Z', passwordHash: alice.passwordHash } })
      .thenThrows('account.password_changed');
    given([{ type: 'AccountCreated', data: alice }, changed])
      .when({ type: 'RecordSignIn', data: { sessionId: 's1', at: '2026-11-22T09:00:00.000Z', passwordHash: changed.data.passwordHash } })
      .then([{ type: 'AccountSignedIn', data: { accountId: alice.accountId, sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } }]);
  });

  it('refuses a sign-in of an account that does not exist', () =>
    given([]).when({ type: 'RecordSignIn', data: { sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } }).thenThrows('account.not_found'));

  it('folds the last sign-in into state', () => {
    const state = fold(accountDecider, [
      { type: 'AccountCreated', data: alice },
      { type: 'AccountSignedIn', data: { accountId: alice.accountId, sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } },
    ]);
    expect(state).toMatchObject({ status: 'created', lastSignInAt: '2026-11-22T09:00:00.000Z' });
  });

  describe('profile', () => {
    const created: AccountEvent = { type: 'AccountCreated', data: alice };
    const profile = (changes: Partial<UpdateAccountProfile['data']['additional']> & { firstName?: string; lastName?: string; email?: string } = {}): UpdateAccountProfile => {
      const { firstName = 'Alice', lastName = 'Liddell', email = 'alice@example.com', ...additional } = changes;
      return {
        type: 'UpdateAccountProfile',
        data: {
          firstName,
          lastName,
          email,
          additional: { middleName: null, nickname: null, birthDate: null, gender: null, timeZone: null, locale: null, website: null, profile: null, address: null, ...additional },
          today: '2026-11-22',
          updatedAt: '2026-11-22T10:00:00.000Z',
        },
      };
    };

    it('updates the profile, keeping the contact lists it was not given', () =>
      given([created])
        .when(profile({ firstName: ' Alicia ', birthDate: '1990-02-28', gender: 'female', timeZone: 'Europe/Berlin', locale: 'de', website: 'https://alice.example.com' }))
        .then([
          {
            type: 'AccountProfileUpdated',
            data: {
              accountId: alice.accountId,
              firstName: 'Alicia',
              lastName: 'Liddell',
              email: 'alice@example.com',
              additional: {
                middleName: null,
                nickname: null,
                birthDate: '1990-02-28',
                gender: 'female',
                timeZone: 'Europe/Berlin',
                locale: 'de',
                website: 'https://alice.example.com',
                profile: null,
                address: null,
                telephone: [],
                emails: [{ value: 'alice@example.com', type: 'work' }],
              },
              updatedAt: '2026-11-22T10:00:00.000Z',
            },
          },
        ]));

    it('moves the primary entry of the e-mail list along with a changed e-mail', () => {
      const [event] = accountDecider.decide(profile({ email: 'alice@wonderland.example' }), fold(accountDecider, [created]));
      expect(event).toMatchObject({ type: 'AccountProfileUpdated', data: { email: 'alice@wonderland.example', additional: { emails: [{ value: 'alice@wonderland.example', type: 'work' }] } } });
    });

    it('takes the contact lists it is given', () => {
      const telephone = [{ value: '+49 30 1234', type: 'mobile' }];
      const [event] = accountDecider.decide(profile({ telephone }), fold(accountDecider, [created]));
      expect(event).toMatchObject({ data: { additional: { telephone } } });
    });

    const cases: Array<[string, Parameters<typeof profile>[0], string, string]> = [
      ['an empty first name', { firstName: '  ' }, 'first_name', 'account.profile_required'],
      ['an empty last name', { lastName: '' }, 'last_name', 'account.profile_required'],
      ['a first name of 256 characters', { firstName: 'x'.repeat(256) }, 'first_name', 'account.profile_too_long'],
      ['a middle name of 256 characters', { middleName: 'x'.repeat(256) }, 'middle_name', 'account.profile_too_long'],
      ['a profile of 256 characters', { profile: 'x'.repeat(256) }, 'profile', 'account.profile_too_long'],
      ['an empty e-mail', { email: '' }, 'email', 'account.profile_required'],
      ['a malformed e-mail', { email: 'alice-at-example' }, 'email', 'account.email_invalid'],
      ['a birth date that is no day', { birthDate: '2023-02-29' }, 'birth_date', 'account.birth_date_invalid'],
      ['a birth date in another format', { birthDate: '28.02.1990' }, 'birth_date', 'account.birth_date_invalid'],
      ['a birth date in the future', { birthDate: '2026-11-23' }, 'birth_date', 'account.birth_date_future'],
      ['an unknown gender', { gender: 'other' as 'male' }, 'gender', 'account.gender_invalid'],
      ['an unknown locale', { locale: 'fr' as 'en' }, 'locale', 'account.locale_invalid'],
      ['an empty time zone', { timeZone: ' ' }, 'time_zone', 'account.time_zone_invalid'],
      ['a website that is not http(s)', { website: 'ftp://alice.example.com' }, 'website', 'account.website_invalid'],
      ['a website of 256 characters', { website: `https://a.example.com/${'x'.repeat(240)}` }, 'website', 'account.profile_too_long'],
    ];
    for (const [label, changes, field, code] of cases) {
      it(`refuses ${label} under ${field}`, () => {
        given([created]).when(profile(changes)).thenThrows(code);
        try {
          accountDecider.decide(profile(changes), fold(accountDecider, [created]));
        } catch (error) {
          expect(Object.keys((error as DomainError).fields ?? {})).toEqual([field]);
        }
      });
    }

    it('names the rule and bound of a text too long or missing, so a console can say the number in its language', () => {
      try {
        accountDecider.decide(profile({ firstName: ' ', middleName: 'x'.repeat(256) }), fold(accountDecider, [created]));
        throw new Error('accepted');
      } catch (error) {
        expect((error as DomainError).rules).toEqual([
          { field: 'first_name', message: 'First name is required', code: 'required', params: { label: 'First name' } },
          { field: 'middle_name', message: 'Middle name may be at most 255 characters', code: 'too_long', params: { label: 'Middle name', max: 255 } },
        ]);
      }
    });

    it('accepts a birth date of today', () => given([created]).when(profile({ birthDate: '2026-11-22' })).then([expect.objectContaining({ type: 'AccountProfileUpdated' })]));

    it('names every broken field at once', () => {
      try {
        accountDecider.decide(profile({ firstName: '', gender: 'x' as 'male', locale: 'x' as 'en' }), fold(accountDecider, [created]));
        throw new Error('accepted');
      } catch (error) {
        expect(Object.keys((error as DomainError).fields ?? {}).sort()).toEqual(['first_name', 'gender', 'locale']);
      }
    });

    it('refuses to update an account that does not exist', () => given([]).when(profile()).thenThrows('account.not_found'));
  });

  describe('profile picture', () => {
    it('changes the picture', () =>
      given([{ type: 'AccountCreated', data: alice }])
        .when({ type: 'ChangeProfilePicture', data: { picture: 'data:image/png;base64,iVBORw0KGgo=', changedAt: 't' } })
        .then([{ type: 'AccountProfilePictureChanged', data: { accountId: alice.accountId, picture: 'data:image/png;base64,iVBORw0KGgo=', changedAt: 't' } }]));

    it('removes the picture', () =>
      given([{ type: 'AccountCreated', data: alice }])
        .when({ type: 'ChangeProfilePicture', data: { picture: null, changedAt: 't' } })
        .then([{ type: 'AccountProfilePictureChanged', data: { accountId: alice.accountId, picture: null, changedAt: 't' } }]));

    it('refuses a picture for an account that does not exist', () => given([]).when({ type: 'ChangeProfilePicture', data: { picture: null, changedAt: 't' } }).thenThrows('account.not_found'));
  });

  describe('deletion', () => {
    const deleted: AccountEvent = { type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: 't' } };

    it('deletes an account', () =>
      given([{ type: 'AccountCreated', data: alice }])
        .when({ type: 'DeleteAccount', data: { deletedAt: 't' } })
        .then([deleted]));

    it('refuses to delete a protected account', () =>
      given([{ type: 'AccountCreated', data: { ...alice, isProtected: true } }]).when({ type: 'DeleteAccount', data: { deletedAt: 't' } }).thenThrows('account.protected'));

    it('refuses to delete twice', () => given([{ type: 'AccountCreated', data: alice }, deleted]).when({ type: 'DeleteAccount', data: { deletedAt: 't' } }).thenThrows('account.not_found'));

    it('refuses a sign-in, a profile change and a re-creation of a deleted account', () => {
      const history: AccountEvent[] = [{ type: 'AccountCreated', data: alice }, deleted];
      given(history).when({ type: 'RecordSignIn', data: { sessionId: 's', at: 't' } }).thenThrows('account.not_found');
      given(history).when({ type: 'ChangeProfilePicture', data: { picture: null, changedAt: 't' } }).thenThrows('account.not_found');
      given(history).when({ type: 'CreateAccount', data: alice }).thenThrows('account.exists');
    });
  });

  describe('erasure of personal data (docs/adr/0015)', () => {
    const erase: AccountCommand = { type: 'EraseAccountPersonalData', data: { erasedAt: 'e' } };
    const erased: AccountEvent = { type: 'AccountPersonalDataErased', data: { accountId: alice.accountId, erasedAt: 'e' } };

    it('deletes a live account and erases it in one decision', () =>
      given([{ type: 'AccountCreated', data: alice }])
        .when(erase)
        .then([{ type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: 'e' } }, erased]));

    it('erases an account deleted before', () =>
      given([{ type: 'AccountCreated', data: alice }, { type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: 't' } }])
        .when(erase)
        .then([erased]));

    it('refuses to erase twice', () => given([{ type: 'AccountCreated', data: alice }, { type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: 't' } }, erased]).when(erase).thenThrows('account.erased'));

    it('refuses the protected account and an unknown one', () => {
      given([{ type: 'AccountCreated', data: { ...alice, isProtected: true } }]).when(erase).thenThrows('account.protected');
      given([]).when(erase).thenThrows('account.not_found');
    });

    it('refuses every change after the erasure, as after a deletion', () =>
      given([{ type: 'AccountCreated', data: alice }, { type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: 't' } }, erased])
        .when({ type: 'ChangeProfilePicture', data: { picture: null, changedAt: 't' } })
        .thenThrows('account.not_found'));

  });

  describe('auth info, passwords and lockout', () => {
    const created: AccountEvent = { type: 'AccountCreated', data: alice };
    const id = alice.accountId;
    const T0 = '2026-11-22T10:00:00.000Z';
    const failed = (at = T0): AccountEvent => ({ type: 'SignInFailed', data: { accountId: id, at } });
    const recordFailure = (at = T0): AccountCommand => ({ type: 'RecordFailedSignIn', data: { at, lockoutAttempts: 3, lockoutDurationSeconds: 3600 } });

    it('changes status and policy, only what differs', () => {
      given([created])
        .when({ type: 'ChangeAccountAuth', data: { statusId: 2, policyId: 'p1', changedAt: T0 } })
        .then([
          { type: 'AccountStatusChanged', data: { accountId: id, statusId: 2, changedAt: T0 } },
          { type: 'AccountPolicyChanged', data: { accountId: id, policyId: 'p1', changedAt: T0 } },
        ]);
      given([created]).when({ type: 'ChangeAccountAuth', data: { statusId: 1, policyId: 'p1', changedAt: T0 } }).then([{ type: 'AccountPolicyChanged', data: { accountId: id, policyId: 'p1', changedAt: T0 } }]);
      given([created, { type: 'AccountPolicyChanged', data: { accountId: id, policyId: 'p1', changedAt: T0 } }])
        .when({ type: 'ChangeAccountAuth', data: { statusId: 1, policyId: null, changedAt: T0 } })
        .then([{ type: 'AccountPolicyChanged', data: { accountId: id, policyId: null, changedAt: T0 } }]);
      given([created]).when({ type: 'ChangeAccountAuth', data: { statusId: 1, policyId: null, changedAt: T0 } }).then([]);
    });

    it('refuses an unknown status and a missing account', () => {
      given([created]).when({ type: 'ChangeAccountAuth', data: { statusId: 9, policyId: null, changedAt: T0 } }).thenThrows('account.status_invalid');
      given([]).when({ type: 'ChangeAccountAuth', data: { statusId: 1, policyId: null, changedAt: T0 } }).thenThrows('account.not_found');
      given([]).when({ type: 'RequirePasswordChange', data: { at: T0 } }).thenThrows('account.not_found');
    });

    it('requires a password change (status 3)', () => {
      given([created]).when({ type: 'RequirePasswordChange', data: { at: T0 } }).then([{ type: 'PasswordChangeRequired', data: { accountId: id, at: T0 } }]);
      expect(fold(accountDecider, [created, { type: 'PasswordChangeRequired', data: { accountId: id, at: T0 } }])).toMatchObject({ statusId: 3 });
    });

    it('sets a password, which clears status 3 and joins the history', () => {
      given([created]).when({ type: 'SetPassword', data: { passwordHash: 'h2', reusesRecentPassword: false, changedAt: T0 } }).then([{ type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h2', changedAt: T0 } }]);
      const state = fold(accountDecider, [created, { type: 'PasswordChangeRequired', data: { accountId: id, at: T0 } }, { type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h2', changedAt: T0 } }]);
      expect(state).toMatchObject({ statusId: 1, passwordHash: 'h2', passwordHistory: ['h2', alice.passwordHash], passwordChangedAt: T0 });
    });

    it('refuses a password the caller found among the recent ones', () =>
      given([created]).when({ type: 'SetPassword', data: { passwordHash: 'h2', reusesRecentPassword: true, changedAt: T0 } }).thenThrows('password.reused'));

    it('keeps the last 24 hashes', () => {
      const changes: AccountEvent[] = Array.from({ length: 30 }, (_, i) => ({ type: 'PasswordChanged', data: { accountId: id, passwordHash: `h${i}`, changedAt: T0 } }));
      const state = fold(accountDecider, [created, ...changes]);
      expect(state.status === 'created' && state.passwordHistory).toEqual(Array.from({ length: 24 }, (_, i) => `h${29 - i}`));
    });

    it('counts failed sign-ins and locks at the limit', () => {
      given([created]).when(recordFailure()).then([failed()]);
      given([created, failed(), failed()])
        .when(recordFailure())
        .then([failed(), { type: 'AccountLocked', data: { accountId: id, at: T0, until: '2026-11-22T11:00:00.000Z' } }]);
    });

    it('counts nothing while locked, and starts again after the lock', () => {
      const locked: AccountEvent = { type: 'AccountLocked', data: { accountId: id, at: T0, until: '2026-11-22T11:00:00.000Z' } };
      given([created, failed(), failed(), failed(), locked]).when(recordFailure('2026-11-22T10:30:00.000Z')).then([]);
      given([created, failed(), failed(), failed(), locked]).when(recordFailure('2026-11-22T11:00:01.000Z')).then([failed('2026-11-22T11:00:01.000Z')]);
    });

    it('refuses a sign-in while locked', () => {
      const locked: AccountEvent = { type: 'AccountLocked', data: { accountId: id, at: T0, until: '2026-11-22T11:00:00.000Z' } };
      given([created, locked]).when({ type: 'RecordSignIn', data: { sessionId: 's', at: '2026-11-22T10:59:59.000Z' } }).thenThrows('account.locked');
      given([created, locked]).when({ type: 'RecordSignIn', data: { sessionId: 's', at: '2026-11-22T11:00:00.000Z' } }).then([expect.objectContaining({ type: 'AccountSignedIn' })]);
    });

    it("refuses the owner's own change while locked or once its checked password has changed; an administrator's set is not held", () => {
      const locked: AccountEvent = { type: 'AccountLocked', data: { accountId: id, at: T0, until: '2026-11-22T11:00:00.000Z' } };
      const own = (at: string, checkedPasswordHash: string | null): AccountCommand => ({ type: 'SetPassword', data: { passwordHash: 'h2', reusesRecentPassword: false, changedAt: at, checkedPasswordHash } });
      given([created, locked]).when(own('2026-11-22T10:59:59.000Z', alice.passwordHash)).thenThrows('account.locked');
      given([created, locked]).when(own('2026-11-22T11:00:00.000Z', alice.passwordHash)).then([expect.objectContaining({ type: 'PasswordChanged' })]);
      given([created]).when(own(T0, 'another hash')).thenThrows('account.password_changed');
      given([created, locked]).when({ type: 'SetPassword', data: { passwordHash: 'h2', reusesRecentPassword: false, changedAt: T0 } }).then([expect.objectContaining({ type: 'PasswordChanged' })]);
    });

    it('a successful sign-in resets the count', () => {
      const signedIn: AccountEvent = { type: 'AccountSignedIn', data: { accountId: id, sessionId: 's', at: T0 } };
      given([created, failed(), failed(), signedIn]).when(recordFailure()).then([failed()]);
    });

    it('never locks without a lockout rule', () =>
      given([created, failed(), failed(), failed()]).when({ type: 'RecordFailedSignIn', data: { at: T0, lockoutAttempts: 0, lockoutDurationSeconds: 3600 } }).then([failed()]));
  });

  describe('activation and unlock', () => {
    const id = alice.accountId;
    const T0 = '2026-11-22T10:00:00.000Z';
    const LATER = '2026-11-25T10:00:00.000Z';
    const awaiting: AccountEvent = { type: 'AccountCreated', data: { ...alice, passwordHash: null, statusId: 4, sendActivation: true } };
    const issued = (tokenHash = 'hash-1', expiresAt = LATER): AccountEvent => ({ type: 'ActivationIssued', data: { accountId: id, tokenHash, expiresAt, issuedAt: T0 } });
    const activate = (tokenHash = 'hash-1', at = T0, reusesRecentPassword = false): AccountCommand => ({ type: 'ActivateAccount', data: { tokenHash, passwordHash: 'h1', reusesRecentPassword, at } });

    it('issues an activation link only while the account awaits activation', () => {
      given([awaiting]).when({ type: 'IssueActivation', data: { tokenHash: 'hash-1', expiresAt: LATER, issuedAt: T0 } }).then([issued()]);
      given([{ type: 'AccountCreated', data: alice }]).when({ type: 'IssueActivation', data: { tokenHash: 'hash-1', expiresAt: LATER, issuedAt: T0 } }).thenThrows('activation.not_awaiting');
      given([]).when({ type: 'IssueActivation', data: { tokenHash: 'hash-1', expiresAt: LATER, issuedAt: T0 } }).thenThrows('account.not_found');
    });

    it('activates with the current link: the password is set, the status becomes 1 and the link is used', () => {
      given([awaiting, issued()])
        .when(activate())
        .then([
          { type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h1', changedAt: T0 } },
          { type: 'AccountStatusChanged', data: { accountId: id, statusId: 1, changedAt: T0 } },
          { type: 'AccountActivated', data: { accountId: id, tokenHash: 'hash-1', at: T0 } },
        ]);
      const state = fold(accountDecider, [awaiting, issued(), ...accountDecider.decide(activate(), fold(accountDecider, [awaiting, issued()]))]);
      expect(state).toMatchObject({ statusId: 1, passwordHash: 'h1', activation: null });
    });

    it('refuses a used, replaced, expired or unknown link alike', () => {
      const activated: AccountEvent[] = [
        { type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h1', changedAt: T0 } },
        { type: 'AccountStatusChanged', data: { accountId: id, statusId: 1, changedAt: T0 } },
        { type: 'AccountActivated', data: { accountId: id, tokenHash: 'hash-1', at: T0 } },
      ];
      given([awaiting, issued(), ...activated]).when(activate()).thenThrows('activation.invalid');
      given([awaiting, issued('hash-1'), issued('hash-2')]).when(activate('hash-1')).thenThrows('activation.invalid');
      given([awaiting, issued('hash-1'), issued('hash-2')]).when(activate('hash-2')).then([expect.objectContaining({ type: 'PasswordChanged' }), expect.anything(), expect.anything()]);
      given([awaiting, issued()]).when(activate('hash-1', LATER)).thenThrows('activation.invalid');
      given([awaiting]).when(activate()).thenThrows('activation.invalid');
      given([]).when(activate()).thenThrows('activation.invalid');
    });

    it('a link dies when the status leaves 4, even if an administrator sets 4 again', () => {
      const toStatus = (statusId: number): AccountEvent => ({ type: 'AccountStatusChanged', data: { accountId: id, statusId, changedAt: T0 } });
      given([awaiting, issued(), toStatus(2), toStatus(4)]).when(activate()).thenThrows('activation.invalid');
    });

    it('refuses a password the policy history forbids', () => given([awaiting, issued()]).when(activate('hash-1', T0, true)).thenThrows('password.reused'));

    it('a password set by an administrator on an account awaiting activation activates it, and kills the link', () => {
      const set: AccountCommand = { type: 'SetPassword', data: { passwordHash: 'h2', reusesRecentPassword: false, changedAt: T0 } };
      given([awaiting, issued()])
        .when(set)
        .then([
          { type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h2', changedAt: T0 } },
          { type: 'AccountStatusChanged', data: { accountId: id, statusId: 1, changedAt: T0 } },
        ]);
      const state = fold(accountDecider, [awaiting, issued(), ...accountDecider.decide(set, fold(accountDecider, [awaiting, issued()]))]);
      expect(state).toMatchObject({ statusId: 1, activation: null });
      // other statuses keep theirs (2 stays disabled)
      given([{ type: 'AccountCreated', data: { ...alice, statusId: 2 } }]).when(set).then([{ type: 'PasswordChanged', data: { accountId: id, passwordHash: 'h2', changedAt: T0 } }]);
    });

    it('unlocks a locked account and forgets its failures', () => {
      const locked: AccountEvent = { type: 'AccountLocked', data: { accountId: id, at: T0, until: '2026-11-22T11:00:00.000Z' } };
      const failed: AccountEvent = { type: 'SignInFailed', data: { accountId: id, at: T0 } };
      const unlock: AccountCommand = { type: 'UnlockAccount', data: { at: '2026-11-22T10:30:00.000Z' } };
      given([{ type: 'AccountCreated', data: alice }, locked]).when(unlock).then([{ type: 'AccountUnlocked', data: { accountId: id, at: '2026-11-22T10:30:00.000Z' } }]);
      given([{ type: 'AccountCreated', data: alice }, failed]).when(unlock).then([expect.objectContaining({ type: 'AccountUnlocked' })]);
      given([{ type: 'AccountCreated', data: alice }]).when(unlock).then([]);
      const unlocked = fold(accountDecider, [{ type: 'AccountCreated', data: alice }, failed, locked, { type: 'AccountUnlocked', data: { accountId: id, at: T0 } }]);
      expect(unlocked).toMatchObject({ lockedUntil: null, failedSignIns: 0 });
      given([{ type: 'AccountCreated', data: alice }, locked, { type: 'AccountUnlocked', data: { accountId: id, at: T0 } }])
        .when({ type: 'RecordSignIn', data: { sessionId: 's', at: '2026-11-22T10:30:00.000Z' } })
        .then([expect.objectContaining({ type: 'AccountSignedIn' })]);
      given([]).when(unlock).thenThrows('account.not_found');
    });
  });
});

describe('account membership', () => {
  const sales = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000a1';
  const support = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000a2';
  const at = '2026-11-23T09:00:00.000Z';
  const createdIn = (organizationId: string | null): AccountEvent => ({ type: 'AccountCreated', data: { ...alice, organizationId } });
  const joined = (organizationId: string): AccountEvent => ({ type: 'AccountJoinedOrganization', data: { accountId: alice.accountId, organizationId, at } });

  it('joins an organization once', () => {
    given([createdIn(null)]).when({ type: 'JoinOrganization', data: { organizationId: sales, at } }).then([joined(sales)]);
    given([createdIn(null), joined(sales)]).when({ type: 'JoinOrganization', data: { organizationId: sales, at } }).thenThrows('membership.exists', 'organization_id');
  });

  it('counts the organization it was created in as a membership', () =>
    given([createdIn(sales)]).when({ type: 'JoinOrganization', data: { organizationId: sales, at } }).thenThrows('membership.exists'));

  it('leaves only an organization it belongs to, and may join again afterwards', () => {
    given([createdIn(sales), joined(support)])
      .when({ type: 'LeaveOrganization', data: { organizationId: sales, at } })
      .then([{ type: 'AccountLeftOrganization', data: { accountId: alice.accountId, organizationId: sales, at } }]);
    given([createdIn(null)]).when({ type: 'LeaveOrganization', data: { organizationId: sales, at } }).thenThrows('membership.not_found');
    given([createdIn(sales), { type: 'AccountLeftOrganization', data: { accountId: alice.accountId, organizationId: sales, at } }])
      .when({ type: 'JoinOrganization', data: { organizationId: sales, at } })
      .then([joined(sales)]);
  });
});

describe('account roles', () => {
  const sales = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000a1';
  const editor = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000b1';
  const at = '2026-11-23T09:00:00.000Z';
  const member: AccountEvent[] = [{ type: 'AccountCreated', data: { ...alice, organizationId: sales } }];
  const granted: AccountEvent = { type: 'RoleGrantedToAccount', data: { accountId: alice.accountId, organizationId: sales, roleId: editor, at } };
  const grant = { type: 'GrantRole', data: { organizationId: sales, roleId: editor, at } } as const;
  const revoke = { type: 'RevokeRole', data: { organizationId: sales, roleId: editor, at } } as const;

  it('grants a role of an organization the account belongs to, once', () => {
    given(member).when(grant).then([granted]);
    given([...member, granted]).when(grant).then([]);
    given([{ type: 'AccountCreated', data: alice }]).when(grant).thenThrows('membership.not_found');
  });

  it('revokes a held role, and ignores one not held', () => {
    given([...member, granted]).when(revoke).then([{ type: 'RoleRevokedFromAccount', data: { accountId: alice.accountId, organizationId: sales, roleId: editor, at } }]);
    given(member).when(revoke).then([]);
  });

  it('loses its roles there when it leaves the organization', () =>
    given([...member, granted, { type: 'AccountLeftOrganization', data: { accountId: alice.accountId, organizationId: sales, at } }, { type: 'AccountJoinedOrganization', data: { accountId: alice.accountId, organizationId: sales, at } }])
      .when(grant)
      .then([granted]));
});

describe('account application access (delegated to application/account-application-access.ts)', () => {
  const crm = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000c1';
  const viewer = '0b9a3c64-1f2e-4c1d-9a51-7d1f000000d1';
  const at = '2026-11-23T09:00:00.000Z';
  const created: AccountEvent = { type: 'AccountCreated', data: alice };
  const deleted: AccountEvent = { type: 'AccountDeleted', data: { accountId: alice.accountId, deletedAt: at } };
  const grant: AccountCommand = { type: 'GrantApplicationRole', data: { applicationId: crm, roleId: viewer, at } };
  const granted: AccountEvent = { type: 'ApplicationRoleGrantedToAccount', data: { accountId: alice.accountId, applicationId: crm, roleId: viewer, at } };

  it('grants an application role with the account id, once, and revokes it', () => {
    given([created]).when(grant).then([granted]);
    given([created, granted]).when(grant).then([]);
    given([created, granted])
      .when({ type: 'RevokeApplicationRole', data: { applicationId: crm, roleId: viewer, at } })
      .then([{ type: 'ApplicationRoleRevokedFromAccount', data: { accountId: alice.accountId, applicationId: crm, roleId: viewer, at } }]);
  });

  it('refuses every application command for an account that does not exist or was deleted', () => {
    const commands: AccountCommand[] = [
      grant,
      { type: 'RevokeApplicationRole', data: { applicationId: crm, roleId: viewer, at } },
      { type: 'SetAccountClaims', data: { claims: { nickname: 'Al' }, at } },
      { type: 'GiveApplicationConsent', data: { applicationId: crm, scopes: ['openid'], at } },
      { type: 'RevokeApplicationConsent', data: { applicationId: crm, at } },
    ];
    for (const command of commands) {
      given([]).when(command).thenThrows('account.not_found');
      given([created, deleted]).when(command).thenThrows('account.not_found');
    }
  });

  it('keeps claims and consent in the account state, beside its organization roles', () => {
    const state = fold(accountDecider, [
      created,
      granted,
      { type: 'AccountClaimsChanged', data: { accountId: alice.accountId, claims: { nickname: 'Al' }, at } },
      { type: 'ApplicationConsentGiven', data: { accountId: alice.accountId, applicationId: crm, scopes: ['openid', 'roles'], at } },
    ]);
    expect(state).toMatchObject({
      status: 'created',
      rolesByOrganization: {},
      applications: { rolesByApplication: { [crm]: [viewer] }, claims: { nickname: 'Al' }, consents: { [crm]: ['openid', 'roles'] } },
    });
    given([created, { type: 'AccountClaimsChanged', data: { accountId: alice.accountId, claims: { nickname: 'Al' }, at } }])
      .when({ type: 'SetAccountClaims', data: { claims: { nickname: 'Al', website: 'https://example.com' }, at } })
      .then([{ type: 'AccountClaimsChanged', data: { accountId: alice.accountId, claims: { website: 'https://example.com' }, at } }]);
  });

  it('lists the application events among the account events', () => {
    expect(ACCOUNT_EVENT_TYPES).toEqual(expect.arrayContaining(['ApplicationRoleGrantedToAccount', 'AccountClaimsChanged', 'ApplicationConsentRevoked']));
  });
});
