import { isErrorCode, isFieldRuleCode, type FieldRuleCode, type TFieldRule } from '@rollcall/contracts';
import type { ZodError } from 'zod';

type ZodIssue = ZodError['issues'][number];
type Params = Record<string, string | number>;

/**
 * The field's English name as our messages say it: every text, number and date of the contracts
 * (libs/contracts common/text.ts, dates.ts, the schemas' own 'is required') starts its message with
 * the field's label and one of these phrases. The console translates the label with the rule
 * (serverMessages.fields.<label>); a message of another shape carries no label.
 */
const LABELLED = /^(.{1,80}?) (?:is required|may be at most|must be at least|must be text|may not contain control characters|must be well-formed text|must be a valid e-mail address|must be a UUID|must be a (?:real )?date|must be a (?:whole )?number|must be one of|is not in the expected form|must be an IPv4)/;

/**
 * Labels some contracts' messages give as the wire field's own name ('date_at must be a date...',
 * 'expires_at must be a real date...'): the field's English name as the console's forms call it, so
 * a console translates it (serverMessages.fields.<label>) instead of showing `date_at`.
 */
const WIRE_NAMES: Record<string, string> = { date_at: 'Date', expires_at: 'Expiry date' };

const labelled = (message: string, params: Params = {}): Params => {
  const label = LABELLED.exec(message)?.[1];
  const named = label ? { label, ...params } : params;
  return typeof named.label === 'string' && WIRE_NAMES[named.label] ? { ...named, label: WIRE_NAMES[named.label] } : named;
};

const rule = (code: FieldRuleCode, message: string, params: Params = {}) => ({ code, params: labelled(message, params) });

const IP_FORMATS = new Set(['ipv4', 'ipv6', 'cidrv4', 'cidrv6']);
/** what a boolean accepts, as a union's choices name it */
const BOOLEAN_VALUES = ['true', 'false'];

/**
 * A value none of a union's options takes: the rule they share. Options of fixed values (a boolean,
 * literals, an enum: `1`, `0`, `'true'`...) make `one_of` with every value; options that all break the
 * same rule (four address forms: `ip_address`) make that rule; where only one option is of the value's
 * type (text or a number, given -1), that option's rule. Options of different kinds (a date or a month)
 * share none: `invalid`, and the union's message says what is expected.
 */
function unionRule(issue: Extract<ZodIssue, { code: 'invalid_union' }>, message: string): { code: FieldRuleCode; params: Params } {
  const firsts = issue.errors.map((option) => option.find((inner) => inner.path.length === 0));
  if (!firsts.length || firsts.some((inner) => inner === undefined)) return rule('invalid', message);
  const values: string[] = [];
  const fixed = firsts.every((inner) => {
    if (inner!.code === 'invalid_value') return values.push(...inner!.values.map(String)) > 0;
    if (inner!.code === 'invalid_type' && inner!.expected === 'boolean') return values.push(...BOOLEAN_VALUES) > 0;
    return false;
  });
  if (fixed) return rule('one_of', message, { values: [...new Set(values)].join(', ') });
  // the one option of the value's type says what is wrong with it (-1 for text or a positive number)
  const ofItsType = firsts.filter((inner) => inner!.code !== 'invalid_type');
  if (ofItsType.length === 1) return ruleOfIssue(ofItsType[0]!);
  const rules = firsts.map((inner) => ruleOfIssue(inner!));
  const [first] = rules;
  return rules.every((each) => each.code === first.code) && first.code !== 'one_of' ? rule(first.code, message, Object.fromEntries(Object.entries(first.params).filter(([key]) => key !== 'label'))) : rule('invalid', message);
}

/** one zod issue's rule: its stable code and the parameters a translation needs */
export function ruleOfIssue(issue: ZodIssue): { code: FieldRuleCode; params: Params } {
  const message = issue.message;
  switch (issue.code) {
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return rule('too_long', message, { max });
      if (issue.origin === 'array' || issue.origin === 'set') return rule('too_many', message, { max });
      return rule('too_large', message, { max });
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? rule('required', message) : rule('too_short', message, { min });
      if (issue.origin === 'array' || issue.origin === 'set') return rule('too_few', message, { min });
      return rule('too_small', message, { min });
    }
    case 'invalid_type':
      // our schemas say 'is required' for a missing value (zod reports it as a wrong type: undefined)
      if (/ is required$/.test(message)) return rule('required', message);
      if (issue.expected === 'string') return rule('not_text', message);
      if (issue.expected === 'int') return rule('whole_number', message);
      if (issue.expected === 'number' || issue.expected === 'bigint') return rule('number', message);
      if (issue.expected === 'boolean') return rule('boolean', message);
      if (issue.expected === 'array' || issue.expected === 'set' || issue.expected === 'tuple') return rule('not_list', message);
      if (issue.expected === 'object' || issue.expected === 'record' || issue.expected === 'map') return rule('not_object', message);
      return rule('invalid', message);
    case 'invalid_format':
      if (issue.format === 'email') return rule('email', message);
      if (issue.format === 'uuid' || issue.format === 'guid') return rule('uuid', message);
      if (issue.format === 'date') return rule('date', message);
      if (issue.format === 'datetime') return rule('date_time', message);
      if (issue.format === 'time') return rule('time', message);
      if (IP_FORMATS.has(issue.format)) return rule('ip_address', message);
      if (issue.format === 'url') return rule('url', message);
      return rule('pattern', message);
    case 'invalid_value':
      return rule('one_of', message, { values: issue.values.map(String).join(', ') });
    case 'invalid_union':
      return unionRule(issue, message);
    case 'unrecognized_keys':
      return { code: 'unknown_fields', params: { keys: issue.keys.join(', ') } };
    case 'custom': {
      // a custom check names its rule (fieldRule() of libs/contracts), else it is the field's own
      const { rule: named, ...params } = (issue.params ?? {}) as Record<string, unknown>;
      const own = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'));
      return isFieldRuleCode(named) ? rule(named, message, own) : rule('invalid', message, own);
    }
    default:
      return rule('invalid', message);
  }
}

