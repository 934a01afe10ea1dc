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
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
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

/** An enrolled factor: the authenticator app, or one of the passkeys (each with its name). */
export const ZSecondFactor = z.object({
  id: answerId(),
  kind: z.enum(['totp', 'passkey']),
  /** a passkey's name (null for the authenticator app) */
  name: answerText(TEXT_MAX).nullable(),
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

/**
 * Passkeys (WebAuthn, docs/adr/0029-passkeys.md) through SimpleWebAuthn: the server hands out the
 * options JSON for `navigator.credentials.create/get` (`startRegistration`/`startAuthentication` in the
 * browser) and takes back the browser's response JSON. Each options answer holds a fresh challenge,
 * single-use and valid for a few minutes, bound to the session (registration, confirmation) or to the
 * sign-in's challenge (the second step).
 */
export const PASSKEY_NAME_MAX = 64;
const WEBAUTHN_FIELD_MAX = 16 * 1024;
const webAuthnText = (label: string) => boundedText(label, WEBAUTHN_FIELD_MAX);
/** the browser's `RegistrationResponseJSON` or `AuthenticationResponseJSON` (@simplewebauthn/browser) */
export const ZWebAuthnResponse = z.object({
  id: requiredLine('Passkey id', 1024),
  rawId: requiredLine('Passkey raw id', 1024),
  type: z.literal('public-key', { error: "Passkey type must be 'public-key'" }),
  response: z.record(webAuthnText('Passkey response field'), z.union([webAuthnText('Passkey response field'), z.number(), z.array(boundedText('Passkey transport', 32)).max(10)])),
  clientExtensionResults: z.record(boundedText('Passkey extension', 64), z.unknown()).optional(),
  authenticatorAttachment: boundedText('Passkey attachment', 32).optional(),
});
export type TWebAuthnResponse = z.infer<typeof ZWebAuthnResponse>;

/** options for the browser's WebAuthn call, as SimpleWebAuthn makes them (challenge, relying party, credentials) */
export const ZPasskeyOptions = z.object({ options: z.record(answerText(64), z.unknown()) });
export type TPasskeyOptions = z.infer<typeof ZPasskeyOptions>;

const ZPasskeyName = requiredLine('Name', PASSKEY_NAME_MAX);
/** `POST second-factors/passkeys`: the registration response, and the name the account gives the passkey */
export const ZRegisterPasskeyInput = z.strictObject({ name: ZPasskeyName, response: ZWebAuthnResponse });
export type TRegisterPasskeyInput = z.infer<typeof ZRegisterPasskeyInput>;
export const ZRenamePasskeyInput = z.strictObject({ name: ZPasskeyName });
export type TRenamePasskeyInput = z.infer<typeof ZRenamePasskeyInput>;
export const ZPasskeyRegistered = z.object({ id: answerId(), name: answerText(TEXT_MAX), recovery_codes: z.array(answerText(64)).nullable() });
export type TPasskeyRegistered = z.infer<typeof ZPasskeyRegistered>;

/** The second step with a passkey: the first step's challenge, and the browser's assertion. */
export const ZPasskeyStepInput = z.strictObject({ challenge: requiredLine('Challenge', 1024), passkey: ZWebAuthnResponse });
export type TPasskeyStepInput = z.infer<typeof ZPasskeyStepInput>;
/** options for the second step: the first step's challenge names the account */
export const ZPasskeyStepOptionsInput = z.strictObject({ challenge: requiredLine('Challenge', 1024) });
/** a sign-in with a passkey alone (where the account's policy allows it): the browser's assertion of a discoverable credential */
export const ZPasskeySignInInput = z.strictObject({ passkey: ZWebAuthnResponse });
export type TPasskeySignInInput = z.infer<typeof ZPasskeySignInInput>;

/**
 * Removing a factor or replacing the recovery codes from one's own page asks for a current second
 * factor first: a TOTP or recovery code, or a passkey's assertion (options from
 * `second-factors/passkeys/confirmation-options`).
 */
export const ZSecondFactorConfirmation = z.strictObject({
  code: ZCode.optional(),
  passkey: ZWebAuthnResponse.optional(),
});
export type TSecondFactorConfirmation = z.infer<typeof ZSecondFactorConfirmation>;

/** the own current password, as the own password change takes it (re-authentication before a first factor) */
export const CURRENT_PASSWORD_MAX = TEXT_MAX;
/**
 * Starting an enrolment (an authenticator app, or a passkey's registration options): an account that
 * has a second factor confirms with it (`code` or `passkey`, as a removal); one without any gives its
 * current password, unless its session signed in within the last five minutes (review R24b F1,
 * docs/adr/0025 'Amendment').
 */
export const ZSecondFactorEnrolmentProof = ZSecondFactorConfirmation.extend({
  current_password: boundedText('Current password', CURRENT_PASSWORD_MAX, { secret: true }).min(1, { error: 'Current password is required' }).optional(),
});
export type TSecondFactorEnrolmentProof = z.infer<typeof ZSecondFactorEnrolmentProof>;
