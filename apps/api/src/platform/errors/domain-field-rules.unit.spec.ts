import { FIELD_RULE_CODES, ZAttendanceQuery, ZCreateAccessTokenInput } from '@rollcall/contracts';
import {
  accessTokenDecider,
  accountProfileViolations,
  checkClientSettings,
  CLIENT_FIELD_CODES,
  decideAccountApplicationAccess,
  decideManualSlot,
  decideSlotCorrection,
  emptyAccountApplicationAccess,
  throwFieldViolations,
  throwProfileViolations,
  type AttendanceDayState,
  type ApplicationClientSettings,
} from '@rollcall/domain';
import { describe, expect, it } from 'vitest';
import { mapError } from './api-error';

/**
 * The domain's own checks name the field rule each message breaks (issue 21 item 6), so a console
 * translates every message, not only the error's first, and none answers the catch-all `invalid`.
 * Each case breaks several rules at once: the ones after the first used to be `invalid`.
 */

const rulesOf = (thrower: () => unknown) => {
  let thrown: unknown;
  try {
    thrower();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeDefined();
  return mapError(thrown).body.error.rules ?? [];
};
const codes = (rules: ReadonlyArray<{ field: string; code: string }>) => rules.map(({ field, code }) => `${field}: ${code}`);
const fieldRuleCodes = new Set<string>(FIELD_RULE_CODES);
/** every message names a field rule of the contracts (not `invalid`, not only the error's code) */
const expectNamed = (rules: ReadonlyArray<{ code: string }>) => {
  expect(rules.length).toBeGreaterThan(0);
  for (const rule of rules) {
    expect(rule.code).not.toBe('invalid');
    expect(fieldRuleCodes.has(rule.code)).toBe(true);
  }
};

const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const AT = '2026-03-29T12:00:00.000Z';
const slot = (slotId: string, arrivedAt: string, departedAt: string | null) => ({ slotId, day: arrivedAt.slice(0, 10), arrivedAt, departedAt, openDayFlagged: false, corrected: false });

describe("the domain's checks name their rule", () => {
  it('profile: gender, locale, time zone, a birth date in the future, e-mail, website', () => {
    const profile = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'not-an-address',
      additional: { middleName: null, nickname: null, birthDate: '2999-01-01', profile: null, gender: 'other', timeZone: ' ', locale: 'fr', website: 'ftp://x', address: null },
    };
    const rules = rulesOf(() => throwProfileViolations(accountProfileViolations(profile as never, '2026-03-29')));
    expectNamed(rules);
    expect(codes(rules)).toEqual(['birth_date: not_future', 'email: email', 'gender: one_of', 'time_zone: time_zone', 'locale: one_of', 'website: url']);
    expect(rules.find((rule) => rule.field === 'gender')?.params).toEqual({ label: 'Gender', values: 'male, female' });
    expect(rules.find((rule) => rule.field === 'locale')?.params).toEqual({ label: 'Locale', values: 'en, de' });
  });

  it('slot correction: the arrival in the future, then the departure too long, before the arrival, overlapping another slot', () => {
    const state: AttendanceDayState = { slots: [slot('s1', '2026-03-29T08:00:00.000Z', '2026-03-29T09:00:00.000Z'), slot('s2', '2026-03-29T10:00:00.000Z', '2026-03-29T11:00:00.000Z')], lastScan: null };
    const correct = (arrivedAt: string, departedAt: string | null, reason = 'fix') =>
      rulesOf(() => decideSlotCorrection(state, { accountId: ACCOUNT, slotId: 's1', arrivedAt, departedAt, reason, correctedBy: ACCOUNT, timeZone: 'UTC', at: AT }));

    const future = correct('2026-03-29T13:00:00.000Z', '2026-03-29T14:00:00.000Z', ' ');
    expectNamed(future);
    expect(codes(future)).toEqual(['reason: required', 'arrived_at: not_future', 'departed_at: not_future']);

    const before = correct('2026-03-29T08:00:00.000Z', '2026-03-29T07:00:00.000Z', 'x'.repeat(501));
    expectNamed(before);
    expect(before[1]).toMatchObject({ field: 'departed_at', code: 'after', params: { label: 'Departure', other: 'Arrival' } });

    const overlap = correct('2026-03-29T08:00:00.000Z', '2026-03-29T10:30:00.000Z', ' ');
    expectNamed(overlap);
    expect(overlap[1]).toMatchObject({ field: 'arrived_at', code: 'overlap', params: { label: 'Arrival', start: '2026-03-29T10:00:00.000Z' } });

    const otherDay = correct('2026-03-28T08:00:00.000Z', null, ' ');
    expectNamed(otherDay);
    expect(codes(otherDay)).toEqual(['reason: required', 'arrived_at: same_day', 'departed_at: required']);
  });

  it('manual slot: a local time daylight saving skips, a slot of more than 24 hours, an overlap', () => {
    const state: AttendanceDayState = { slots: [slot('s1', '2026-03-28T08:00:00.000Z', null)], lastScan: null };
    const add = (arrivedAt: string, departedAt: string | null, at = AT) =>
      rulesOf(() => decideManualSlot(state, { accountId: ACCOUNT, slotId: 'new', arrivedAt, departedAt, reason: ' ', recordedBy: ACCOUNT, timeZone: 'Europe/Berlin', at }));

    const gap = add('2026-03-29T02:30', '2026-03-29T02:45');
    expectNamed(gap);
    expect(gap[1]).toMatchObject({ field: 'arrived_at', code: 'local_time', params: { label: 'Arrival', zone: 'Europe/Berlin' } });
    expect(gap[2]).toMatchObject({ field: 'departed_at', code: 'local_time' });

    const long = add('2026-03-26T08:00:00Z', '2026-03-27T09:00:00Z');
    expectNamed(long);
    expect(long[1]).toMatchObject({ field: 'departed_at', code: 'max_hours', params: { label: 'Departure', other: 'Arrival', max: 24 } });

    const overlap = add('2026-03-28T09:00:00Z', '2026-03-28T10:00:00Z');
    expectNamed(overlap);
    expect(overlap[1]).toMatchObject({ field: 'arrived_at', code: 'overlap', params: { start: '2026-03-28T08:00:00.000Z' } });
  });

  it('access token: no permission chosen and the expiry in the past', () => {
    const rules = rulesOf(() =>
      accessTokenDecider.decide(
        { type: 'IssueAccessToken', data: { tokenId: 't', accountId: ACCOUNT, tokenHash: 'h', displayPrefix: 'p', issuedAt: AT, title: ' ', permissions: [], restrictions: [], expiresAt: '2026-01-01T00:00:00Z' } },
        accessTokenDecider.initialState(),
      ),
    );
    expectNamed(rules);
    expect(codes(rules)).toEqual(['title: required', 'permissions: too_few', 'expires_at: future']);
    expect(rules[2].params).toEqual({ label: 'Expiry date' });
  });

  it('application client: redirect URIs, grant types, PKCE', () => {
    const check = (settings: Partial<ApplicationClientSettings>) => {
      const { fields, rules } = checkClientSettings({ clientType: 'public', redirectUris: [], postLogoutRedirectUris: [], grantTypes: ['authorization_code'], requirePkce: true, ...settings });
      return rulesOf(() => throwFieldViolations(fields, CLIENT_FIELD_CODES, rules));
    };
    const first = check({ redirectUris: ['https://example.com/#x'], postLogoutRedirectUris: ['http://example.com/'], grantTypes: ['client_credentials'], requirePkce: false });
    expectNamed(first);
    expect(codes(first)).toEqual(['redirect_uris: redirect_uri', 'post_logout_redirect_uris: redirect_uri', 'grant_types: confidential_only', 'require_pkce: required']);
    expect(first[1].params).toEqual({ label: 'A redirect URI', uri: 'http://example.com/' });

    const second = check({ postLogoutRedirectUris: [''], grantTypes: ['refresh_token'] });
    expectNamed(second);
    expect(codes(second)).toEqual(['post_logout_redirect_uris: required', 'grant_types: requires']);
    const third = check({ postLogoutRedirectUris: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`) });
    expectNamed(third);
    expect(codes(third)).toEqual(['redirect_uris: needed_by', 'post_logout_redirect_uris: too_many']);
  });

  it("SSO claims: a claim name the domain refuses beside a too long value", () => {
    const rules = rulesOf(() =>
      decideAccountApplicationAccess({ type: 'SetAccountClaims', data: { claims: { nickname: 'x'.repeat(256), 'Bad-Name': 'x' }, at: AT } }, emptyAccountApplicationAccess(), ACCOUNT),
    );
    expectNamed(rules);
    expect(codes(rules)).toEqual(['nickname: too_long', 'Bad-Name: claim_name']);
    expect(rules[1].params).toEqual({ label: 'Bad-Name' });
  });
});

describe('labels of the contracts a console can translate', () => {
  const rulesOfInput = (schema: { parse: (input: unknown) => unknown }, input: unknown) => rulesOf(() => schema.parse(input));

  it("an IP restriction's rule says which field, and date_at and expires_at are named as the forms name them", () => {
    const token = rulesOfInput(ZCreateAccessTokenInput, { account_id: ACCOUNT, title: 'a', permissions: ['accounts:read'], restrictions: ['999.1.1.1'], forever: false, expires_at: 'soon' });
    expect(token.find((rule) => rule.field === 'restrictions.0')).toMatchObject({ code: 'ip_address', params: { label: 'Each IP restriction' } });
    expect(token.find((rule) => rule.field === 'expires_at')).toMatchObject({ code: 'date_time', params: { label: 'Expiry date' } });
    expect(rulesOfInput(ZAttendanceQuery, { date_at: '2026-13-01' })[0].params).toEqual({ label: 'Date' });
  });
});
