import type { TPolicyCommandInput } from '@rollcall/contracts';
import type { PasswordPolicyRules } from '@rollcall/domain';

/** The wire fields of the spec onto the domain's names (lockout_duration is in seconds, max_age in days). */
export function toPolicyRules(input: TPolicyCommandInput): PasswordPolicyRules {
  return {
    title: input.title,
    description: input.description,
    minLength: input.min_length,
    minStrength: input.min_strength,
    history: input.history,
    maxAgeDays: input.max_age,
    lockoutAttempts: input.lockout,
    lockoutDurationSeconds: input.lockout_duration,
  };
}
