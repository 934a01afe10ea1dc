import { DomainError, type Decider, type DomainEvent } from '../shared';

export interface PasswordPolicyData {
  policyId: string;
  title: string;
  description: string;
  minLength: number;
  /** zxcvbn score 0-4 */
  minStrength: number;
  /** number of previous passwords that may not be reused; null = history off */
  history: number | null;
  /** days until a password must be changed; null = aging off */
  maxAgeDays: number | null;
  lockoutAttempts: number;
  lockoutDurationSeconds: number;
  createdAt: string;
}

export type PasswordPolicyCreated = DomainEvent<'PasswordPolicyCreated', PasswordPolicyData>;
export type PasswordPolicyEvent = PasswordPolicyCreated;
export const PASSWORD_POLICY_EVENT_TYPES: PasswordPolicyEvent['type'][] = ['PasswordPolicyCreated'];

export type CreatePasswordPolicy = { type: 'CreatePasswordPolicy'; data: PasswordPolicyData };
export type PasswordPolicyCommand = CreatePasswordPolicy;

export type PasswordPolicyState = { status: 'none' } | { status: 'created'; policy: PasswordPolicyData };

/** The spec's defaults (console-directory.md section 9): history 4 off, min length 6, strength 0, lockout 4 for 3600 s, aging 90 days off. */
export const DEFAULT_PASSWORD_POLICY = { minLength: 6, minStrength: 0, history: null, maxAgeDays: null, lockoutAttempts: 4, lockoutDurationSeconds: 3600 } as const;

export const passwordPolicyDecider: Decider<PasswordPolicyCommand, PasswordPolicyEvent, PasswordPolicyState> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'created', policy: event.data }),
  decide(command, state) {
    switch (command.type) {
      case 'CreatePasswordPolicy': {
        if (state.status !== 'none') throw new DomainError('policy.exists', 'This policy already exists');
        const { minStrength, minLength } = command.data;
        if (!Number.isInteger(minStrength) || minStrength < 0 || minStrength > 4) throw new DomainError('policy.min_strength', 'Minimum strength is a score from 0 to 4', 'min_strength');
        if (!Number.isInteger(minLength) || minLength < 1) throw new DomainError('policy.min_length', 'Minimum length must be at least 1', 'min_length');
        return [{ type: 'PasswordPolicyCreated', data: command.data }];
      }
    }
  },
};

export const passwordPolicyStream = (policyId: string) => `password-policy-${policyId}`;
