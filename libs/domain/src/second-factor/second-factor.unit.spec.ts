import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold } from '../shared';
import { secondFactorRequired } from '../password-policy';
import { enrolledFactors, remainingRecoveryCodes, secondFactorDecider, totpStepAt, type SecondFactorCommand } from './second-factor';
import type { SecondFactorEvent } from './second-factor-events';

const given = givenFor(secondFactorDecider);
const accountId = 'a1';
const sealedSecret = { sealed: 'A256GCM', data: 'x' };
const at = '2026-11-26T12:00:00.000Z';
const now = totpStepAt(at);
const codes = Array.from({ length: 10 }, (_, i) => `hash-${i}`);

const started: SecondFactorEvent = { type: 'TotpEnrolmentStarted', data: { accountId, enrolmentId: 'e1', sealedSecret, startedAt: at } };
const enrolled: SecondFactorEvent = { type: 'TotpEnrolled', data: { accountId, enrolmentId: 'e1', step: now, enrolledAt: at } };
const codesGenerated: SecondFactorEvent = { type: 'RecoveryCodesGenerated', data: { accountId, codeHashes: codes, count: 10, generatedAt: at } };
const confirm = (step: number, recoveryCodeHashes: string[] | null = codes): SecondFactorCommand => ({ type: 'ConfirmTotp', data: { enrolmentId: 'e1', step, currentStep: now, recoveryCodeHashes, at } });
const useTotp = (step: number, currentStep = now + 2): SecondFactorCommand => ({ type: 'UseTotp', data: { step, currentStep, at } });
const useCode = (codeHash: string): SecondFactorCommand => ({ type: 'UseRecoveryCode', data: { codeHash, at } });

describe('second factor decider: TOTP', () => {
  it('starts an enrolment that is no factor until confirmed', () => {
    given([]).when({ type: 'StartTotpEnrolment', data: { accountId, enrolmentId: 'e1', sealedSecret, at } }).then([started]);
    expect(fold(secondFactorDecider, [started]).totp?.confirmed).toBe(false);
    given([started]).when(useTotp(now + 1, now + 1)).thenThrows('auth.second_factor_invalid');
  });

  it('confirms with a first valid code and hands out the first recovery codes in the same step', () =>
    given([started]).when(confirm(now)).then([enrolled, codesGenerated]));

  it('accepts the step before and after the current one, and no further (a window of one step)', () => {
    given([started]).when(confirm(now - 1, null)).then([{ ...enrolled, data: { ...enrolled.data, step: now - 1 } }]);
    given([started]).when(confirm(now + 2)).thenThrows('second_factor.code_invalid', 'code');
    given([started, enrolled]).when(useTotp(now + 5, now + 3)).thenThrows('auth.second_factor_invalid');
    given([started, enrolled]).when(useTotp(now + 4, now + 3)).then([{ type: 'TotpUsed', data: { accountId, enrolmentId: 'e1', step: now + 4, at } }]);
  });

  it('refuses a code used already, and any earlier step (RFC 6238 section 5.2)', () => {
    const used: SecondFactorEvent = { type: 'TotpUsed', data: { accountId, enrolmentId: 'e1', step: now + 2, at } };
    given([started, enrolled, used]).when(useTotp(now + 2)).thenThrows('auth.second_factor_invalid');
    given([started, enrolled, used]).when(useTotp(now + 1)).thenThrows('auth.second_factor_invalid');
    // the confirming code's step counts as used too
    given([started, enrolled]).when(useTotp(now, now)).thenThrows('auth.second_factor_invalid');
  });

  it('refuses a second app beside a confirmed one, and an unknown enrolment', () => {
    given([started, enrolled]).when({ type: 'StartTotpEnrolment', data: { accountId, enrolmentId: 'e2', sealedSecret, at } }).thenThrows('second_factor.totp_enrolled');
    given([]).when(confirm(now)).thenThrows('second_factor.enrolment_not_found');
  });

  it('removes the app and with the last factor its recovery codes; refuses when the policy requires one', () => {
    given([started, enrolled, codesGenerated]).when({ type: 'RemoveTotp', data: { required: false, at } }).then([{ type: 'TotpRemoved', data: { accountId, enrolmentId: 'e1', removedAt: at } }]);
    given([started, enrolled, codesGenerated]).when({ type: 'RemoveTotp', data: { required: true, at } }).thenThrows('second_factor.required');
    const removed: SecondFactorEvent = { type: 'TotpRemoved', data: { accountId, enrolmentId: 'e1', removedAt: at } };
    expect(remainingRecoveryCodes(fold(secondFactorDecider, [started, enrolled, codesGenerated, removed]))).toBe(0);
    given([]).when({ type: 'RemoveTotp', data: { required: false, at } }).thenThrows('second_factor.not_found');
  });
});

