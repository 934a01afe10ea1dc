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
    ['IP restriction of a token', 'ip_address', { label: 'Each IP restriction' }, 'Each IP restriction must be an IPv4 or IPv6 address or a CIDR range such as 10.0.0.0/8', 'Jede IP-Beschränkung muss eine IPv4- oder IPv6-Adresse oder ein CIDR-Bereich wie 10.0.0.0/8 sein'],
    ['attendance view date', 'date', { label: 'Date' }, 'Date must be a real date as YYYY-MM-DD', 'Datum muss ein gültiges Datum als JJJJ-MM-TT sein'],
  ])('%s', (_case, code, params, english, german) => {
    expect(say('en', code, params)).toBe(english);
    expect(say('de', code, params)).toBe(german);
  });
});

describe("the domain's own checks, in en and de", () => {
  it.each([
    ['profile gender', 'one_of', { label: 'Gender', values: 'male, female' }, 'Gender must be one of: male, female', 'Geschlecht muss einer dieser Werte sein: male, female'],
    ['profile time zone', 'time_zone', { label: 'Time zone' }, 'Time zone must be a time zone such as Europe/Berlin', 'Zeitzone muss eine Zeitzone wie Europe/Berlin sein'],
    ['birth date in the future', 'not_future', { label: 'Birth date' }, 'Birth date cannot be in the future', 'Geburtsdatum darf nicht in der Zukunft liegen'],
    ['slot departure before arrival', 'after', { label: 'Departure', other: 'Arrival' }, 'Departure must be after Arrival', 'Abgang muss nach Ankunft liegen'],
    ['slot of more than 24 hours', 'max_hours', { label: 'Departure', other: 'Arrival', max: 24 }, 'Departure may be at most 24 hours after Arrival', 'Abgang darf höchstens 24 Stunden nach Ankunft liegen'],
    ['slot overlap', 'overlap', { label: 'Arrival', start: '2026-03-29T10:00:00.000Z' }, 'Arrival: the slot would overlap another slot (the one from 2026-03-29T10:00:00.000Z)', 'Ankunft: der Eintrag würde sich mit einem anderen überschneiden (dem ab 2026-03-29T10:00:00.000Z)'],
    ['slot in a daylight-saving gap', 'local_time', { label: 'Arrival', zone: 'Europe/Berlin' }, 'Arrival is no real time in Europe/Berlin (daylight saving time skips it)', 'Ankunft gibt es in Europe/Berlin nicht (die Zeitumstellung überspringt diese Zeit)'],
    ['token without permissions', 'too_few', { label: 'Permissions', min: 1 }, 'Permissions needs at least 1 entries', 'Berechtigungen braucht mindestens 1 Einträge'],
    ['token expiry in the past', 'future', { label: 'Expiry date' }, 'Expiry date must be in the future', 'Ablaufdatum muss in der Zukunft liegen'],
    ['client redirect URI', 'redirect_uri', { label: 'A redirect URI', uri: 'http://x/' }, 'A redirect URI is not allowed: http://x/. Use one absolute https address (http only for localhost, 127.0.0.1 or [::1]) without a fragment (#), wildcard (*), user name or password', 'Eine Redirect-URI ist nicht erlaubt: http://x/. Erlaubt ist eine absolute https-Adresse (http nur für localhost, 127.0.0.1 oder [::1]) ohne Fragment (#), Platzhalter (*), Benutzername oder Passwort'],
    ['client needs a redirect URI', 'needed_by', { label: 'Redirect URIs', other: 'Authorization code' }, 'Redirect URIs needs at least one entry for Authorization code', 'Redirect-URIs braucht für Autorisierungscode mindestens einen Eintrag'],
    ['client credentials of a public client', 'confidential_only', { label: 'Grant types', value: 'client_credentials' }, 'Grant types: client_credentials needs a confidential client, as a public client cannot keep a secret', 'Grant-Typen: client_credentials braucht einen vertraulichen Client, da ein öffentlicher kein Secret bewahren kann'],
    ['refresh token without authorization code', 'requires', { label: 'Grant types', value: 'refresh_token', needs: 'authorization_code' }, 'Grant types: refresh_token needs authorization_code as well', 'Grant-Typen: refresh_token braucht zusätzlich authorization_code'],
    ['public client without PKCE', 'required', { label: 'PKCE' }, 'PKCE is required', 'PKCE ist erforderlich'],
    ['SSO claim name', 'claim_name', { label: 'Bad-Name' }, "Bad-Name is not a claim name (lowercase letters, digits and '_')", "Bad-Name ist kein Claim-Name (Kleinbuchstaben, Ziffern und '_')"],
  ])('%s', (_case, code, params, english, german) => {
    expect(say('en', code, params)).toBe(english);
    expect(say('de', code, params)).toBe(german);
  });
});
