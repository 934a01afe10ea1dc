import { fieldError } from '../shared';

/** The part of a policy a new password is checked against (history and aging belong to other paths). */
export interface PasswordRulesPolicy {
  title: string;
  minLength: number;
  /** zxcvbn score 0-4 */
  minStrength: number;
}

/** Length in characters as a person counts them (code points), not UTF-16 units. */
export const passwordLength = (password: string) => [...password].length;

/**
 * The one check of a new password against its policy, for every path that sets one (account
 * creation now; reset, change and CSV import later). The strength score (0-4) is measured by the
 * caller with zxcvbn, a library the domain does not import. Throws a DomainError on field
 * `password` that names the rule and the policy.
 */
export function assertPasswordMeetsPolicy(password: string, strengthScore: number, policy: PasswordRulesPolicy): void {
  if (passwordLength(password) < policy.minLength) {
    throw fieldError('password.too_short', 'password', `Password must be at least ${policy.minLength} characters under policy "${policy.title}"`, {
      code: 'too_short',
      params: { label: 'Password', min: policy.minLength, policy: policy.title },
    });
  }
  if (strengthScore < policy.minStrength) {
    throw fieldError('password.too_weak', 'password', `Password is too weak under policy "${policy.title}": strength ${strengthScore} of 4 needed ${policy.minStrength}`, {
      code: 'too_weak',
      params: { label: 'Password', min: policy.minStrength, score: strengthScore, policy: policy.title },
    });
  }
}
