import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold, type Decider } from '../shared';
import {
  decideAccountApplicationAccess,
  emptyAccountApplicationAccess,
  evolveAccountApplicationAccess,
  isAccountApplicationCommand,
  isAccountApplicationEvent,
  type AccountApplicationAccessState,
  type AccountApplicationCommand,
  type AccountApplicationEvent,
} from './account-application-access';

const accountId = 'acc-1';
const crm = 'app-crm';
const wiki = 'app-wiki';
const at = '2026-11-22T08:00:00.000Z';
// the account decider checks the account exists and hands in its id: the same composition as here
const accountSide: Decider<AccountApplicationCommand, AccountApplicationEvent, AccountApplicationAccessState> = {
  initialState: emptyAccountApplicationAccess,
  evolve: evolveAccountApplicationAccess,
  decide: (command, state) => decideAccountApplicationAccess(command, state, accountId),
};
const given = givenFor(accountSide);

const grant = (applicationId: string, roleId: string): AccountApplicationCommand => ({ type: 'GrantApplicationRole', data: { applicationId, roleId, at } });
const revoke = (applicationId: string, roleId: string): AccountApplicationCommand => ({ type: 'RevokeApplicationRole', data: { applicationId, roleId, at } });
const granted = (applicationId: string, roleId: string): AccountApplicationEvent => ({ type: 'ApplicationRoleGrantedToAccount', data: { accountId, applicationId, roleId, at } });
const revoked = (applicationId: string, roleId: string): AccountApplicationEvent => ({ type: 'ApplicationRoleRevokedFromAccount', data: { accountId, applicationId, roleId, at } });
const setClaims = (claims: Record<string, string | null>): AccountApplicationCommand => ({ type: 'SetAccountClaims', data: { claims, at } });
const claimsChanged = (claims: Record<string, string | null>): AccountApplicationEvent => ({ type: 'AccountClaimsChanged', data: { accountId, claims, at } });
const consent = (applicationId: string, scopes: string[]): AccountApplicationCommand => ({ type: 'GiveApplicationConsent', data: { applicationId, scopes, at } });
const consented = (applicationId: string, scopes: string[]): AccountApplicationEvent => ({ type: 'ApplicationConsentGiven', data: { accountId, applicationId, scopes, at } });

describe('application roles held by an account', () => {
  it('grants a role once, per application', () => {
    given([]).when(grant(crm, 'r1')).then([granted(crm, 'r1')]);
    given([granted(crm, 'r1')]).when(grant(crm, 'r1')).then([]);
    given([granted(crm, 'r1')]).when(grant(wiki, 'r1')).then([granted(wiki, 'r1')]);
  });

  it('revokes a held role; revoking one not held changes nothing', () => {
    given([granted(crm, 'r1')]).when(revoke(crm, 'r1')).then([revoked(crm, 'r1')]);
    given([granted(crm, 'r1'), revoked(crm, 'r1')]).when(revoke(crm, 'r1')).then([]);
    given([granted(crm, 'r1')]).when(revoke(wiki, 'r1')).then([]);
  });

  it('keeps the roles by application in granting order', () =>
    expect(fold(accountSide, [granted(crm, 'r2'), granted(crm, 'r1'), granted(wiki, 'r9'), revoked(crm, 'r2')]).rolesByApplication).toEqual({ [crm]: ['r1'], [wiki]: ['r9'] }));
});

describe('single sign-on claims of an account', () => {
  it('records only the claims that change, trimmed, with an empty field clearing one', () => {
    given([]).when(setClaims({ given_name: ' Ada ', nickname: '' })).then([claimsChanged({ given_name: 'Ada' })]);
    given([claimsChanged({ given_name: 'Ada', nickname: 'ada' })]).when(setClaims({ given_name: 'Ada', nickname: '  ' })).then([claimsChanged({ nickname: null })]);
    given([claimsChanged({ given_name: 'Ada' })]).when(setClaims({ given_name: 'Ada', nickname: null })).then([]);
    expect(fold(accountSide, [claimsChanged({ given_name: 'Ada', nickname: 'ada' }), claimsChanged({ nickname: null })]).claims).toEqual({ given_name: 'Ada' });
  });

  it('refuses a value over the counter of 255 and a name that is no claim name, under the claim', () => {
    given([]).when(setClaims({ address: 'x'.repeat(256) })).thenThrows('account.claim_invalid', 'address');
    given([]).when(setClaims({ address: 'ä'.repeat(255) })).then([claimsChanged({ address: 'ä'.repeat(255) })]);
    given([]).when(setClaims({ 'Given Name': 'Ada' })).thenThrows('account.claim_invalid', 'Given Name');
  });
});

describe('consent per account and application', () => {
  it('remembers consented scopes, recording only new ones', () => {
    given([]).when(consent(crm, ['openid', 'profile', 'profile'])).then([consented(crm, ['openid', 'profile'])]);
    given([consented(crm, ['openid', 'profile'])]).when(consent(crm, ['openid', 'invoices:read'])).then([consented(crm, ['invoices:read'])]);
    given([consented(crm, ['openid', 'profile'])]).when(consent(crm, ['profile'])).then([]);
    given([consented(crm, ['openid'])]).when(consent(wiki, ['openid'])).then([consented(wiki, ['openid'])]);
  });

  it('revokes all consent to one application, so the next sign-in asks again', () => {
    const start = [consented(crm, ['openid', 'profile']), consented(wiki, ['openid'])];
    given(start)
      .when({ type: 'RevokeApplicationConsent', data: { applicationId: crm, at } })
      .then([{ type: 'ApplicationConsentRevoked', data: { accountId, applicationId: crm, scopes: ['openid', 'profile'], at } }]);
    const after = fold(accountSide, [...start, { type: 'ApplicationConsentRevoked', data: { accountId, applicationId: crm, scopes: ['openid', 'profile'], at } }]);
    expect(after.consents).toEqual({ [wiki]: ['openid'] });
    given([]).when({ type: 'RevokeApplicationConsent', data: { applicationId: crm, at } }).then([]);
  });

  it('refuses what is not a scope token', () => given([]).when(consent(crm, ['open id'])).thenThrows('consent.scope_invalid', 'scopes'));
});

describe('composition into the account decider', () => {
  it('tells its commands and events from the account’s others', () => {
    expect(isAccountApplicationCommand(grant(crm, 'r1'))).toBe(true);
    expect(isAccountApplicationCommand({ type: 'GrantRole' })).toBe(false);
    expect(isAccountApplicationEvent(granted(crm, 'r1'))).toBe(true);
    expect(isAccountApplicationEvent({ type: 'RoleGrantedToAccount' })).toBe(false);
  });
});