/** `error.rules` of a ZodError's answer: one per issue, beside `fields` (same keys, same order, same messages) */
export function zodRules(issues: readonly ZodIssue[], messageOf: (issue: ZodIssue) => string): TFieldRule[] {
  // grouped by field in the order `fields` has them (a field's first issue), each field's in issue order
  const byField = new Map<string, TFieldRule[]>();
  for (const issue of issues) {
    const { code, params } = ruleOfIssue(issue);
    const field = issue.path.length ? issue.path.join('.') : '_';
    const list = byField.get(field) ?? [];
    list.push({ field, code, ...(Object.keys(params).length ? { params } : {}), message: messageOf(issue) });
    byField.set(field, list);
  }
  return [...byField.values()].flat();
}

/** the rule the domain names for one message of a field (DomainError's `rules`, libs/domain) */
export interface NamedRule {
  field: string;
  message: string;
  code: string;
  params?: Params;
}

/**
 * `error.rules` of a domain error's (or a taken unique value's) fields: a message whose rule the domain
 * names with a field-rule code carries that code and its numbers (a password's `too_short` with the
 * policy's `min`); else a message that is the error's own carries the error's code (the console has a
 * text for every one); else a message worded as a contracts' rule carries that rule (DOMAIN_SHAPES);
 * the domain's other messages say their own rule, 'invalid' here, and the console falls back to their
 * message.
 */
export function domainRules(code: string, message: string, fields: Record<string, string[]>, named: readonly NamedRule[] = []): TFieldRule[] {
  const namedRule = (field: string, text: string) => named.find((rule) => rule.field === field && rule.message === text && isFieldRuleCode(rule.code));
  return Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((text): TFieldRule => {
      const own = namedRule(field, text);
      if (own) return { field, code: own.code, params: labelled(text, own.params), message: text };
      if (text === message && isErrorCode(code)) return { field, code, message: text };
      const shaped = shapedRule(text);
      if (shaped) return { field, code: shaped.code, params: shaped.params, message: text };
      return { field, code: 'invalid', ...(Object.keys(labelled(text)).length ? { params: labelled(text) } : {}), message: text };
    }),
  );
}

/**
 * The domain's messages beside the first (an organization's empty title and too long description)
 * that do not name their rule, where they are worded as the contracts' own (libs/contracts
 * common/text.ts, dates.ts): the rule that wording stands for, with the field's label and numbers.
 * Our own English, matched here once, so no console has to.
 */
const DOMAIN_SHAPES: Array<{ pattern: RegExp; rule: (match: RegExpExecArray) => { code: FieldRuleCode; params: Params } }> = [
  { pattern: /^(.{1,80}?) is required$/, rule: ([, label]) => ({ code: 'required', params: { label } }) },
  { pattern: /^(.{1,80}?) may be at most (\d+) characters$/, rule: ([, label, max]) => ({ code: 'too_long', params: { label, max: Number(max) } }) },
  { pattern: /^(.{1,80}?) must be at least (\d+) characters$/, rule: ([, label, min]) => ({ code: 'too_short', params: { label, min: Number(min) } }) },
  { pattern: /^(.{1,80}?) must be a whole number from (\d+) to (\d+)$/, rule: ([, label, min, max]) => ({ code: 'range', params: { label, min: Number(min), max: Number(max) } }) },
  { pattern: /^(.{1,80}?) must be a real date as YYYY-MM-DD$/, rule: ([, label]) => ({ code: 'date', params: { label } }) },
  { pattern: /^(.{1,80}?) must be a valid e-mail address$/, rule: ([, label]) => ({ code: 'email', params: { label } }) },
  { pattern: /^(.{1,80}?) must be an http or https address$/, rule: ([, label]) => ({ code: 'url', params: { label } }) },
];

function shapedRule(text: string): { code: FieldRuleCode; params: Params } | null {
  for (const shape of DOMAIN_SHAPES) {
    const match = shape.pattern.exec(text);
    if (match) return shape.rule(match);
  }
  return null;
}
