import { DomainError, type Decider } from '../shared';
import type { PasskeyCredential, SealedTotpSecret, SecondFactorEvent } from './second-factor-events';

/** how many recovery codes one set holds */
export const RECOVERY_CODE_COUNT = 10;
/** RFC 6238's default time step, in seconds; the API and authenticator apps use the same */
export const TOTP_PERIOD_SECONDS = 30;
/** a code of the step before or after the server's is still accepted (clock drift, a slow typist) */
export const TOTP_WINDOW_STEPS = 1;
/** the reason an administrator gives for a reset */
export const SECOND_FACTOR_RESET_REASON_MAX = 500;
/** a passkey's name, as the account gives it to tell its passkeys apart */
export const PASSKEY_NAME_MAX = 64;
/** how many passkeys one account may hold */
export const PASSKEYS_MAX = 20;

/** The RFC 6238 time step of an instant. */
export const totpStepAt = (at: string): number => Math.floor(Date.parse(at) / 1000 / TOTP_PERIOD_SECONDS);

export interface TotpFactor {
  enrolmentId: string;
  sealedSecret: SealedTotpSecret;
  /** confirmed by a first valid code; a pending one is no factor yet */
  confirmed: boolean;
  /** the last time step whose code was accepted: a code of it or an earlier step is refused (RFC 6238 section 5.2) */
  lastUsedStep: number | null;
  enrolledAt: string | null;
}

export interface Passkey {
  passkeyId: string;
  name: string;
  credential: PasskeyCredential;
  registeredAt: string;
}

export interface SecondFactorState {
  accountId: string | null;
  totp: TotpFactor | null;
  /** the registered passkeys (WebAuthn credentials), several per account */
  passkeys: Passkey[];
  /** the current set: each code's hash, or null once used */
  recoveryCodes: Array<string | null>;
}

export type SecondFactorKind = 'totp' | 'passkey';
/** The confirmed kinds of factor: an authenticator app, and passkeys (one entry however many). */
export const enrolledFactors = (state: SecondFactorState): SecondFactorKind[] => [
  ...(state.totp?.confirmed ? (['totp'] as const) : []),
  ...(state.passkeys.length > 0 ? (['passkey'] as const) : []),
];
/** how many single factors are enrolled (each passkey counts): the policy keeps the last one */
const factorCount = (state: SecondFactorState): number => (state.totp?.confirmed ? 1 : 0) + state.passkeys.length;
export const hasSecondFactor = (state: SecondFactorState): boolean => enrolledFactors(state).length > 0;
export const remainingRecoveryCodes = (state: SecondFactorState): number => state.recoveryCodes.filter((hash) => hash !== null).length;

export type StartTotpEnrolment = { type: 'StartTotpEnrolment'; data: { accountId: string; enrolmentId: string; sealedSecret: SealedTotpSecret; at: string } };
/**
 * The API checked `step`'s code against the pending secret; `recoveryCodeHashes` is a first set of
 * codes, given when the account has none yet (shown once, with the confirmation).
 */
export type ConfirmTotp = { type: 'ConfirmTotp'; data: { enrolmentId: string; step: number; currentStep: number; recoveryCodeHashes: string[] | null; at: string } };
/** a sign-in's code: the API found it valid for `step`; the decider refuses it outside the window or when used already */
export type UseTotp = { type: 'UseTotp'; data: { step: number; currentStep: number; at: string } };
/** `required`: the account's policy requires a second factor, so its last one may not go */
export type RemoveTotp = { type: 'RemoveTotp'; data: { required: boolean; at: string } };
export type GenerateRecoveryCodes = { type: 'GenerateRecoveryCodes'; data: { codeHashes: string[]; at: string } };
export type UseRecoveryCode = { type: 'UseRecoveryCode'; data: { codeHash: string; at: string } };
export type ResetSecondFactors = { type: 'ResetSecondFactors'; data: { accountId: string; reason: string; resetBy: string; at: string } };

/** the API verified the registration response (SimpleWebAuthn) against a challenge of this account's session */
export type RegisterPasskey = { type: 'RegisterPasskey'; data: { accountId: string; passkeyId: string; name: string; credential: PasskeyCredential; at: string } };
export type RenamePasskey = { type: 'RenamePasskey'; data: { passkeyId: string; name: string; at: string } };
/** the API verified an assertion of the credential; `counter` is the authenticator's new signature counter */
export type UsePasskey = { type: 'UsePasskey'; data: { passkeyId: string; counter: number; at: string } };
export type RemovePasskey = { type: 'RemovePasskey'; data: { passkeyId: string; required: boolean; at: string } };

