import { Inject, Injectable } from '@nestjs/common';
import type { TSecondFactorConfirmation, TWebAuthnResponse } from '@rollcall/contracts';
import { DomainError, enrolledFactors, invalidSecondFactor, remainingRecoveryCodes, secondFactorDecider, secondFactorStream, totpStepAt, type SecondFactorState } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommandRetrying, loadState } from '../../../platform/commands/handle-command';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { lockoutRule, recordWrongPassword } from '../password-attempts';
import { PasskeyCeremonies, type CeremonyPurpose, type RelyingParty } from './passkey-ceremonies';
import { hashRecoveryCode } from './recovery-codes';
import { asTotpCode, matchingTotpStep } from './totp-codes';
import { TotpSecretBox } from './totp-secret-box';

export interface SecondFactorUse {
  /** RFC 8176 method: `otp` for both a TOTP code and a recovery code (a one-time password either way), `hwk` for a passkey */
  method: 'totp' | 'recovery_code' | 'passkey';
  /** after a recovery code: how many remain */
  recoveryCodesRemaining: number | null;
}

/**
 * The code step of every sign-in path (console, REST, OpenID Connect): a TOTP code or a recovery
 * code, checked against the account's second-factor stream. A refused code is a failed sign-in of
 * the account (SignInFailed, then AccountLocked at the policy's limit: password-attempts.ts), so
 * guessing codes runs into the same lockout as guessing passwords; the sign-in throttle is taken by
 * the caller before this runs.
 */
@Injectable()
export class SecondFactorVerifier {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: TotpSecretBox,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  state(accountId: string): Promise<SecondFactorState> {
    return loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
  }

  /** what the account can answer the second step with */
  methodsOf(state: SecondFactorState): Array<'totp' | 'passkey' | 'recovery_code'> {
    return [...enrolledFactors(state), ...(remainingRecoveryCodes(state) > 0 ? (['recovery_code'] as const) : [])];
  }

  async verify(account: { id: string; policyId: string | null }, code: string, context: RequestContext): Promise<SecondFactorUse> {
    const now = this.clock.now();
    const at = now.toISOString();
    try {
      const totpCode = asTotpCode(code);
      if (totpCode) {
        const state = await this.state(account.id);
        const totp = state.totp?.confirmed ? state.totp : null;
        const secret = totp ? this.box.open(account.id, totp.enrolmentId, totp.sealedSecret) : null;
        const step = secret ? matchingTotpStep(secret, totpCode, now) : null;
        if (step === null) throw invalidSecondFactor();
        // re-decided on the latest stream: of two requests with one code, one wins and the other is refused
        await handleCommandRetrying(this.store, this.clock, secondFactorDecider, secondFactorStream(account.id), { type: 'UseTotp', data: { step, currentStep: totpStepAt(at), at } }, context);
        return { method: 'totp', recoveryCodesRemaining: null };
      }
      const used = await handleCommandRetrying(this.store, this.clock, secondFactorDecider, secondFactorStream(account.id), { type: 'UseRecoveryCode', data: { codeHash: hashRecoveryCode(account.id, code), at } }, context);
      const event = used.events[0];
      return { method: 'recovery_code', recoveryCodesRemaining: event?.type === 'RecoveryCodeUsed' ? event.data.remaining : null };
    } catch (error) {
      await this.countFailure(account, error, at, context);
      throw error;
    }
  }

  /**
   * A passkey's assertion instead of a code: checked (SimpleWebAuthn) against a challenge handed out
   * for `purpose` and bound to `boundTo`, then its signature counter re-decided on the latest stream.
   * A refused assertion counts like a wrong code (the lockout, SignInFailed).
   */
  async verifyPasskey(account: { id: string; policyId: string | null }, response: TWebAuthnResponse, rp: RelyingParty, purpose: Exclude<CeremonyPurpose, 'register'>, boundTo: string, context: RequestContext): Promise<SecondFactorUse & { userVerified: boolean }> {
    const at = this.clock.now().toISOString();
    try {
      const state = await this.state(account.id);
      const { passkey, counter, userVerified } = await this.ceremonies.verifyAuthentication(rp, response, state.passkeys, purpose, boundTo);
      await handleCommandRetrying(this.store, this.clock, secondFactorDecider, secondFactorStream(account.id), { type: 'UsePasskey', data: { passkeyId: passkey.passkeyId, counter, at } }, context);
      return { method: 'passkey', recoveryCodesRemaining: null, userVerified };
    } catch (error) {
      await this.countFailure(account, error, at, context);
      throw error;
    }
  }

  /**
   * A current second factor before one is removed or the recovery codes replaced, on one's own page:
   * a code, or a passkey's assertion of a challenge bound to this session. Wrong: a failed sign-in
   * (the lockout counts it), answered as `second_factor.confirmation_invalid` under `code` (the
   * session stays signed in).
   */
  async confirm(account: { id: string; policyId: string | null }, confirmation: TSecondFactorConfirmation | undefined, rp: () => RelyingParty, sessionId: string, context: RequestContext): Promise<void> {
    if (!confirmation?.code && !confirmation?.passkey) {
      throw new DomainError('second_factor.confirmation_required', 'Confirm with a current code (or a passkey) first', 'code');
    }
    try {
      if (confirmation.passkey) await this.verifyPasskey(account, confirmation.passkey, rp(), 'confirm', sessionId, context);
      else await this.verify(account, confirmation.code!, context);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'auth.second_factor_invalid') {
        throw new DomainError('second_factor.confirmation_invalid', 'This code or passkey is not valid: try again', 'code');
      }
      throw error;
    }
  }

  private async countFailure(account: { id: string; policyId: string | null }, error: unknown, at: string, context: RequestContext): Promise<void> {
    if (error instanceof DomainError && error.code === 'auth.second_factor_invalid') {
      const policy = account.policyId ? await this.db.selectFrom('password_policies_v2').select(['lockout', 'lockout_duration']).where('id', '=', account.policyId).executeTakeFirst() : undefined;
      await recordWrongPassword(this.store, this.clock, account.id, lockoutRule(policy, this.config), at, context);
    }
  }
}
