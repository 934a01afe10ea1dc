import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../../i18n/locales/de.json';
import en from '../../../i18n/locales/en.json';
import type { TImportRowResult } from '@rollcall/contracts';
import { translateRowErrors } from './csv-import';

/** The import report says each row's messages in the console's language by their rules (issue 21, review 6b). */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'de', fallbackLng: 'en', resources: { en: { translation: en }, de: { translation: de } }, interpolation: { prefix: '{', suffix: '}', escapeValue: false } });
});

const row: Extract<TImportRowResult, { status: 'failed' }> = {
  row: 2,
  line: 4,
  status: 'failed',
  errors: {
    first_name: ['First name is required'],
    email: ['E-mail must be a valid e-mail address'],
    username: ['This username appears more than once in the file: same username as line 3', 'This username is already taken'],
  },
  rules: [
    { field: 'first_name', code: 'required', params: { label: 'First name' }, message: 'First name is required' },
    { field: 'email', code: 'email', params: { label: 'E-mail' }, message: 'E-mail must be a valid e-mail address' },
    { field: 'username', code: 'duplicate_in_file', params: { label: 'Username', line: 3 }, message: 'This username appears more than once in the file: same username as line 3' },
    { field: 'username', code: 'account.username_taken', message: 'This username is already taken' },
  ],
};

describe('the import report', () => {
  it('says each message in German by its rule', () => {
    expect(translateRowErrors(row, i18n.getFixedT('de'), 'de')).toEqual({
      first_name: ['Vorname ist erforderlich'],
      email: ['E-Mail muss eine gültige E-Mail-Adresse sein'],
      username: ['Benutzername kommt in der Datei mehrfach vor: wie in Zeile 3', (de as unknown as { errors: { account: { username_taken: string } } }).errors.account.username_taken],
    });
  });

  it('keeps the server’s English in English, and a row without rules by the message’s shape', () => {
    expect(translateRowErrors(row, i18n.getFixedT('en'), 'en')).toEqual(row.errors);
    expect(translateRowErrors({ row: 1, status: 'failed', errors: { last_name: ['Last name is required'] } }, i18n.getFixedT('de'), 'de')).toEqual({ last_name: ['Nachname ist erforderlich'] });
  });
});
