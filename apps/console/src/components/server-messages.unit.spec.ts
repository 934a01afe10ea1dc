import { FIELD_RULE_CODES } from '@rollcall/contracts';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../i18n/locales/de.json';
import en from '../i18n/locales/en.json';
import { translateFieldErrors } from './use-field-errors';

/**
 * Field errors are translated by the rule the API names beside each message (code and parameters,
 * libs/contracts field-rules.ts), the English message's shape only as the fallback (issue 21 item 6).
 */

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'de', fallbackLng: 'en', resources: { en: { translation: en }, de: { translation: de } }, interpolation: { prefix: '{', suffix: '}', escapeValue: false } });
});

/** a tRPC error as the console's client holds it, with the API's error inside */
const trpcError = (apiError: unknown) => ({ data: { apiError } });
const fieldsOf = (translated: unknown) => (translated as { data: { apiError: { fields: Record<string, string[]> } } }).data.apiError.fields;

describe('field errors by rule', () => {
  it.each(['en', 'de'] as const)('every rule code the API can answer has a %s text', (language) => {
    const catalogue = (language === 'en' ? en : de) as unknown as { fieldRules: Record<string, string> };
    const missing = FIELD_RULE_CODES.filter((code) => !catalogue.fieldRules?.[code]?.trim());
    expect(missing).toEqual([]);
    // and i18next finds each under its code (no suffix of the code taken for a plural form)
    const t = i18n.getFixedT(language);
    for (const code of FIELD_RULE_CODES) expect(t(`fieldRules.${code}`, { field: 'X', max: 1, min: 1, values: 'a', keys: 'k' })).not.toContain('fieldRules.');
  });

  it('translates by code and parameters, each rule on its own, and keeps English messages in English', () => {
    const error = trpcError({
      code: 'request.invalid',
      message: 'Invalid input',
      fields: { first_name: ['First name may be at most 64 characters', 'First name may not contain control characters'], username: ['Ein Name, den der Server anders sagt'] },
      rules: [
        { field: 'first_name', code: 'too_long', params: { label: 'First name', max: 64 }, message: 'First name may be at most 64 characters' },
        { field: 'first_name', code: 'control_characters', params: { label: 'First name' }, message: 'First name may not contain control characters' },
        // the rule names a shape the message does not have: the rule wins, not the words
        { field: 'username', code: 'too_short', params: { label: 'Username', min: 3 }, message: 'Ein Name, den der Server anders sagt' },
      ],
    });
    expect(fieldsOf(translateFieldErrors(error, i18n.getFixedT('de'), 'de'))).toEqual({
      first_name: ['Vorname darf höchstens 64 Zeichen lang sein', 'Vorname darf keine Steuerzeichen enthalten'],
      username: ['Benutzername muss mindestens 3 Zeichen lang sein'],
    });
    expect(fieldsOf(translateFieldErrors(error, i18n.getFixedT('en'), 'en')).first_name).toEqual(['First name may be at most 64 characters', 'First name may not contain control characters']);
  });

  it('falls back to the message\'s shape for a rule of the field\'s own, and for an answer without rules', () => {
    const own = trpcError({ code: 'request.invalid', message: 'x', fields: { gender: ['Gender is male or female'] }, rules: [{ field: 'gender', code: 'invalid', message: 'Gender is male or female' }] });
    expect(fieldsOf(translateFieldErrors(own, i18n.getFixedT('de'), 'de')).gender).toEqual(['Das Geschlecht ist männlich oder weiblich']);
    const older = trpcError({ code: 'request.invalid', message: 'x', fields: { last_name: ['Last name is required'] } });
    expect(fieldsOf(translateFieldErrors(older, i18n.getFixedT('de'), 'de')).last_name).toEqual(['Nachname ist erforderlich']);
    const noLabel = trpcError({ code: 'request.invalid', message: 'x', fields: { n: ['Too big'] }, rules: [{ field: 'n', code: 'too_large', params: { max: 5 }, message: 'Too big' }] });
    expect(fieldsOf(translateFieldErrors(noLabel, i18n.getFixedT('de'), 'de')).n).toEqual(['Dieses Feld darf höchstens 5 sein']);
  });

  it('says an error\'s own message by the error\'s code', () => {
    const taken = trpcError({ code: 'account.username_taken', message: 'This username is already taken', fields: { username: ['This username is already taken'] }, rules: [{ field: 'username', code: 'account.username_taken', message: 'This username is already taken' }] });
    expect(fieldsOf(translateFieldErrors(taken, i18n.getFixedT('de'), 'de')).username).toEqual([(de as unknown as { errors: { account: { username_taken: string } } }).errors.account.username_taken]);
  });
});
