import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TAuthenticateWithCodeInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, hasSecondFactor } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { AppConfig } from '../../../platform/config/app-config';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { PasswordHasher } from '../../../platform/passwords/password-hasher';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { accountExpired } from '../queries/resolve-session.query';
import { lockoutRule, recordWrongPassword } from '../password-attempts';
import { SignInThrottle } from '../sign-in-throttle';
import { SignInChallenges } from '../second-factor/sign-in-challenge';
import { secondFactorRequiredFor } from '../second-factor/second-factor-requirement';
import { SecondFactorVerifier } from '../second-factor/second-factor-verifier';
import { ACCOUNT_STATUS } from '@rollcall/contracts';
import { invalidCredentials, startSignedInSession, type SignInResult } from './signed-in-session';

export type { SignInResult, SessionSignIn, SecondFactorRequired } from './signed-in-session';

export class SignInCommand {
  constructor(
    readonly input: TAuthenticateWithCodeInput,
    readonly context: RequestContext,
  ) {}
}

/**
 * The password step of every sign-in path (REST v1, v2, /api, tRPC `auth.signIn`, the OpenID
 * Connect login). An account with a second factor gets no session from the password alone: it gets
 * a challenge to answer with a code (commands/complete-second-factor.handler.ts), unless the code
 * came with the password (one call for scripts). Unknown, locked, disabled, expired and
 * wrong-password sign-ins all get the same answer (invalidCredentials), and the challenge is only
 * ever handed out after the right password to an account that may sign in.
 */
@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, CommandOutcome<SignInResult>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
    private readonly challenges: SignInChallenges,
    private readonly secondFactors: SecondFactorVerifier,
  ) {}

  async execute({ input, context }: SignInCommand): Promise<CommandOutcome<SignInResult>> {
    // before any lookup or hash: a throttled attempt costs nothing and tells nothing about the account
    const attempt = await this.throttle.attempt(input.username, context.sourceIp);
    try {
      const outcome = await this.signIn(input, context);
      await attempt.succeeded();
      return outcome;
    } catch (error) {
      // only refused credentials (a password or a code) count against the throttle; our own faults (storage down) do not
      if (!(error instanceof DomainError && (error.code === 'auth.invalid_credentials' || error.code === 'auth.second_factor_invalid'))) await attempt.release();
      throw error;
    }
  }

  private async signIn(input: TAuthenticateWithCodeInput, context: RequestContext): Promise<CommandOutcome<SignInResult>> {
    const row = await this.db.selectFrom('accounts_v2').select(['id']).where('username_lower', '=', input.username.toLowerCase()).executeTakeFirst();
    // the stream, not the read model, is the truth for the lock, the failure count and the hash
    const state = row ? await loadState(this.store, accountDecider, accountStream(row.id)) : null;
    const account = state?.status === 'created' ? state : null;
    const passwordMatches = await this.hasher.verify(account?.passwordHash ?? null, input.password);
    const now = this.clock.now();
    const at = now.toISOString();
    if (!account) throw invalidCredentials();
    const actingAsSelf: RequestContext = { ...context, actor: account.id, actorKind: 'account' };
    if (account.lockedUntil !== null && account.lockedUntil > at) throw invalidCredentials();
    const policy = account.policyId
      ? await this.db.selectFrom('password_policies_v2').select(['max_age', 'lockout', 'lockout_duration']).where('id', '=', account.policyId).executeTakeFirst()
      : undefined;
    if (!passwordMatches) {
      // every account is under a lockout (password-attempts.ts, shared with the own change's current password)
      await recordWrongPassword(this.store, this.clock, account.id, lockoutRule(policy, this.config), at, actingAsSelf);
      throw invalidCredentials();
    }
    if (accountExpired(account.expiresAt, now) || account.statusId === ACCOUNT_STATUS.disabled) throw invalidCredentials();

    const factors = await this.secondFactors.state(account.id);
    const deps = { store: this.store, clock: this.clock, config: this.config };
    if (hasSecondFactor(factors)) {
      if (!input.code) {
        const { challenge, expiresAt } = this.challenges.issue(account.id, account.passwordHash, now);
        return { value: { kind: 'second_factor_required', accountId: account.id, challenge, methods: this.secondFactors.methodsOf(factors), expiresAt }, position: { commit: 0, sequence: 0 } };
      }
      const used = await this.secondFactors.verify({ id: account.id, policyId: account.policyId }, input.code, actingAsSelf);
      return startSignedInSession(deps, account, { maxAgeDays: policy?.max_age ?? null, secondFactorEnrolmentRequired: false, amr: ['pwd', 'otp'], recoveryCodesRemaining: used.recoveryCodesRemaining }, actingAsSelf);
    }
    const secondFactorEnrolmentRequired = await secondFactorRequiredFor(this.db, account.id, account.policyId);
    return startSignedInSession(deps, account, { maxAgeDays: policy?.max_age ?? null, secondFactorEnrolmentRequired, amr: ['pwd'], recoveryCodesRemaining: null }, actingAsSelf);
  }
}
