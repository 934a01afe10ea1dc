import { z } from 'zod';
import { fieldRule } from '../errors/field-rule-codes';

/**
 * The building blocks every text field of every contract is made of (docs/adr/0019-input-bounds.md,
 * docs/security.md 'Input bounds'). One rule for every storage engine, checked at the boundary:
 *
 * - every string has a maximum length, checked first and aborting: no pattern, refinement or
 *   transform after it ever sees a longer value (a 1 MB value costs one length comparison);
 * - a text holds no C0 control character (NUL above all: PostgreSQL cannot store it, SQLite stores
 *   it and every later reader trips on it), except tab and line breaks where the text may span lines;
 * - a text is well-formed UTF-16: no unpaired surrogate (PostgreSQL refuses it as invalid UTF-8,
 *   JSON encoders replace it, so what is stored is not what was sent);
 * - a text holds no invisible character that changes how it reads (reviews R24b F4, R24c G5): C1
 *   controls and DEL, bidi embeddings, overrides, isolates and marks (a name shown backwards in an
 *   administrator's list or a history), the zero-width space, word joiner and other invisible
 *   operators, the BOM, interlinear annotations, soft hyphens, combining grapheme joiners, the
 *   Mongolian vowel separator, Hangul fillers (a name that shows as blank), and in a one-line text the
 *   Unicode line and paragraph separators (a second line in a name). The zero-width joiner and
 *   non-joiner stay allowed where a script needs them (Persian, Hindi, an emoji sequence): between two
 *   characters that are not ASCII (RFC 8264's ContextJ, simplified); `ad\u200Dmin` is refused. Tag
 *   characters stay allowed after a flag (subdivision flags). Secrets (passwords) are exempt: a
 *   password is compared, never shown, and one set before this rule must still sign in;
 * - the patterns used on text are linear-time (contract-schemas.unit.spec.ts checks every one).
 */

/** The spec's 255 counters are server rules too. */
export const TEXT_MAX = 255;
/** Free text with no documented limit (notes, reasons) */
export const LONG_TEXT_MAX = 10_000;
/**
 * The cap of a field whose documented length rule is the domain's own (with its own error code,
 * counted in code points after trimming): generous enough that the domain still answers every value
 * a person could mean, small enough that nothing costly ever runs on a megabyte.
 */
export const DOMAIN_CHECKED_TEXT_MAX = 1_000;
/** an id, a slug of ours, a token: never longer than this */
export const TOKEN_TEXT_MAX = 128;

// Both linear: one character class, no quantifier to backtrack over. Matching control characters is
// their purpose, which is what no-control-regex guards against by default.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
// Characters that reorder or hide text (see above); one class each, linear. Each is matched alone,
// which is what no-misleading-character-class warns of (a combining or filler code point in a class).
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE_REORDERING = /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]/;
const LINE_SEPARATOR = /[\u2028\u2029]/;
// a joiner with an ASCII character (or nothing) on either side: no script needs it there
// eslint-disable-next-line no-control-regex
const STRAY_JOINER = /(?:^|[\u0000-\u007f])[\u200c\u200d]|[\u200c\u200d](?:$|[\u0000-\u007f])/;
const BLACK_FLAG = 0x1f3f4;
const isTag = (codePoint: number) => codePoint >= 0xe0020 && codePoint <= 0xe007f;

/** a tag character (U+E0020-E007F) outside a tag sequence that starts at the black flag (subdivision flags) */
function hasStrayTag(text: string): boolean {
  let previous = -1;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (isTag(codePoint) && previous !== BLACK_FLAG && !isTag(previous)) return true;
    previous = codePoint;
  }
  return false;
}
// With the u flag a surrogate pair reads as one code point, so only an unpaired half matches.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** true when the text holds an unpaired UTF-16 surrogate */
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
/**
 * true when the text holds a C0 control character (tab, LF and CR allowed when `multiline`), or,
 * unless it is a `secret`, a character that reorders or hides it (U+2028 and U+2029 allowed when
 * `multiline`; see the rules above)
 */
export function hasControlCharacter(text: string, multiline = false, secret = false): boolean {
  if ((multiline ? CONTROL_CHARACTER_BUT_LINE_BREAKS : CONTROL_CHARACTER).test(text)) return true;
  if (secret) return false;
  return INVISIBLE_REORDERING.test(text) || (!multiline && LINE_SEPARATOR.test(text)) || STRAY_JOINER.test(text) || hasStrayTag(text);
}

const textRules = new WeakSet<object>();

/** Whether a zod check is the text rule (the contract test walks every schema for it). */
export const isTextRule = (check: unknown): boolean => typeof check === 'object' && check !== null && textRules.has(check);