describe('second factor decider: recovery codes', () => {
  it('uses a code once and says how many remain', () => {
    given([started, enrolled, codesGenerated]).when(useCode('hash-3')).then([{ type: 'RecoveryCodeUsed', data: { accountId, index: 3, remaining: 9, at } }]);
    const used: SecondFactorEvent = { type: 'RecoveryCodeUsed', data: { accountId, index: 3, remaining: 9, at } };
    given([started, enrolled, codesGenerated, used]).when(useCode('hash-3')).thenThrows('auth.second_factor_invalid');
    given([started, enrolled, codesGenerated]).when(useCode('nope')).thenThrows('auth.second_factor_invalid');
  });

  it('a new set replaces the old one whole; only with a factor enrolled', () => {
    const fresh = codes.map((hash) => `new-${hash}`);
    const state = fold(secondFactorDecider, [started, enrolled, codesGenerated, { type: 'RecoveryCodesGenerated', data: { accountId, codeHashes: fresh, count: 10, generatedAt: at } }]);
    expect(state.recoveryCodes).toEqual(fresh);
    given([]).when({ type: 'GenerateRecoveryCodes', data: { codeHashes: fresh, at } }).thenThrows('second_factor.none_enrolled');
    given([started, enrolled]).when({ type: 'GenerateRecoveryCodes', data: { codeHashes: fresh.slice(1), at } }).thenThrows('second_factor.recovery_codes_invalid');
  });
});

describe('second factor decider: reset by an administrator', () => {
  const reset = (reason: string): SecondFactorCommand => ({ type: 'ResetSecondFactors', data: { accountId, reason, resetBy: 'admin', at } });

  it('removes every factor and code, with the reason', () => {
    given([started, enrolled, codesGenerated]).when(reset(' Lost phone ')).then([{ type: 'SecondFactorsReset', data: { accountId, reason: 'Lost phone', resetBy: 'admin', at } }]);
    const state = fold(secondFactorDecider, [started, enrolled, codesGenerated, { type: 'SecondFactorsReset', data: { accountId, reason: 'x', resetBy: 'admin', at } }]);
    expect(state.totp).toBeNull();
    expect(state.recoveryCodes).toEqual([]);
  });

  it('needs a reason, and records nothing when there is nothing to reset', () => {
    given([started, enrolled]).when(reset('  ')).thenThrows('second_factor.reason_required', 'reason');
    given([started, enrolled]).when(reset('x'.repeat(501))).thenThrows('second_factor.reason_too_long', 'reason');
    // what would make a history read other than it is (review R24 F9); line breaks stay allowed
    for (const spoof of ['Lost \u202ephone', 'Lost\u2066phone', 'Lost\u200bphone', 'Lost\u2028phone']) given([started, enrolled]).when(reset(spoof)).thenThrows('second_factor.reason_invalid', 'reason');
    given([started, enrolled]).when(reset('Lost phone\nnew one ordered')).then([{ type: 'SecondFactorsReset', data: { accountId, reason: 'Lost phone\nnew one ordered', resetBy: 'admin', at } }]);
    given([]).when(reset('Lost phone')).then([]);
  });
});

describe('the policy rule', () => {
  it('requires a second factor of everyone, of administrators only, or of no one', () => {
    expect(secondFactorRequired('all', false)).toBe(true);
    expect(secondFactorRequired('administrators', false)).toBe(false);
    expect(secondFactorRequired('administrators', true)).toBe(true);
    expect(secondFactorRequired('off', true)).toBe(false);
    expect(secondFactorRequired(undefined, true)).toBe(false);
  });
});

