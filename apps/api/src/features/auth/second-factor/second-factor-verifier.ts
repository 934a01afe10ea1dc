import { Inject, Injectable } from '@nestjs/common';
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
import { hashRecoveryCode } from './recovery-codes';
import { asTotpCode, matchingTotpStep } from './totp-codes';
import { TotpSecretBox } from './totp-secret-box';

export interface SecondFactorUse {
  /** RFC 8176 method: `otp` for both a TOTP code and a recovery code (a one-time password either way) */
  method: 'totp' | 'recovery_code';
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
  ) {}

  state(accountId: string): Promise<SecondFactorState> {
    return loadState(this.store, secondFactorDecider, secondFactorStream(accountId));
  }

  /** what the account can answer the second step with */
  methodsOf(state: SecondFactorState): Array<'totp' | 'recovery_code'> {
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
      if (error instanceof DomainError && error.code === 'auth.second_factor_invalid') {
        const policy = account.policyId ? await this.db.selectFrom('password_policies_v2').select(['lockout', 'lockout_duration']).where('id', '=', account.policyId).executeTakeFirst() : undefined;
        await recordWrongPassword(this.store, this.clock, account.id, lockoutRule(policy, this.config), at, context);
      }
      throw error;
    }
  }
}