/** The text rule as a zod check: no control or reordering character (but tab and line breaks when multiline), no unpaired surrogate. */
export function textRule(label: string, multiline = false, secret = false) {
  const rule = z.superRefine<string>((value, ctx) => {
    if (hasControlCharacter(value, multiline, secret)) {
      ctx.addIssue({ code: 'custom', message: `${label} may not contain control characters${multiline ? ' other than tab and line breaks' : ''}`, params: fieldRule('control_characters') });
    } else if (hasLoneSurrogate(value)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be well-formed text (it holds an unpaired surrogate)`, params: fieldRule('malformed_text') });
    }
  });
  textRules.add(rule);
  return rule;
}

export interface TextOptions {
  /** tab and line breaks allowed (descriptions, reasons, addresses) */
  multiline?: boolean;
  /** leading and trailing white space removed before the length is counted */
  trim?: boolean;
  /** the message when the value is not text at all */
  typeError?: string;
  /** the message when it is too long (default: '<label> may be at most <max> characters') */
  tooLong?: string;
  /** a password: compared, never shown, so only C0 controls are refused (not the invisible characters) */
  secret?: boolean;
}

/**
 * A text of at most `max` UTF-16 code units, checked before anything else, that holds only what a
 * text may hold. Returns a zod string, so `.min()`, `.regex()`, `.nullish()` and friends chain on
 * (each after the bound).
 */
export function boundedText(label: string, max: number, options: TextOptions = {}) {
  const base = z.string({ error: options.typeError ?? `${label} must be text` });
  return (options.trim ? base.trim() : base).max(max, { error: options.tooLong ?? `${label} may be at most ${max} characters`, abort: true }).check(textRule(label, options.multiline === true, options.secret === true));
}

/** single-line text, trimmed: names, titles, slugs, search fields */
export const lineText = (label: string, max: number = TEXT_MAX, typeError?: string) => boundedText(label, max, { trim: true, typeError });
/** required single-line text, trimmed: at least one character left */
export const requiredLine = (label: string, max: number = TEXT_MAX, typeError = `${label} is required`) =>
  boundedText(label, max, { trim: true, typeError }).min(1, { error: `${label} is required` });
/** text that may span lines (tab, LF, CR allowed) */
export const multilineText = (label: string, max: number = LONG_TEXT_MAX, typeError?: string) => boundedText(label, max, { multiline: true, typeError });

const textRuleElsewhere = new WeakSet<object>();

/**
 * Declares a bounded string that does not carry the text rule because its characters are checked
 * where it is used (a card UID read by a door, checked hex per scan) or because it is an answer.
 * The schema walk of the contract tests accepts it on this declaration alone.
 */
export function textRuleDeclaredElsewhere<Schema extends z.ZodString>(schema: Schema, why: string): Schema {
  void why;
  textRuleElsewhere.add(schema);
  return schema;
}
export const isTextRuleDeclaredElsewhere = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && textRuleElsewhere.has(schema);

/**
 * A text of an answer schema (what we send, for the OpenAPI document and the contract suites;
 * docs/adr/0023): bounded like every string, but not refused for what it holds, since it says what is stored.
 */
export const answerText = (max: number = LONG_TEXT_MAX) => textRuleDeclaredElsewhere(z.string().max(max), 'an answer says what is stored');

/**
 * A UUID (what zod's `.uuid()` accepts), length-checked first. Every id on the wire is one.
 * `message` is said for anything else.
 */
export const uuidOf = (label: string, message = `${label} must be a UUID`, typeError = `${label} is required`) =>
  z.string({ error: typeError }).max(36, { error: message, abort: true }).check(z.uuid({ error: message }));

// An e-mail address in linear time: the local part is dot-separated atoms, the domain dot-separated
// labels of at most 63 characters and a TLD of letters. Every repetition is split by a character its
// body cannot hold, so no input has two ways to match.
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
/** RFC 5321: 64 for the local part, 254 for the whole address */
const EMAIL_LOCAL_MAX = 64;
export const EMAIL_MAX = 254;

/** A mailbox address as people type it (`name@example.org`), checked in linear time. */
export function isEmailAddress(text: string): boolean {
  if (text.length > EMAIL_MAX) return false;
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= EMAIL_LOCAL_MAX && EMAIL_LOCAL.test(local) && EMAIL_DOMAIN.test(domain);
}

/** A required e-mail address, trimmed, at most TEXT_MAX characters, of the form name@example.org */
export const emailOf = (label = 'E-mail') =>
  // empty text already has its 'is required'
  requiredLine(label, TEXT_MAX).refine((text) => text === '' || isEmailAddress(text), { error: `${label} must be a valid e-mail address`, params: fieldRule('email') });
