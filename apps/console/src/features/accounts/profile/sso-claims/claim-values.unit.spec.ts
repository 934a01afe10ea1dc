import { describe, expect, it } from 'vitest';
import { changedClaims, claimErrors, claimValuesOf } from './claim-values';

describe('claim values of the Single Sign-on Claims tab', () => {
  it('reads the groups as field texts', () => {
    const groups = [{ scope: 'phone', title: 'Phone', description: '', num_members: 1, members: [{ claim: 'phone_number', title: 'Phone number', description: '', scope: 'phone', value: null }] }];
    expect(claimValuesOf(groups)).toEqual({ phone_number: '' });
  });

  it('sends only the changed claims, an emptied one as null', () => {
    const loaded = { nickname: 'Ada', website: 'https://a.example', locale: '' };
    expect(changedClaims(loaded, { nickname: 'Ada ', website: '', locale: 'de-DE' })).toEqual({ website: null, locale: 'de-DE' });
    expect(changedClaims(loaded, loaded)).toEqual({});
  });

  it('places the server errors under their claims', () => {
    expect(claimErrors({ 'claims.website': ['Website must be an http or https address'], nickname: ['too long'], claims: ['bad'] }, ['website', 'nickname'])).toEqual({
      byClaim: { website: ['Website must be an http or https address'], nickname: ['too long'] },
      other: ['bad'],
    });
  });
});
