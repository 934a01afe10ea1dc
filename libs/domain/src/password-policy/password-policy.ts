import { DomainError, type Decider, type DomainEvent } from '../shared';

/** What a policy demands of passwords; the same fields on create and update. */
export interface PasswordPolicyRules {
  title: string;
  description: string;
  minLength: number;
  /** zxcvbn score 0-4 */
  minStrength: number;
  /** number of previous passwords that may not be reused; null = history off */
  history: number | null;
  /** days until a password must be changed; null = aging off */
  maxAgeDays: number | null;
  /** failed sign-ins before the account is locked; 0 = the built-in default (ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS and _MINUTES) */
  lockoutAttempts: number;
  /** how long a lockout lasts, in seconds (see docs/adr/0005-password-policies.md) */
  lockoutDurationSeconds: number;
  /**
   * Who under this policy must sign in with a second factor (docs/adr/0025-second-factors.md): no one
   * ('off', also what policies created before the rule read as), every account ('all'), or only
   * accounts that hold a system permission anywhere ('administrators').
   */
  secondFactor?: SecondFactorRequirement;
  /**
   * May an account under this policy sign in with a passkey alone, no password (docs/adr/0029)? Off
   * unless set (also what policies from before read as).
   */
  passkeySignIn?: boolean;
}

export const SECOND_FACTOR_REQUIREMENTS = ['off', 'all', 'administrators'] as const;
export type SecondFactorRequirement = (typeof SECOND_FACTOR_REQUIREMENTS)[number];

/** Must an account under this policy (`isAdministrator`: it holds a system permission) have a second factor? */
export const secondFactorRequired = (requirement: SecondFactorRequirement | null | undefined, isAdministrator: boolean): boolean =>
  requirement === 'all' || (requirement === 'administrators' && isAdministrator);

export interface PasswordPolicyData extends PasswordPolicyRules {
  policyId: string;
  createdAt: string;
}

export interface PasswordPolicyUpdatedData extends PasswordPolicyRules {
  policyId: string;
  updatedAt: string;
}

export interface PasswordPolicyDeletedData {
  policyId: string;
  title: string;
  deletedAt: string;
}

export type PasswordPolicyCreated = DomainEvent<'PasswordPolicyCreated', PasswordPolicyData>;
export type PasswordPolicyUpdated = DomainEvent<'PasswordPolicyUpdated', PasswordPolicyUpdatedData>;
export type PasswordPolicyDeleted = DomainEvent<'PasswordPolicyDeleted', PasswordPolicyDeletedData>;
export type PasswordPolicyEvent = PasswordPolicyCreated | PasswordPolicyUpdated | PasswordPolicyDeleted;
export const PASSWORD_POLICY_EVENT_TYPES: PasswordPolicyEvent['type'][] = ['PasswordPolicyCreated', 'PasswordPolicyUpdated', 'PasswordPolicyDeleted'];

export type CreatePasswordPolicy = { type: 'CreatePasswordPolicy'; data: PasswordPolicyData };
export type UpdatePasswordPolicy = { type: 'UpdatePasswordPolicy'; data: PasswordPolicyUpdatedData };
export type DeletePasswordPolicy = { type: 'DeletePasswordPolicy'; data: { policyId: string; deletedAt: string } };
export type PasswordPolicyCommand = CreatePasswordPolicy | UpdatePasswordPolicy | DeletePasswordPolicy;

export type PasswordPolicyState =
  | { status: 'none' }
  | { status: 'created'; policy: PasswordPolicyRules & { policyId: string } }
  | { status: 'deleted'; policyId: string };

/** The spec's defaults (console-directory.md section 9): history 4 off, min length 6, strength 0, lockout 4 for 3600 s, aging 90 days off. */
export const DEFAULT_PASSWORD_POLICY = { minLength: 6, minStrength: 0, history: null, maxAgeDays: null, lockoutAttempts: 4, lockoutDurationSeconds: 3600 } as const;

/** The bounds of every policy number; the console and the docs quote the same values. */
export const PASSWORD_POLICY_LIMITS = {
  textMax: 255,
  minLength: { min: 1, max: 255 },
  minStrength: { min: 0, max: 4 },
  history: { min: 1, max: 24 },
  maxAgeDays: { min: 1, max: 3650 },
  lockoutAttempts: { min: 0, max: 100 },
  lockoutDurationSeconds: { min: 1, max: 86400 },
} as const;

export interface PolicyViolation {
  code: string;
  /** the wire field the console shows the message under (spec section 5) */
  field: string;
  message: string;
  /** the field rule it breaks (a FIELD_RULE_CODES member of libs/contracts) with its numbers, where one fits */
  rule?: { code: string; params: Record<string, string | number> };
}

/** a whole number from min to max under a field's label: the `range` rule */
const range = (label: string, { min, max }: { min: number; max: number }) => ({ code: 'range', params: { label, min, max } });

const inRange = (value: number, { min, max }: { min: number; max: number }) => Number.isInteger(value) && value >= min && value <= max;

