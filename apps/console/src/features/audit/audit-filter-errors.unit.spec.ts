import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../i18n/locales/de.json';
import en from '../../i18n/locales/en.json';
import { translateFieldErrors } from '../../components/use-field-errors';

/**
 * The event log's filters answer with rules of their own (issue 21, review 6a): a malformed actor
 * (`actor_id`) and a To not after From (`after`, naming the other field) read in the console's
 * language, the other field's name translated too.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'de', fallbackLng: 'en', resources: { en: { translation: en }, de: { translation: de } }, interpolation: { prefix: '{', suffix: '}', escapeValue: false } });
});

const answer = {
  data: {
    apiError: {
      code: 'request.invalid',
      message: 'Invalid input',
      fields: { actor: ['actor must be an account, access token or door reader id (a UUID), or system'], to: ['to must be after from'] },
      rules: [
        { field: 'actor', code: 'actor_id', params: { label: 'Actor' }, message: 'actor must be an account, access token or door reader id (a UUID), or system' },
        { field: 'to', code: 'after', params: { label: 'To', other: 'From' }, message: 'to must be after from' },
      ],
    },
  },
};
const fieldsOf = (translated: unknown) => (translated as { data: { apiError: { fields: Record<string, string[]> } } }).data.apiError.fields;

describe('the event log filters’ errors', () => {
  it('read in German by their rule, naming both fields', () => {
    expect(fieldsOf(translateFieldErrors(answer, i18n.getFixedT('de'), 'de'))).toEqual({
      actor: ['Akteur muss eine Konto-, Zugriffstoken- oder Türleser-ID (eine UUID) oder system sein'],
      to: ['Bis muss nach Von liegen'],
    });
  });

  it('keep the server’s words in English', () => {
    expect(fieldsOf(translateFieldErrors(answer, i18n.getFixedT('en'), 'en')).to).toEqual(['to must be after from']);
  });
});
