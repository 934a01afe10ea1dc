import { describe, expect, it } from 'vitest';
import { accountDecider, type AccountCreatedData, type AccountEvent } from './index';
import { DomainError, fold } from '../shared';
import type { AccountCommand } from './account-commands';

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

function given(events: AccountEvent[]) {
  const state = fold(accountDecider, events);
  return {
    when: (command: AccountCommand) => ({
      then: (expected: AccountEvent[]) => expect(accountDecider.decide(command, state)).toEqual(expected),
      thenThrows: (code: string) => {
        try {
          accountDecider.decide(command, state);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          return;
        }
        throw new Error(`expected ${code}, but the command was accepted`);
      },
    }),
  };
}

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

  it('refuses a sign-in of an account that does not exist', () =>
    given([]).when({ type: 'RecordSignIn', data: { sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } }).thenThrows('account.not_found'));

  it('folds the last sign-in into state', () => {
    const state = fold(accountDecider, [
      { type: 'AccountCreated', data: alice },
      { type: 'AccountSignedIn', data: { accountId: alice.accountId, sessionId: 's1', at: '2026-11-22T09:00:00.000Z' } },
    ]);
    expect(state).toMatchObject({ status: 'created', lastSignInAt: '2026-11-22T09:00:00.000Z' });
  });
});
