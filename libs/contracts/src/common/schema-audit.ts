import type { z } from 'zod';
import { isTextRule, isTextRuleDeclaredElsewhere } from './text';

/**
 * Walks a zod schema (objects, arrays, unions, records, optionals, defaults, pipes, lazies...) and
 * reports every string that breaks the input rules of ./text.ts: no maximum length, a pattern or
 * refinement that runs before the length check (or a length check that does not abort, so they run
 * anyway), no text rule. The contract tests run it over every exported schema and every route's
 * input; it needs zod's definitions, not a parse, so it sees branches no sample would reach.
 */
export interface TStringFinding {
  /** where in the schema, e.g. `ZCreateAccountInput.email` */
  path: string;
  rule: 'unbounded' | 'bound_not_first' | 'no_text_rule';
  detail: string;
}

export interface TStringPattern {
  path: string;
  pattern: RegExp;
}

interface Def {
  type: string;
  check?: string;
  format?: string;
  abort?: boolean;
  pattern?: RegExp;
  checks?: ZodLike[];
  [key: string]: unknown;
}
interface ZodLike {
  _zod: { def: Def; traits?: Set<string> };
}

const isZod = (value: unknown): value is ZodLike => typeof value === 'object' && value !== null && '_zod' in value && typeof (value as ZodLike)._zod?.def === 'object';

/** formats that say what every character may be (a UUID, a date-time, an address) */
const RESTRICTIVE_FORMATS = new Set(['uuid', 'guid', 'email', 'datetime', 'date', 'time', 'duration', 'ipv4', 'ipv6', 'cidrv4', 'cidrv6', 'base64', 'base64url', 'e164', 'jwt', 'cuid', 'cuid2', 'ulid', 'xid', 'ksuid', 'nanoid', 'emoji', 'hex', 'hostname', 'mac', 'url']);

/**
 * A pattern that lists what may appear, anchored at both ends, and never matches a control
 * character: no negated class, no `.`, no `\s` (it matches tab and line breaks), no other negated escape.
 */
export function isRestrictivePattern(pattern: RegExp): boolean {
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$')) return false;
  if (/\[\^|\\[sSWDPB]/.test(source)) return false;
  // an unescaped dot outside a character class
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '.' && !inClass) return false;
  }
  return true;
}

/** The checks a string schema runs, in order: a format schema (z.uuid()) is its own first check. */
function stringChecks(schema: ZodLike): ZodLike[] {
  const own = schema._zod.def.check === 'string_format' ? [schema] : [];
  return [...own, ...(schema._zod.def.checks ?? [])];
}

const isBound = (check: ZodLike) => check._zod.def.check === 'max_length' || check._zod.def.check === 'length_equals';
/** checks that may cost more than a length comparison: patterns, formats, refinements */
const isCostly = (check: ZodLike) => check._zod.def.check === 'string_format' || check._zod.def.check === 'custom';

function isBoundedString(schema: ZodLike): boolean {
  const def = schema._zod.def;
  if (def.type === 'string') return stringChecks(schema).some(isBound);
  if (def.type === 'pipe') return isZod(def.in) && isBoundedString(def.in);
  return false;
}

export interface TAuditOptions {
  /** paths (or path prefixes) exempt from the text rule: answers we produce, not inputs we take */
  textRuleExempt?: (path: string) => boolean;
}

/** Every string in `schema` that breaks a rule, and every pattern it tests text with. */
export function auditSchemaStrings(schema: unknown, name: string, options: TAuditOptions = {}): { findings: TStringFinding[]; patterns: TStringPattern[] } {
  const findings: TStringFinding[] = [];
  const patterns: TStringPattern[] = [];
  const seen = new Set<unknown>();

  const visitString = (node: ZodLike, path: string, boundedByInput: boolean) => {
    const checks = stringChecks(node);
    for (const check of checks) if (check._zod.def.pattern instanceof RegExp) patterns.push({ path, pattern: check._zod.def.pattern });
    const boundAt = checks.findIndex(isBound);
    if (boundAt === -1) {
      if (!boundedByInput) findings.push({ path, rule: 'unbounded', detail: 'a string without a maximum length' });
    } else {
      const costlyBefore = checks.slice(0, boundAt).filter(isCostly);
      if (costlyBefore.length) findings.push({ path, rule: 'bound_not_first', detail: `${costlyBefore.map((check) => check._zod.def.format ?? check._zod.def.check).join(', ')} runs before the length check` });
      else if (checks[boundAt]._zod.def.abort !== true && checks.slice(boundAt + 1).some(isCostly)) {
        findings.push({ path, rule: 'bound_not_first', detail: 'the length check does not abort, so the patterns after it still run on a longer value' });
      }
    }
    const restricted = checks.some(
      (check) =>
        isTextRule(check) ||
        (check._zod.def.check === 'string_format' && (check._zod.def.format === 'regex' ? check._zod.def.pattern instanceof RegExp && isRestrictivePattern(check._zod.def.pattern) : RESTRICTIVE_FORMATS.has(String(check._zod.def.format)))),
    );
    if (!restricted && !boundedByInput && !isTextRuleDeclaredElsewhere(node) && !options.textRuleExempt?.(path)) findings.push({ path, rule: 'no_text_rule', detail: 'a string that may hold control characters or unpaired surrogates' });
  };

  const visit = (node: unknown, path: string, boundedByInput = false): void => {
    if (!isZod(node)) return;
    if (seen.has(node) && !boundedByInput) return;
    seen.add(node);
    const def = node._zod.def;
    const child = (value: unknown, suffix: string, bounded = false) => visit(value, `${path}${suffix}`, bounded);
    switch (def.type) {
      case 'string':
        visitString(node, path, boundedByInput);
        return;
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) child(value, `.${key}`);
        child(def.catchall, '.*');
        return;
      case 'array':
        child(def.element, '[]');
        return;
      case 'set':
        child(def.valueType, '[]');
        return;
      case 'map':
      case 'record':
        child(def.keyType, '{key}');
        child(def.valueType, '{value}');
        return;
      case 'tuple':
        (def.items as unknown[]).forEach((item, index) => child(item, `[${index}]`));
        child(def.rest, '[...]');
        return;
      case 'union':
        (def.options as unknown[]).forEach((option, index) => child(option, `|${index}`, boundedByInput));
        return;
      case 'intersection':
        child(def.left, '&0', boundedByInput);
        child(def.right, '&1', boundedByInput);
        return;
      case 'pipe':
        child(def.in, '');
        // what comes out of a bounded string is bounded by it (z.string().max(64).pipe(z.ipv4()))
        child(def.out, '', isZod(def.in) && isBoundedString(def.in));
        return;
      case 'lazy':
        child((def.getter as () => unknown)(), '');
        return;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
      case 'success':
      case 'promise':
        child(def.innerType, '', boundedByInput);
        return;
      default:
        // numbers, booleans, enums, literals, unknown, transforms, dates...: no text to bound
        return;
    }
  };

  visit(schema, name);
  return { findings, patterns };
}

/** Every exported zod schema of a module namespace, by export name. */
export function zodExports(module: Record<string, unknown>): Array<[string, z.ZodType]> {
  return Object.entries(module).filter((entry): entry is [string, z.ZodType] => isZod(entry[1]));
}
