import { describe, it } from 'vitest';
import { accessTokenDecider, type AccessTokenCommand, type AccessTokenEvent, type AccessTokenIssuedData } from './access-token';
import { givenFor } from '../../test/given';

const tokenId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000010';
const accountId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000001';
const issuedData: AccessTokenIssuedData = {
  tokenId,
  accountId,
  title: 'Payroll export',
  permissions: ['accounts:read'],
  restrictions: ['10.0.0.0/8'],
  expiresAt: '2027-01-01T00:00:00.000Z',
  tokenHash: 'a'.repeat(64),
  displayPrefix: 'rc_AbCdEfGh',
  issuedAt: '2026-11-22T08:00:00.000Z',
};
const issued: AccessTokenEvent = { type: 'AccessTokenIssued', data: issuedData };
const issue = (changes: Partial<AccessTokenIssuedData>): AccessTokenCommand => ({ type: 'IssueAccessToken', data: { ...issuedData, ...changes } });
const update = (changes: Partial<AccessTokenIssuedData>): AccessTokenCommand => {
  const { title, permissions, restrictions, expiresAt } = { ...issuedData, ...changes };
  return { type: 'UpdateAccessToken', data: { tokenId, title, permissions, restrictions, expiresAt, updatedAt: '2026-11-23T09:00:00.000Z' } };
};
const revoke: AccessTokenCommand = { type: 'RevokeAccessToken', data: { revokedAt: '2026-11-24T10:00:00.000Z' } };

const given = givenFor(accessTokenDecider);

describe('access token decider', () => {
  it('issues a token with its grant and only the hash of its secret', () => given([]).when(issue({})).then([issued]));

  it('trims the title and drops repeated permissions and restrictions', () =>
    given([])
      .when(issue({ title: '  Payroll export ', permissions: ['accounts:read', 'accounts:read'], restrictions: ['10.0.0.0/8', '10.0.0.0/8'] }))
      .then([issued]));

  it('refuses an empty title', () => given([]).when(issue({ title: '   ' })).thenThrows('token.title_invalid', 'title'));

  it('refuses a title over 255 characters', () => given([]).when(issue({ title: 'x'.repeat(256) })).thenThrows('token.title_invalid', 'title'));

  it('refuses a token without permissions', () => given([]).when(issue({ permissions: [] })).thenThrows('token.permissions_required', 'permissions'));

  it('refuses an expiry that is not in the future', () => given([]).when(issue({ expiresAt: issuedData.issuedAt })).thenThrows('token.expiry_past', 'expires_at'));

  it('issues a token that never expires', () => given([]).when(issue({ expiresAt: null })).then([{ type: 'AccessTokenIssued', data: { ...issuedData, expiresAt: null } }]));

  it('refuses to issue the same token twice', () => given([issued]).when(issue({})).thenThrows('token.exists'));

  it('updates the grant', () =>
    given([issued])
      .when(update({ title: 'Payroll', permissions: ['accounts:read', 'tokens:read'], restrictions: [], expiresAt: null }))
      .then([{ type: 'AccessTokenUpdated', data: { tokenId, title: 'Payroll', permissions: ['accounts:read', 'tokens:read'], restrictions: [], expiresAt: null, updatedAt: '2026-11-23T09:00:00.000Z' } }]));

  it('records nothing when an update changes nothing (order of lists ignored)', () =>
    given([{ type: 'AccessTokenIssued', data: { ...issuedData, permissions: ['accounts:read', 'tokens:read'] } }]).when(update({ permissions: ['tokens:read', 'accounts:read'] })).then([]));

  it('refuses an update that would put the expiry in the past', () => given([issued]).when(update({ expiresAt: '2026-11-01T00:00:00.000Z' })).thenThrows('token.expiry_past', 'expires_at'));

  it('revokes a token', () => given([issued]).when(revoke).then([{ type: 'AccessTokenRevoked', data: { tokenId, accountId, title: 'Payroll export', revokedAt: '2026-11-24T10:00:00.000Z' } }]));

  it('treats a revoked token as gone: no update, no second revoke', () => {
    const revoked: AccessTokenEvent = { type: 'AccessTokenRevoked', data: { tokenId, accountId, title: 'Payroll export', revokedAt: '2026-11-24T10:00:00.000Z' } };
    given([issued, revoked]).when(update({ title: 'again' })).thenThrows('token.not_found');
    given([issued, revoked]).when(revoke).thenThrows('token.not_found');
  });

  it('refuses to change a token that was never issued', () => given([]).when(revoke).thenThrows('token.not_found'));
});