/** Every rule a policy breaks, in form order. Pure: the decider and its tests use it. */
export function passwordPolicyViolations(rules: PasswordPolicyRules): PolicyViolation[] {
  const L = PASSWORD_POLICY_LIMITS;
  const violations: PolicyViolation[] = [];
  const title = rules.title.trim();
  if (!title) violations.push({ code: 'policy.title_required', field: 'title', message: 'Title is required', rule: { code: 'required', params: { label: 'Title' } } });
  else if ([...title].length > L.textMax) violations.push({ code: 'policy.title_too_long', field: 'title', message: `Title may be at most ${L.textMax} characters`, rule: { code: 'too_long', params: { label: 'Title', max: L.textMax } } });
  if ([...rules.description].length > L.textMax) violations.push({ code: 'policy.description_too_long', field: 'description', message: `Description may be at most ${L.textMax} characters`, rule: { code: 'too_long', params: { label: 'Description', max: L.textMax } } });
  if (rules.maxAgeDays !== null && !inRange(rules.maxAgeDays, L.maxAgeDays)) {
    // the spec's console shows age errors under `password_age` (wire field `max_age`)
    violations.push({ code: 'policy.max_age', field: 'password_age', message: `Password age must be a whole number of days from ${L.maxAgeDays.min} to ${L.maxAgeDays.max}`, rule: range('Password age', L.maxAgeDays) });
  }
  if (rules.history !== null && !inRange(rules.history, L.history)) {
    violations.push({ code: 'policy.history', field: 'history', message: `History must be a whole number of passwords from ${L.history.min} to ${L.history.max}`, rule: range('History', L.history) });
  }
  if (!inRange(rules.minLength, L.minLength)) violations.push({ code: 'policy.min_length', field: 'min_length', message: `Minimum length must be a whole number from ${L.minLength.min} to ${L.minLength.max}`, rule: range('Minimum length', L.minLength) });
  if (!inRange(rules.minStrength, L.minStrength)) violations.push({ code: 'policy.min_strength', field: 'min_strength', message: 'Minimum strength is a score from 0 to 4', rule: range('Minimum strength', L.minStrength) });
  if (!inRange(rules.lockoutAttempts, L.lockoutAttempts)) {
    violations.push({ code: 'policy.lockout', field: 'lockout', message: `Lockout must be a whole number of attempts from ${L.lockoutAttempts.min} to ${L.lockoutAttempts.max} (0 = the built-in default lockout)` });
  }
  if (!inRange(rules.lockoutDurationSeconds, L.lockoutDurationSeconds)) {
    violations.push({ code: 'policy.lockout_duration', field: 'lockout_duration', message: `Lockout duration must be a whole number of seconds from ${L.lockoutDurationSeconds.min} to ${L.lockoutDurationSeconds.max}`,
      rule: range('Lockout duration', L.lockoutDurationSeconds),
    });
  }
  if (rules.secondFactor !== undefined && !(SECOND_FACTOR_REQUIREMENTS as readonly string[]).includes(rules.secondFactor)) {
    violations.push({ code: 'policy.second_factor', field: 'second_factor', message: `Second factor must be one of ${SECOND_FACTOR_REQUIREMENTS.join(', ')}` });
  }
  return violations;
}

function assertValid(rules: PasswordPolicyRules): void {
  const violations = passwordPolicyViolations(rules);
  if (!violations.length) return;
  const fields: Record<string, string[]> = {};
  for (const v of violations) (fields[v.field] ??= []).push(v.message);
  const [first] = violations;
  const message = violations.length === 1 ? first.message : `Invalid policy (${violations.map((v) => `${v.field}: ${v.message}`).join('; ')})`;
  const named = violations.flatMap(({ field, message: text, rule }) => (rule ? [{ field, message: text, ...rule }] : []));
  throw new DomainError(first.code, message, first.field, fields, named);
}

const rulesOf = (data: PasswordPolicyRules): PasswordPolicyRules => ({
  title: data.title,
  description: data.description,
  minLength: data.minLength,
  minStrength: data.minStrength,
  history: data.history,
  maxAgeDays: data.maxAgeDays,
  lockoutAttempts: data.lockoutAttempts,
  lockoutDurationSeconds: data.lockoutDurationSeconds,
  secondFactor: data.secondFactor ?? 'off',
  passkeySignIn: data.passkeySignIn ?? false,
});

const sameRules = (a: PasswordPolicyRules, b: PasswordPolicyRules) => JSON.stringify(rulesOf(a)) === JSON.stringify(rulesOf(b));

const notFound = () => new DomainError('policy.not_found', 'This password policy does not exist');

export const passwordPolicyDecider: Decider<PasswordPolicyCommand, PasswordPolicyEvent, PasswordPolicyState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordPolicyCreated':
      case 'PasswordPolicyUpdated':
        return { status: 'created', policy: { policyId: event.data.policyId, ...rulesOf(event.data) } };
      case 'PasswordPolicyDeleted':
        return { status: 'deleted', policyId: event.data.policyId };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreatePasswordPolicy': {
        if (state.status !== 'none') throw new DomainError('policy.exists', 'This policy already exists');
        assertValid(command.data);
        return [{ type: 'PasswordPolicyCreated', data: command.data }];
      }
      case 'UpdatePasswordPolicy': {
        if (state.status !== 'created') throw notFound();
        assertValid(command.data);
        // saving an unchanged form records nothing
        if (sameRules(state.policy, command.data)) return [];
        return [{ type: 'PasswordPolicyUpdated', data: command.data }];
      }
      case 'DeletePasswordPolicy': {
        if (state.status !== 'created') throw notFound();
        return [{ type: 'PasswordPolicyDeleted', data: { policyId: state.policy.policyId, title: state.policy.title, deletedAt: command.data.deletedAt } }];
      }
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

export const passwordPolicyStream = (policyId: string) => `password-policy-${policyId}`;

/** Policy titles are unique case-insensitively, reserved with the append (scope 'policy.title'). */
export const policyTitleReservation = (title: string) => ({ scope: 'policy.title', value: title.trim().toLowerCase() });
