import type { TFunction } from 'i18next';

/**
 * The API answers field errors in English, one message per rule (libs/contracts builds them from a
 * few shapes: '<Field> is required', '<Field> may be at most <n> characters', ...). The console
 * shows them in its own language: each shape is a text of the catalogue (`serverMessages.*`) with
 * the field's name and the numbers as parameters, the field's name itself translated by
 * `serverMessages.fields.<English name>`. A message of no known shape is shown as the server said it.
 */
const SHAPES: Array<{ pattern: RegExp; key: string; params: (match: RegExpExecArray) => Record<string, string> }> = [
  { pattern: /^(.+) is required$/, key: 'required', params: ([, field]) => ({ field }) },
  { pattern: /^(.+) may be at most (\d+) characters$/, key: 'tooLong', params: ([, field, max]) => ({ field, max }) },
  { pattern: /^(.+) must be at least (\d+) characters$/, key: 'tooShort', params: ([, field, min]) => ({ field, min }) },
  { pattern: /^(.+) must be text$/, key: 'notText', params: ([, field]) => ({ field }) },
  { pattern: /^(.+) may not contain control characters( other than tab and line breaks)?$/, key: 'controlCharacters', params: ([, field]) => ({ field }) },
  { pattern: /^(.+) must be a valid e-mail address$/, key: 'email', params: ([, field]) => ({ field }) },
  { pattern: /^(.+) must be a whole number from (\d+) to (\d+)$/, key: 'wholeNumberRange', params: ([, field, min, max]) => ({ field, min, max }) },
  { pattern: /^(.+) must be a real date as YYYY-MM-DD$/, key: 'date', params: ([, field]) => ({ field }) },
  { pattern: /^(.+) may not be in the future$/, key: 'notInFuture', params: ([, field]) => ({ field }) },
];

/** whole messages of one rule each, by their English text */
const EXACT: Record<string, string> = {
  'Username may contain ASCII letters (a-z, A-Z), digits and . _ @ - only': 'usernameCharacters',
  'Password is required unless the account is created without one': 'passwordRequired',
  'Minimum strength is a score from 0 to 4': 'minStrength',
  'Gender is male or female': 'gender',
  'Locale is en or de': 'locale',
  'Lockout must be a whole number of attempts from 0 to 100 (0 = the built-in default lockout)': 'lockout',
  'Lockout duration must be a whole number of seconds from 1 to 86400': 'lockoutDuration',
};

export function translateServerMessage(message: string, t: TFunction): string {
  const exact = EXACT[message];
  if (exact) return t(`serverMessages.${exact}`, { defaultValue: message });
  for (const shape of SHAPES) {
    const match = shape.pattern.exec(message);
    if (!match) continue;
    const params = shape.params(match);
    const field = t(`serverMessages.fields.${params.field}`, { defaultValue: params.field });
    return t(`serverMessages.${shape.key}`, { ...params, field, defaultValue: message });
  }
  return message;
}
