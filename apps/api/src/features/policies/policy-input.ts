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
    // absent: a new policy's is off, an update keeps the policy's (update-password-policy.handler.ts)
    ...(input.second_factor !== undefined ? { secondFactor: input.second_factor } : {}),
    ...(input.passkey_sign_in !== undefined ? { passkeySignIn: input.passkey_sign_in } : {}),
  };
}
