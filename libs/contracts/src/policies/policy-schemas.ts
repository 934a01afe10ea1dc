import { z } from 'zod';
import { answerTimestamp } from '../common/answers';
import { answerText, boundedText, DOMAIN_CHECKED_TEXT_MAX, uuidOf } from '../common/text';

/**
 * A whole number as the wire carries it: a JSON number or a numeric string (older clients send form
 * fields as text). Anything else becomes NaN so the policy rules in libs/domain, the single place
 * that knows the bounds, refuse it under the right field with their own message.
 */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value.trim());
  return Number.NaN;
}

/** the JSON Schema (OpenAPI) of what clients may send; zod itself accepts anything and converts */
const wholeNumberDoc = (description: string) => ({ type: ['integer', 'string'], description });

// a missing value becomes NaN too, so the domain names the field and its bounds
const requiredNumber = (description: string) => z.unknown().meta(wholeNumberDoc(description)).optional().transform(toNumber);
/** absent or null: the switch is off */
const optionalNumber = (description: string) =>
  z
    .unknown()
    .meta({ ...wholeNumberDoc(description), type: ['integer', 'string', 'null'] })
    .optional()
    .transform((value) => (value === undefined || value === null ? null : toNumber(value)));

/**
 * Body of `POST policy`, `PUT policy/{id}` and the tRPC mutations: the spec's wire fields
 * (console-directory.md sections 3 and 7). `history` and `max_age` are sent only while their switches
 * are on; absent or null means off. Bounds are checked by the domain (docs/api/compat.md lists them).
 */
export const ZPolicyInput = z.strictObject({
  // the length rules are the domain's (policy.title_too_long, policy.description_too_long): the bound here only stops abuse
  title: boundedText('Title', DOMAIN_CHECKED_TEXT_MAX, { trim: true }).default('').meta({ description: 'required, at most 255 characters, unique case-insensitively' }),
  description: boundedText('Description', DOMAIN_CHECKED_TEXT_MAX, { trim: true, multiline: true })
    .nullish()
    .transform((value) => value ?? '')
    .meta({ description: 'at most 255 characters' }),
  min_length: requiredNumber('minimum password length, 1-255 characters'),
  min_strength: requiredNumber('minimum zxcvbn score, 0-4'),
  lockout: requiredNumber('failed sign-ins before a lockout, 0-100 (0: the built-in default lockout)'),
  lockout_duration: requiredNumber('lockout duration in seconds, 1-86400'),
  history: optionalNumber('previous passwords that may not be reused, 1-24; absent or null: history off'),
  max_age: optionalNumber('days until a password expires, 1-3650; absent or null: aging off (errors are reported under password_age)'),
  // beyond the spec (docs/adr/0025): absent keeps what the policy says (off for a new one)
  second_factor: z.enum(['off', 'all', 'administrators'], { error: 'Second factor must be one of off, all, administrators' }).optional().meta({ description: 'who must sign in with a second factor: off, all, administrators (accounts holding a system permission); absent: unchanged (off for a new policy)' }),
  // beyond the spec (docs/adr/0029): absent keeps what the policy says (off for a new one)
  passkey_sign_in: z.boolean({ error: 'Passkey sign-in must be true or false' }).optional().meta({ description: 'may its accounts sign in with a passkey alone (no password); absent: unchanged (false for a new policy)' }),
});
export type TPolicyInput = {
  title: string;
  description?: string | null;
  min_length: number;
  min_strength: number;
  lockout: number;
  lockout_duration: number;
  history?: number | null;
  max_age?: number | null;
  second_factor?: 'off' | 'all' | 'administrators';
  passkey_sign_in?: boolean;
};
export type TPolicyCommandInput = z.output<typeof ZPolicyInput>;

export const ZPasswordPolicyId = uuidOf('policy id', 'policy id must be a UUID');

/** A password policy as lists, pickers and the edit dialog read it. */
export const ZPolicy = z.object({
  /** text in the spec ('policy id is sent as text') */
  id: answerText(64),
  title: answerText(),
  description: answerText(),
  min_length: z.number().int(),
  /** zxcvbn score 0-4 */
  min_strength: z.number().int().min(0).max(4),
  /** null: history off */
  history: z.number().int().nullable(),
  /** days; null: aging off */
  max_age: z.number().int().nullable(),
  /** failed attempts before lockout; 0: the built-in default lockout (ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS) */
  lockout: z.number().int(),
  /** seconds */
  lockout_duration: z.number().int(),
  created_at: answerTimestamp(),
  updated_at: answerTimestamp(),
  /** who must sign in with a second factor (docs/adr/0025) */
  second_factor: z.enum(['off', 'all', 'administrators']),
  /** its accounts may sign in with a passkey alone (docs/adr/0029) */
  passkey_sign_in: z.boolean(),
  /** accounts that have this policy enforced */
  num_accounts: z.number().int(),
});
export type TPolicy = z.infer<typeof ZPolicy>;
