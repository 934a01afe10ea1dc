import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { translateFieldRule } from '../../components/server-messages';
import de from '../../i18n/locales/de.json';
import en from '../../i18n/locales/en.json';

/**
 * The checks that answered only `invalid` (issue 21 item 6 leftovers) now name their rule, so the
 * console says what is wrong in its own language instead of "is not valid". The rules below are the
 * API's own answers (apps/api field-rules-coverage.unit.spec.ts checks it answers them).
 */

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'en', fallbackLng: 'en', resources: { en: { translation: en }, de: { translation: de } }, interpolation: { prefix: '{', suffix: '}', escapeValue: false } });
});

const say = (language: 'en' | 'de', code: string, params: Record<string, string | number>, message = 'the English message') =>
  translateFieldRule({ field: 'x', code, params, message }, i18n.getFixedT(language));

describe('the rules that used to be invalid, in en and de', () => {
  it.each([
    ['create account, policy on without one', 'required', { label: 'Password policy' }, 'Password policy is required', 'Passwortrichtlinie ist erforderlich'],
    ['create account, policy_id without the switch', 'only_with', { label: 'Password policy', other: 'Enforce password policy' }, 'Password policy applies only when Enforce password policy is on', 'Passwortrichtlinie gilt nur, wenn Passwortrichtlinie erzwingen eingeschaltet ist'],
    ['access token without expiry', 'required', { label: 'Expiry date' }, 'Expiry date is required', 'Ablaufdatum ist erforderlich'],
    ['arrivals/departures To before From', 'not_before', { label: 'To', other: 'From' }, 'To cannot be before From', 'Bis darf nicht vor Von liegen'],
    ['arrivals/departures range too long', 'span', { label: 'To', other: 'From', max: 366 }, 'To is too far from From: a range spans at most 366 days', 'Bis liegt zu weit nach Von: ein Zeitraum umfasst höchstens 366 Tage'],
    ['calendar end before start', 'after', { label: 'End time', other: 'Start time' }, 'End time must be after Start time', 'Endzeit muss nach Startzeit liegen'],
    ['calendar single day', 'same_as', { label: 'End date', other: 'Start date' }, 'End date must be the same as Start date', 'Enddatum muss gleich Startdatum sein'],
    ['calendar time', 'time', { label: 'Start time' }, 'Start time must be a time as HH:mm or HH:mm:ss', 'Startzeit muss eine Uhrzeit als HH:mm oder HH:mm:ss sein'],
    ['SSO claim website', 'url', { label: 'Website' }, 'Website must be an http or https address', 'Webseite muss eine http- oder https-Adresse sein'],
    ['SSO claim birth date', 'birthdate', { label: 'Birth date' }, 'Birth date must be YYYY-MM-DD, YYYY or 0000-MM-DD', 'Geburtsdatum muss JJJJ-MM-TT, JJJJ oder 0000-MM-TT sein'],
    ['audit filter date-time', 'date_time', { label: 'From' }, 'From must be a date and time, such as 2026-11-23T08:00:00+01:00', 'Von muss ein Datum mit Uhrzeit sein, etwa 2026-11-23T08:00:00+01:00'],
    ['card UID', 'card_uid', { label: 'Card UID', min: 4, max: 10 }, 'Card UID must be 4 to 10 bytes in hexadecimal digits (0-9, A-F)', 'Karten-UID muss 4 bis 10 Bytes in Hexadezimalziffern (0-9, A-F) lang sein'],
    ['audit event types', 'event_type', { label: 'Event types' }, 'Event types must be names such as AccountCreated', 'Ereignistypen müssen Namen wie AccountCreated sein'],
    ['IP restriction', 'ip_address', { label: 'An IP restriction' }, 'An IP restriction must be an IPv4 or IPv6 address or a CIDR range such as 10.0.0.0/8', 'Eine IP-Beschränkung muss eine IPv4- oder IPv6-Adresse oder ein CIDR-Bereich wie 10.0.0.0/8 sein'],
  ])('%s', (_case, code, params, english, german) => {
    expect(say('en', code, params)).toBe(english);
    expect(say('de', code, params)).toBe(german);
  });
});
