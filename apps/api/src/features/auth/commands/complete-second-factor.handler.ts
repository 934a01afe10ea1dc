import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TPasskeyStepInput, TSecondFactorStepInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, invalidSecondFactor } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState } from '../../../platform/commands/handle-command';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { Clock } from '../../../platform/runtime/clock';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import { SecondFactorVerifier } from '../second-factor/second-factor-verifier';
import { SignInChallenges } from '../second-factor/sign-in-challenge';
import { boundToSignIn, PasskeyCeremonies } from '../second-factor/passkey-ceremonies';
import { SignInThrottle } from '../sign-in-throttle';
import { accountMayEnter, startSignedInSession, type SessionSignIn } from './signed-in-session';

export class CompleteSecondFactorCommand {
  constructor(
    readonly input: TSecondFactorStepInput | TPasskeyStepInput,
    readonly context: RequestContext,
    /** the browser's Origin header: the relying party of a passkey when ROLLCALL_PUBLIC_URL is unset */
    readonly origin: string | null = null,
  ) {}
}

/**
 * The code step of a sign-in: the first step's challenge and a TOTP or recovery code, or a passkey's
 * assertion of a WebAuthn challenge handed out for this sign-in challenge (docs/adr/0029). Under the same
 * throttle as the password (per address, per username and address) and the account's lockout: a
 * wrong code is a failed sign-in. The account is read again: locked, disabled, expired or its
 * password changed since the first step, and the challenge no longer opens anything. A challenge
 * opens one session: a step spends it (SignInChallenges.spend) before its code is used, and gives it back
 * when the code is wrong and did not lock the account, so of steps racing with one challenge only one
 * uses its code. Every refusal is the one answer `auth.second_factor_invalid`.
 */
@CommandHandler(CompleteSecondFactorCommand)
export class CompleteSecondFactorHandler implements ICommandHandler<CompleteSecondFactorCommand, CommandOutcome<SessionSignIn>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: SignInThrottle,
    private readonly challenges: SignInChallenges,
    private readonly secondFactors: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  async execute({ input, context, origin }: CompleteSecondFactorCommand): Promise<CommandOutcome<SessionSignIn>> {
    const now = this.clock.now();
    const claims = this.challenges.verify(input.challenge, now);
    // a forged or expired challenge names no account: it counts against the address alone
    const state = claims ? await loadState(this.store, accountDecider, accountStream(claims.accountId)) : null;
    const username = state?.status === 'created' ? state.username : '';
    const attempt = await this.throttle.attempt(username, context.sourceIp);
    try {
      if (!claims || state?.status !== 'created' || !this.challenges.matchesPassword(claims, state.passwordHash) || !accountMayEnter(state, now)) throw invalidSecondFactor();
      // a challenge opens one session at most (review R24b F5), and it is spent before any code is used
      // (review R24c G4): of steps racing with one challenge only the one that spent it uses its code, the
      // others are refused with theirs untouched; a wrong code gives the challenge back, unless it locked the account
      if (!(await this.challenges.spend(input.challenge, claims, now))) throw invalidSecondFactor();
      const actingAsSelf: RequestContext = { ...context, actor: state.id, actorKind: 'account' };
      const account = { id: state.id, policyId: state.policyId };
      let used;
      try {
        used =
          'passkey' in input
            ? await this.secondFactors.verifyPasskey(account, input.passkey, this.ceremonies.relyingParty(origin), 'second_factor', boundToSignIn(input.challenge), actingAsSelf)
            : await this.secondFactors.verify(account, input.code, actingAsSelf);
      } catch (error) {
        // this wrong code locked the account: the challenge stays spent, the lock's end does not revive it
        const locked = error instanceof DomainError && error.code === 'auth.second_factor_invalid' && (await this.lockedNow(state.id));
        if (!locked) await this.challenges.release(input.challenge);
        throw error;
      }
      const policy = state.policyId ? await this.db.selectFrom('password_policies_v2').select(['max_age']).where('id', '=', state.policyId).executeTakeFirst() : undefined;
      const outcome = await startSignedInSession({ store: this.store, clock: this.clock, config: this.config }, state, { maxAgeDays: policy?.max_age ?? null, secondFactorEnrolmentRequired: false, amr: used.method === 'passkey' ? ['pwd', 'hwk', 'user'] : ['pwd', 'otp'], recoveryCodesRemaining: used.recoveryCodesRemaining }, actingAsSelf);
      await attempt.succeeded();
      return outcome;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'auth.invalid_credentials') {
        // the account was locked or its password changed by a parallel call: the challenge is void
        throw invalidSecondFactor();
      }
      if (!(error instanceof DomainError && error.code === 'auth.second_factor_invalid')) await attempt.release();
      throw error;
    }
  }

  private async lockedNow(accountId: string): Promise<boolean> {
    const latest = await loadState(this.store, accountDecider, accountStream(accountId));
    return latest.status === 'created' && !accountMayEnter(latest, this.clock.now());
  }
}