export type SecondFactorCommand =
  | StartTotpEnrolment
  | ConfirmTotp
  | UseTotp
  | RemoveTotp
  | GenerateRecoveryCodes
  | UseRecoveryCode
  | ResetSecondFactors
  | RegisterPasskey
  | RenamePasskey
  | UsePasskey
  | RemovePasskey;

/** One answer for every code refused at sign-in (wrong, used, out of the window): nothing tells which. */
export const invalidSecondFactor = () => new DomainError('auth.second_factor_invalid', 'This code is not valid: check the code (or recovery code) and try again', 'code');

function assertCodeSet(hashes: string[]): void {
  if (hashes.length !== RECOVERY_CODE_COUNT || new Set(hashes).size !== hashes.length || hashes.some((hash) => !hash)) {
    throw new DomainError('second_factor.recovery_codes_invalid', `A set of recovery codes is ${RECOVERY_CODE_COUNT} different codes`);
  }
}

/**
 * Characters that change how a history reads without being seen (review R24 F9): bidi embeddings,
 * overrides, isolates and marks (a name read backwards), zero-width characters, and the Unicode line
 * and paragraph separators (a second line in a one-line name).
 */
const SPOOFING_CHARACTER = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u2028\u2029]/;
/** true when the text holds a character that would let it read other than it is (SPOOFING_CHARACTER) */
export const hasSpoofingCharacter = (text: string): boolean => SPOOFING_CHARACTER.test(text);

/** a passkey's name: trimmed, 1 to PASSKEY_NAME_MAX characters, one line, and not another passkey's of the account */
function passkeyName(state: SecondFactorState, name: string, except: string | null): string {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('second_factor.passkey_name_required', 'Give the passkey a name', 'name');
  if ([...trimmed].length > PASSKEY_NAME_MAX) throw new DomainError('second_factor.passkey_name_too_long', `A passkey's name may be at most ${PASSKEY_NAME_MAX} characters`, 'name');
  if ([...trimmed].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) || hasSpoofingCharacter(trimmed)) throw new DomainError('second_factor.passkey_name_invalid', "A passkey's name is one line of text", 'name');
  if (state.passkeys.some((p) => p.passkeyId !== except && p.name.toLowerCase() === trimmed.toLowerCase())) {
    throw new DomainError('second_factor.passkey_name_taken', 'Another of your passkeys has this name: choose another', 'name');
  }
  return trimmed;
}

const passkeyNotFound = () => new DomainError('second_factor.passkey_not_found', 'This passkey does not exist (removed already?)');

const inWindow = (step: number, currentStep: number) => Number.isInteger(step) && Math.abs(step - currentStep) <= TOTP_WINDOW_STEPS;

