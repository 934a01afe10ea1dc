import type { TFunction } from 'i18next';
import { ERROR_CODES, isFieldRuleCode, type TFieldRule } from '@rollcall/contracts';

const errorCodes = new Set<string>(ERROR_CODES);
/** rules that say only that the field's own rule was broken: its message says which */
const OWN_RULES = new Set<string>(['invalid', 'pattern']);

/**
 * A field's message in the console's language by the rule the API names beside it (`error.rules`:
 * a stable code and parameters, libs/contracts field-rules.ts): `fieldRules.<code>` with the
 * parameters, the field's English label translated by `serverMessages.fields.<label>`; an error's
 * own message (a taken username) by `errors.<code>`. Null when the rule says nothing a text of the
 * catalogue could (`invalid`, `pattern`, an unknown code): the message's shape decides then.
 */
export function translateFieldRule(rule: TFieldRule, t: TFunction): string | null {
  if (errorCodes.has(rule.code) && rule.code !== 'request.invalid') return t(`errors.${rule.code}`, { defaultValue: rule.message });
  if (!isFieldRuleCode(rule.code) || OWN_RULES.has(rule.code)) return null;
  const params = rule.params ?? {};
  const label = typeof params.label === 'string' ? params.label : null;
  const field = label ? t(`serverMessages.fields.${label}`, { defaultValue: label }) : t('fieldRules.thisField');
  return t(`fieldRules.${rule.code}`, { ...params, field, defaultValue: rule.message });
}

/**
 * The fallback for a message without a rule of its own (an older API, a rule of the field's own):
 * the API's English messages come in a few shapes ('<Field> is required', '<Field> may be at most
 * <n> characters', ...), each a text of the catalogue (`serverMessages.*`) with the field's name and
 * the numbers as parameters. A message of no known shape is shown as the server said it.
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
