import { DomainError, type Decider } from '../shared';
import type { SealedTotpSecret, SecondFactorEvent } from './second-factor-events';

/** how many recovery codes one set holds */
export const RECOVERY_CODE_COUNT = 10;
/** RFC 6238's default time step, in seconds; the API and authenticator apps use the same */
export const TOTP_PERIOD_SECONDS = 30;
/** a code of the step before or after the server's is still accepted (clock drift, a slow typist) */
export const TOTP_WINDOW_STEPS = 1;
/** the reason an administrator gives for a reset */
export const SECOND_FACTOR_RESET_REASON_MAX = 500;

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

export interface SecondFactorState {
  accountId: string | null;
  totp: TotpFactor | null;
  /** the current set: each code's hash, or null once used */
  recoveryCodes: Array<string | null>;
}

/** The confirmed factors (today TOTP; a passkey later adds its own). */
export const enrolledFactors = (state: SecondFactorState): Array<'totp'> => (state.totp?.confirmed ? ['totp'] : []);
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

export type SecondFactorCommand = StartTotpEnrolment | ConfirmTotp | UseTotp | RemoveTotp | GenerateRecoveryCodes | UseRecoveryCode | ResetSecondFactors;

/** One answer for every code refused at sign-in (wrong, used, out of the window): nothing tells which. */
export const invalidSecondFactor = () => new DomainError('auth.second_factor_invalid', 'This code is not valid: check the code (or recovery code) and try again', 'code');

function assertCodeSet(hashes: string[]): void {
  if (hashes.length !== RECOVERY_CODE_COUNT || new Set(hashes).size !== hashes.length || hashes.some((hash) => !hash)) {
    throw new DomainError('second_factor.recovery_codes_invalid', `A set of recovery codes is ${RECOVERY_CODE_COUNT} different codes`);
  }
}

const inWindow = (step: number, currentStep: number) => Number.isInteger(step) && Math.abs(step - currentStep) <= TOTP_WINDOW_STEPS;

export const secondFactorDecider: Decider<SecondFactorCommand, SecondFactorEvent, SecondFactorState> = {
  initialState: () => ({ accountId: null, totp: null, recoveryCodes: [] }),
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
        return { accountId: event.data.accountId, totp: null, recoveryCodes: [] };
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
        if (totp.confirmed && command.data.required && enrolledFactors(state).length === 1) {
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
        // nothing to reset is no error (two administrators at once), and nothing is recorded
        if (!state.totp && state.recoveryCodes.length === 0) return [];
        return [{ type: 'SecondFactorsReset', data: { accountId: command.data.accountId, reason, resetBy: command.data.resetBy, at: command.data.at } }];
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