describe('second factor decider: passkeys', () => {
  const credential = (id: string, counter = 0) => ({ credentialId: id, publicKey: `pk-${id}`, counter, transports: ['internal'], deviceType: 'singleDevice', backedUp: false });
  const register = (passkeyId: string, name: string, credentialId = passkeyId): SecondFactorCommand => ({ type: 'RegisterPasskey', data: { accountId, passkeyId, name, credential: credential(credentialId), at } });
  const registered = (passkeyId: string, name: string, counter = 0): SecondFactorEvent => ({ type: 'PasskeyRegistered', data: { accountId, passkeyId, name, credential: credential(passkeyId, counter), registeredAt: at } });
  const use = (passkeyId: string, counter: number): SecondFactorCommand => ({ type: 'UsePasskey', data: { passkeyId, counter, at } });
  const remove = (passkeyId: string, required = false): SecondFactorCommand => ({ type: 'RemovePasskey', data: { passkeyId, required, at } });

  it('registers several, each with a name of its own, and each counts as a factor', () => {
    given([]).when(register('p1', '  Laptop ')).then([registered('p1', 'Laptop')]);
    given([registered('p1', 'Laptop')]).when(register('p2', 'Phone')).then([registered('p2', 'Phone')]);
    const state = fold(secondFactorDecider, [registered('p1', 'Laptop'), registered('p2', 'Phone')]);
    expect(state.passkeys.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(enrolledFactors(state)).toEqual(['passkey']);
    expect(enrolledFactors(fold(secondFactorDecider, [started, enrolled, registered('p1', 'Laptop')]))).toEqual(['totp', 'passkey']);
  });

  it('refuses a missing, too long, multi-line or taken name, and the same credential twice', () => {
    given([]).when(register('p1', '   ')).thenThrows('second_factor.passkey_name_required', 'name');
    given([]).when(register('p1', 'x'.repeat(65))).thenThrows('second_factor.passkey_name_too_long', 'name');
    given([]).when(register('p1', 'a\nb')).thenThrows('second_factor.passkey_name_invalid', 'name');
    for (const spoof of ['Work\u202eyek', 'Work\u200bkey', 'Work\u2028x', 'Work\u2029x', 'Work\u2067key', '\u200fWork']) given([]).when(register('p1', spoof)).thenThrows('second_factor.passkey_name_invalid', 'name');
    given([registered('p1', 'Laptop')]).when(register('p2', 'laptop')).thenThrows('second_factor.passkey_name_taken', 'name');
    given([registered('p1', 'Laptop')]).when(register('p2', 'Phone', 'p1')).thenThrows('second_factor.passkey_registered');
  });

  it('renames (to its own name: nothing recorded), and refuses an unknown passkey', () => {
    given([registered('p1', 'Laptop')]).when({ type: 'RenamePasskey', data: { passkeyId: 'p1', name: 'Work laptop', at } }).then([{ type: 'PasskeyRenamed', data: { accountId, passkeyId: 'p1', name: 'Work laptop', at } }]);
    given([registered('p1', 'Laptop')]).when({ type: 'RenamePasskey', data: { passkeyId: 'p1', name: 'Laptop', at } }).then([]);
    given([registered('p1', 'Laptop'), registered('p2', 'Phone')]).when({ type: 'RenamePasskey', data: { passkeyId: 'p1', name: 'PHONE', at } }).thenThrows('second_factor.passkey_name_taken', 'name');
    given([]).when({ type: 'RenamePasskey', data: { passkeyId: 'p1', name: 'x', at } }).thenThrows('second_factor.passkey_not_found');
  });

  it('is used with a growing signature counter; a counter that did not grow is refused like a wrong code', () => {
    given([registered('p1', 'Laptop', 5)]).when(use('p1', 6)).then([{ type: 'PasskeyUsed', data: { accountId, passkeyId: 'p1', counter: 6, at } }]);
    given([registered('p1', 'Laptop', 5)]).when(use('p1', 5)).thenThrows('auth.second_factor_invalid');
    given([registered('p1', 'Laptop', 5)]).when(use('p1', 0)).thenThrows('auth.second_factor_invalid');
    // an authenticator without a counter sends 0 every time
    given([registered('p1', 'Laptop', 0)]).when(use('p1', 0)).then([{ type: 'PasskeyUsed', data: { accountId, passkeyId: 'p1', counter: 0, at } }]);
    given([registered('p1', 'Laptop')]).when(use('p2', 1)).thenThrows('auth.second_factor_invalid');
  });

  it('removes one; keeps the last where the policy requires a factor; the last factor takes the recovery codes', () => {
    given([registered('p1', 'Laptop'), registered('p2', 'Phone')]).when(remove('p1', true)).then([{ type: 'PasskeyRemoved', data: { accountId, passkeyId: 'p1', name: 'Laptop', removedAt: at } }]);
    given([registered('p1', 'Laptop')]).when(remove('p1', true)).thenThrows('second_factor.required');
    given([started, enrolled, registered('p1', 'Laptop')]).when({ type: 'RemoveTotp', data: { required: true, at } }).then([{ type: 'TotpRemoved', data: { accountId, enrolmentId: 'e1', removedAt: at } }]);
    given([]).when(remove('p1')).thenThrows('second_factor.passkey_not_found');
    const removed: SecondFactorEvent = { type: 'PasskeyRemoved', data: { accountId, passkeyId: 'p1', name: 'Laptop', removedAt: at } };
    expect(remainingRecoveryCodes(fold(secondFactorDecider, [registered('p1', 'Laptop'), codesGenerated, removed]))).toBe(0);
  });

  it('an administrator reset removes the passkeys too', () => {
    const reset: SecondFactorCommand = { type: 'ResetSecondFactors', data: { accountId, reason: 'Lost laptop', resetBy: 'admin', at } };
    given([registered('p1', 'Laptop')]).when(reset).then([{ type: 'SecondFactorsReset', data: { accountId, reason: 'Lost laptop', resetBy: 'admin', at } }]);
    expect(fold(secondFactorDecider, [registered('p1', 'Laptop'), { type: 'SecondFactorsReset', data: { accountId, reason: 'x', resetBy: 'admin', at } }]).passkeys).toEqual([]);
  });
});
