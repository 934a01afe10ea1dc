// no imports: the text and date building blocks (common/) name their rules with it

/**
 * The rules a field of bad input can break, as stable codes with parameters (issue 21: a console
 * translates `{field: 'first_name', code: 'too_long', params: {label: 'First name', max: 64}}`
 * instead of matching the English message's shape). Each answer's `error.rules` lists them beside
 * `error.fields`, one entry per message, in the same order; a message that is the error's own (a
 * taken username) carries the error's code instead (ERROR_CODES), unless the domain names the field
 * rule it breaks (a password shorter than its policy's minimum: `too_short` with `min`, beside the
 * error's code `password.too_short`). `pattern` says only that a form of the field's own was
 * broken (its message says which); `invalid` is left for what no code names (the deliberate cases are
 * listed in apps/api field-rules-coverage.unit.spec.ts, which fails on any other).
 */
export const FIELD_RULE_CODES = [
  'required',
  'too_long',
  'too_short',
  'not_text',
  'control_characters',
  'malformed_text',
  'email',
  'uuid',
  'date',
  'number',
  'whole_number',
  'boolean',
  'too_small',
  'too_large',
  'too_few',
  'too_many',
  /** a whole number from `min` to `max` */
  'range',
  /** a password weaker than its policy allows: `score` of 4 where `min` is needed */
  'too_weak',
  'one_of',
  'pattern',
  'unknown_fields',
  'invalid',
  /** an event log actor: an account, access token or door reader id (a UUID), or `system` */
  'actor_id',
  /** a time that must come after another field's (`other`: that field's English label) */
  'after',
  /** a value an earlier row of the same import file holds already (`line`: that row's line, else `row`: its number) */
  'duplicate_in_file',
  /** a month as YYYY-MM */
  'month',
  /** a date and time, such as 2026-11-23T08:00:00+01:00 (some fields also take a date alone or a local time: the message says) */
  'date_time',
  /** a time of day as HH:mm or HH:mm:ss */
  'time',
  /** a date that may not come before another field's (`other`: that field's English label) */
  'not_before',
  /** the same value as another field's (`other`) */
  'same_as',
  /** a range from another field (`other`) to this one of more than `max` days (both days counted) */
  'span',
  /** exactly one of this field and another (`other`) is needed: neither or both were given */
  'exactly_one',
  /** a field that applies only when another (`other`, a switch) is on */
  'only_with',
  /** an IPv4 or IPv6 address or a CIDR range such as 10.0.0.0/8 */
  'ip_address',
  /** an http or https address */
  'url',
  /** a birth date as YYYY-MM-DD, YYYY (the year alone) or 0000-MM-DD (the day without the year) */
  'birthdate',
  /** a card UID: hexadecimal digits (0-9, A-F), whole bytes, `min` to `max` bytes */
  'card_uid',
  /** event type names such as AccountCreated */
  'event_type',
  /** a value that must be a list (an array) */
  'not_list',
  /** a value that must be an object (a map of fields) */
  'not_object',
  /** a date or time that may not be in the future (a birth date, a slot's arrival) */
  'not_future',
  /** a date or time that must be in the future (an access token's expiry) */
  'future',
  /** a time at most `max` hours after another field's (`other`): a slot lasts at most 24 hours */
  'max_hours',
  /** an attendance slot that would overlap another of the person's, the one from `start` (to `end`, when it has ended) */
  'overlap',
  /** a local date and time that does not exist in the zone `zone` (daylight saving time skips it) */
  'local_time',
  /** a time that must stay on the day `day` (a corrected slot stays in its day) */
  'same_day',
  /** an IANA time zone such as Europe/Berlin */
  'time_zone',
  /** a redirect URI (`uri`) that is no absolute https address, or has a fragment, wildcard, user name or password */
  'redirect_uri',
  /** a list that needs an entry for another field's choice (`other`): authorization code needs a redirect URI */
  'needed_by',
  /** a choice (`value`) only a confidential client may make */
  'confidential_only',
  /** a choice (`value`) that needs another (`needs`) beside it */
  'requires',
  /** an OpenID Connect claim name: lowercase letters, digits and '_' */
  'claim_name',
] as const;
export type FieldRuleCode = (typeof FIELD_RULE_CODES)[number];

const fieldRuleCodes = new Set<string>(FIELD_RULE_CODES);
export const isFieldRuleCode = (code: unknown): code is FieldRuleCode => typeof code === 'string' && fieldRuleCodes.has(code);

/**
 * A custom check (zod `refine`/`superRefine`) names its rule this way (`params: fieldRule('email')`),
 * so the answer carries the code instead of 'invalid'.
 */
export const fieldRule = (code: FieldRuleCode, params: Record<string, string | number> = {}) => ({ rule: code, ...params });
