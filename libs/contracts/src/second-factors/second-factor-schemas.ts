import { z } from 'zod';
import { answerId, answerTimestamp } from '../common/answers';
import { answerText, boundedText, requiredLine, TEXT_MAX, TOKEN_TEXT_MAX } from '../common/text';
import { ZAuthenticateInput } from '../auth/auth-schemas';

/**
 * Second factors (docs/adr/0025-second-factors.md): TOTP (RFC 6238) and single-use recovery codes,
 * and the two-step sign-in that asks for them on every path.
 */

/** a TOTP code (6 digits) or a recovery code (`xxxx-xxxx-xxxx-xxxx`); spaces and dashes are ignored */
export const SECOND_FACTOR_CODE_MAX = 64;
const ZCode = requiredLine('Code', SECOND_FACTOR_CODE_MAX);

/** What a password sign-in says when a code is still needed: how many steps may each take, and which. */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery_code'] as const;
export type TSecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/**
 * `POST admin/authenticate` (and tRPC `auth.signIn`), first step: username and password, and
 * optionally the code at once (scripts that know they need one sign in with one call).
 */
export const ZAuthenticateWithCodeInput = ZAuthenticateInput.extend({ code: boundedText('Code', SECOND_FACTOR_CODE_MAX, { trim: true }).optional() });
export type TAuthenticateWithCodeInput = z.infer<typeof ZAuthenticateWithCodeInput>;

/** The second step: the first step's challenge, and a TOTP code or a recovery code. */
export const ZSecondFactorStepInput = z.strictObject({
  challenge: requiredLine('Challenge', 1024),
  code: ZCode,
});
export type TSecondFactorStepInput = z.infer<typeof ZSecondFactorStepInput>;

/** What the first step hands back when a code is needed (beside `error.code` `auth.second_factor_required` on REST). */
export const ZSecondFactorChallenge = z.object({
  /** send back with the code; valid for a few minutes, for this account and password only */
  challenge: answerText(1024),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  expires_at: answerTimestamp(),
});
export type TSecondFactorChallenge = z.infer<typeof ZSecondFactorChallenge>;

/**
 * The REST first step's answer when a code is needed: 401 with the one error shape, so a client that
 * knows nothing of second factors fails with a clear code, and `second_factor` for those that do.
 */
export const ZSecondFactorRequiredAnswer = z.object({
  error: z.object({ code: z.literal('auth.second_factor_required'), message: answerText(TEXT_MAX) }),
  second_factor: ZSecondFactorChallenge,
});

/** A recovery code was used: how many of the set remain (the console warns when few are left). */
export const ZRecoveryCodesRemaining = z.object({ recovery_codes_remaining: z.number().int().min(0) });

/** An enrolled factor; `kind` leaves room for passkeys beside TOTP. */
export const ZSecondFactor = z.object({
  id: answerId(),
  kind: z.enum(['totp']),
  enrolled_at: answerTimestamp(),
  last_used_at: answerTimestamp().nullable(),
});

/** `GET second-factors` (own) and `GET account/{id}/second-factors`: what is enrolled, never a secret. */
export const ZSecondFactorStatus = z.object({
  /** the account's password policy requires a second factor */
  required: z.boolean(),
  factors: z.array(ZSecondFactor),
  /** an authenticator app enrolment was started and waits for its first code */
  totp_pending: z.boolean(),
  recovery_codes: z.object({ remaining: z.number().int().min(0), generated_at: answerTimestamp().nullable() }),
});
export type TSecondFactorStatus = z.infer<typeof ZSecondFactorStatus>;

/** `POST second-factors/totp`: the new secret, shown once, to scan or type into an authenticator app. */
export const ZTotpEnrolment = z.object({
  enrolment_id: answerId(),
  /** base32, as authenticator apps take it typed */
  secret: answerText(TOKEN_TEXT_MAX),
  otpauth_uri: answerText(1024),
  /** the otpauth URI as a QR code image (a PNG data URL) */
  qr_code: answerText(64 * 1024),
  period: z.number().int(),
  digits: z.number().int(),
});
export type TTotpEnrolment = z.infer<typeof ZTotpEnrolment>;

export const ZConfirmTotpInput = z.strictObject({
  enrolment_id: requiredLine('Enrolment', 36),
  code: ZCode,
});
export type TConfirmTotpInput = z.infer<typeof ZConfirmTotpInput>;

/** Recovery codes in clear: only in the answer that made them, once. */
export const ZRecoveryCodes = z.object({ recovery_codes: z.array(answerText(64)) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** `POST second-factors/totp/confirm`: the first recovery codes, when the account had none (else null) */
export const ZTotpConfirmed = z.object({ recovery_codes: z.array(answerText(64)).nullable() });
export type TTotpConfirmed = z.infer<typeof ZTotpConfirmed>;

/** `POST account/{id}/second-factors/reset` */
export const ZResetSecondFactorsInput = z.strictObject({
  // the bound that matters (500) is the domain's, under `reason`
  reason: boundedText('Reason', 1_000, { trim: true, multiline: true }),
});
export type TResetSecondFactorsInput = z.infer<typeof ZResetSecondFactorsInput>;

/** `POST admin/authenticate`'s body, either step (the OpenAPI document shows both) */
export const ZAuthenticateEitherStepInput = z.union([ZAuthenticateWithCodeInput, ZSecondFactorStepInput]);

/**
 * `POST admin/authenticate`'s answer once signed in: the spec's `{token}`, and beyond it
 * `password_change_required`, `second_factor_enrolment_required` (the session may only enrol a second
 * factor, docs/adr/0025) and, after a recovery code, how many remain.
 */
export const ZSignInWithSecondFactorAnswer = z.object({
  token: answerText(TOKEN_TEXT_MAX),
  password_change_required: z.literal(true).optional(),
  second_factor_enrolment_required: z.literal(true).optional(),
  recovery_codes_remaining: z.number().int().min(0).optional(),
});
export type TSignInWithSecondFactorAnswer = z.infer<typeof ZSignInWithSecondFactorAnswer>;