export const secondFactorDecider: Decider<SecondFactorCommand, SecondFactorEvent, SecondFactorState> = {
  initialState: () => ({ accountId: null, totp: null, passkeys: [], recoveryCodes: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'TotpEnrolmentStarted':
        // a new enrolment replaces a pending one (the decider refuses one beside a confirmed factor)
        return { ...state, accountId: event.data.accountId, totp: { enrolmentId: event.data.enrolmentId, sealedSecret: event.data.sealedSecret, confirmed: false, lastUsedStep: null, enrolledAt: null } };
      case 'TotpEnrolled':
        return state.totp ? { ...state, totp: { ...state.totp, confirmed: true, lastUsedStep: event.data.step, enrolledAt: event.data.enrolledAt } } : state;
      case 'TotpUsed':
        return state.totp ? { ...state, totp: { ...state.totp, lastUsedStep: Math.max(state.totp.lastUsedStep ?? event.data.step, event.data.step) } } : state;
      case 'TotpRemoved': {
        const next = { ...state, totp: null };
        // recovery codes stand in for a factor: with none left they go too
        return { ...next, recoveryCodes: hasSecondFactor(next) ? state.recoveryCodes : [] };
      }
      case 'RecoveryCodesGenerated':
        return { ...state, accountId: event.data.accountId, recoveryCodes: [...event.data.codeHashes] };
      case 'RecoveryCodeUsed':
        return { ...state, recoveryCodes: state.recoveryCodes.map((hash, index) => (index === event.data.index ? null : hash)) };
      case 'SecondFactorsReset':
        return { accountId: event.data.accountId, totp: null, passkeys: [], recoveryCodes: [] };
      case 'PasskeyRegistered':
        return { ...state, accountId: event.data.accountId, passkeys: [...state.passkeys, { passkeyId: event.data.passkeyId, name: event.data.name, credential: event.data.credential, registeredAt: event.data.registeredAt }] };
      case 'PasskeyRenamed':
        return { ...state, passkeys: state.passkeys.map((p) => (p.passkeyId === event.data.passkeyId ? { ...p, name: event.data.name } : p)) };
      case 'PasskeyUsed':
        return { ...state, passkeys: state.passkeys.map((p) => (p.passkeyId === event.data.passkeyId ? { ...p, credential: { ...p.credential, counter: Math.max(p.credential.counter, event.data.counter) } } : p)) };
      case 'PasskeyRemoved': {
        const next = { ...state, passkeys: state.passkeys.filter((p) => p.passkeyId !== event.data.passkeyId) };
        return { ...next, recoveryCodes: hasSecondFactor(next) ? state.recoveryCodes : [] };
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartTotpEnrolment': {
        if (state.totp?.confirmed) throw new DomainError('second_factor.totp_enrolled', 'An authenticator app is already enrolled: remove it first to enrol another');
        const { accountId, enrolmentId, sealedSecret, at } = command.data;
        return [{ type: 'TotpEnrolmentStarted', data: { accountId, enrolmentId, sealedSecret, startedAt: at } }];
      }
      case 'ConfirmTotp': {
        const pending = pendingOf(state);
        if (!pending || pending.enrolmentId !== command.data.enrolmentId) {
          throw new DomainError('second_factor.enrolment_not_found', 'This enrolment is not pending (finished, replaced or never started): start again');
        }
        if (!inWindow(command.data.step, command.data.currentStep)) throw new DomainError('second_factor.code_invalid', 'This code is not valid: enter the code the app shows now', 'code');
        const accountId = state.accountId!;
        const events: SecondFactorEvent[] = [{ type: 'TotpEnrolled', data: { accountId, enrolmentId: pending.enrolmentId, step: command.data.step, enrolledAt: command.data.at } }];
        if (command.data.recoveryCodeHashes) {
          assertCodeSet(command.data.recoveryCodeHashes);
          events.push({ type: 'RecoveryCodesGenerated', data: { accountId, codeHashes: command.data.recoveryCodeHashes, count: RECOVERY_CODE_COUNT, generatedAt: command.data.at } });
        }
        return events;
      }
      case 'UseTotp': {
        const totp = state.totp;
        if (!totp?.confirmed) throw invalidSecondFactor();
        if (!inWindow(command.data.step, command.data.currentStep)) throw invalidSecondFactor();
        // a code seen once is spent, and so is every earlier step's (RFC 6238 section 5.2)
        if (totp.lastUsedStep !== null && command.data.step <= totp.lastUsedStep) throw invalidSecondFactor();
        return [{ type: 'TotpUsed', data: { accountId: state.accountId!, enrolmentId: totp.enrolmentId, step: command.data.step, at: command.data.at } }];
      }
      case 'RemoveTotp': {
        const totp = state.totp;
        if (!totp) throw new DomainError('second_factor.not_found', 'No authenticator app is enrolled');
        if (totp.confirmed && command.data.required && factorCount(state) === 1) {
          throw new DomainError('second_factor.required', 'Your password policy requires a second factor: enrol another before removing this one');
        }
        return [{ type: 'TotpRemoved', data: { accountId: state.accountId!, enrolmentId: totp.enrolmentId, removedAt: command.data.at } }];
      }
      case 'GenerateRecoveryCodes': {
        if (!hasSecondFactor(state)) throw new DomainError('second_factor.none_enrolled', 'Enrol an authenticator app first: recovery codes stand in for a second factor');
        assertCodeSet(command.data.codeHashes);
        return [{ type: 'RecoveryCodesGenerated', data: { accountId: state.accountId!, codeHashes: command.data.codeHashes, count: RECOVERY_CODE_COUNT, generatedAt: command.data.at } }];
      }
      case 'UseRecoveryCode': {
        if (!hasSecondFactor(state)) throw invalidSecondFactor();
        const index = state.recoveryCodes.indexOf(command.data.codeHash);
        if (index < 0 || !command.data.codeHash) throw invalidSecondFactor();
        return [{ type: 'RecoveryCodeUsed', data: { accountId: state.accountId!, index, remaining: remainingRecoveryCodes(state) - 1, at: command.data.at } }];
      }
      case 'ResetSecondFactors': {
        const reason = command.data.reason.trim();
        if (!reason) throw new DomainError('second_factor.reason_required', 'Give a reason for the reset', 'reason');
        if ([...reason].length > SECOND_FACTOR_RESET_REASON_MAX) throw new DomainError('second_factor.reason_too_long', `The reason may be at most ${SECOND_FACTOR_RESET_REASON_MAX} characters`, 'reason');
        if (hasSpoofingCharacter(reason)) throw new DomainError('second_factor.reason_invalid', 'The reason may not hold direction overrides, zero-width characters or Unicode line separators', 'reason');
        // nothing to reset is no error (two administrators at once), and nothing is recorded
        if (!state.totp && state.passkeys.length === 0 && state.recoveryCodes.length === 0) return [];
        return [{ type: 'SecondFactorsReset', data: { accountId: command.data.accountId, reason, resetBy: command.data.resetBy, at: command.data.at } }];
      }
      case 'RegisterPasskey': {
        const { accountId, passkeyId, credential, at } = command.data;
        const name = passkeyName(state, command.data.name, null);
        if (state.passkeys.length >= PASSKEYS_MAX) throw new DomainError('second_factor.passkeys_too_many', `An account may hold at most ${PASSKEYS_MAX} passkeys: remove one first`);
        if (!credential.credentialId || !credential.publicKey) throw new DomainError('second_factor.passkey_invalid', 'This passkey could not be registered: try again');
        if (state.passkeys.some((p) => p.credential.credentialId === credential.credentialId)) {
          throw new DomainError('second_factor.passkey_registered', 'This passkey is registered already');
        }
        return [{ type: 'PasskeyRegistered', data: { accountId, passkeyId, name, credential, registeredAt: at } }];
      }
      case 'RenamePasskey': {
        const passkey = state.passkeys.find((p) => p.passkeyId === command.data.passkeyId);
        if (!passkey) throw passkeyNotFound();
        const name = passkeyName(state, command.data.name, passkey.passkeyId);
        if (name === passkey.name) return [];
        return [{ type: 'PasskeyRenamed', data: { accountId: state.accountId!, passkeyId: passkey.passkeyId, name, at: command.data.at } }];
      }
      case 'UsePasskey': {
        const passkey = state.passkeys.find((p) => p.passkeyId === command.data.passkeyId);
        if (!passkey) throw invalidSecondFactor();
        const { counter } = command.data;
        // a signature counter that did not grow (where the authenticator keeps one) is a cloned or replayed
        // assertion (WebAuthn section 6.1.1); authenticators without a counter send 0 every time
        if (!Number.isInteger(counter) || counter < 0) throw invalidSecondFactor();
        if ((counter > 0 || passkey.credential.counter > 0) && counter <= passkey.credential.counter) throw invalidSecondFactor();
        return [{ type: 'PasskeyUsed', data: { accountId: state.accountId!, passkeyId: passkey.passkeyId, counter, at: command.data.at } }];
      }
      case 'RemovePasskey': {
        const passkey = state.passkeys.find((p) => p.passkeyId === command.data.passkeyId);
        if (!passkey) throw passkeyNotFound();
        if (command.data.required && factorCount(state) === 1) {
          throw new DomainError('second_factor.required', 'Your password policy requires a second factor: enrol another before removing this one');
        }
        return [{ type: 'PasskeyRemoved', data: { accountId: state.accountId!, passkeyId: passkey.passkeyId, name: passkey.name, removedAt: command.data.at } }];
      }
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

/** the pending enrolment, if any */
export const pendingOf = (state: SecondFactorState): TotpFactor | null => (state.totp && !state.totp.confirmed ? state.totp : null);

export const secondFactorStream = (accountId: string) => `second-factors-${accountId}`;

/**
 * A passkey's credential id, reserved in the event store by the append that registers it and released
 * by the one that removes it (or resets the factors): one account per credential (WebAuthn L2 section
 * 7.1 step 22), also when two registrations of one credential race. The id is base64url: its case counts.
 */
export const passkeyCredentialReservation = (credentialId: string) => ({ scope: 'second_factor.passkey_credential', value: credentialId });
