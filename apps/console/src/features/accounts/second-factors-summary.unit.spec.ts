import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TSecondFactorStatus } from '@rollcall/contracts';
import de from '../../i18n/locales/de.json';
import en from '../../i18n/locales/en.json';
import { secondFactorsSummary } from './second-factors-summary';

let t: Record<'en' | 'de', TFunction>;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: { en: { translation: en }, de: { translation: de } }, lng: 'en', fallbackLng: 'en', interpolation: { escapeValue: false, prefix: '{', suffix: '}' } });
  t = { en: instance.getFixedT('en'), de: instance.getFixedT('de') };
});

const factor = (kind: 'totp' | 'passkey', id: string): TSecondFactorStatus['factors'][number] => ({ id, kind, name: kind === 'passkey' ? `Key ${id}` : null, enrolled_at: '2026-11-26T10:00:00.000Z', last_used_at: null });
const status = (kinds: Array<'totp' | 'passkey'>, remaining: number, required = false): TSecondFactorStatus =>
  ({ required, factors: kinds.map((kind, index) => factor(kind, String(index))), totp_pending: false, recovery_codes: { remaining, generated_at: null } });

describe("the administrator's summary of an account's second factors", () => {
  it('counts passkeys and recovery codes in the plural forms of English', () => {
    expect(secondFactorsSummary(status(['passkey'], 1), t.en)).toBe('A passkey is registered (1 recovery code left).');
    expect(secondFactorsSummary(status(['passkey', 'passkey', 'passkey'], 10), t.en)).toBe('3 passkeys are registered (10 recovery codes left).');
    expect(secondFactorsSummary(status(['totp', 'passkey'], 0), t.en)).toBe('An authenticator app and a passkey are enrolled (0 recovery codes left).');
    expect(secondFactorsSummary(status(['totp', 'passkey', 'passkey'], 9), t.en)).toBe('An authenticator app and 2 passkeys are enrolled (9 recovery codes left).');
    expect(secondFactorsSummary(status(['totp'], 10), t.en)).toBe('An authenticator app is enrolled (10 recovery codes left).');
    expect(secondFactorsSummary(status(['totp'], 1), t.en)).toBe('An authenticator app is enrolled (1 recovery code left).');
    expect(secondFactorsSummary(status([], 0), t.en)).toBe('No second factor is enrolled.');
    expect(secondFactorsSummary(status([], 0, true), t.en)).toMatch(/^No second factor is enrolled; the password policy requires one/);
  });

  it('and of German', () => {
    expect(secondFactorsSummary(status(['passkey'], 1), t.de)).toBe('Ein Passkey ist registriert (noch 1 Wiederherstellungscode).');
    expect(secondFactorsSummary(status(['totp', 'passkey', 'passkey'], 9), t.de)).toBe('Eine Authenticator-App und 2 Passkeys sind eingerichtet (noch 9 Wiederherstellungscodes).');
  });
});
