import { Inject } from '@nestjs/common';
import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { TPasskeyOptions, TPasskeySignInInput } from '@rollcall/contracts';
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
import { boundToSignIn, PasskeyCeremonies, userHandleOf } from '../second-factor/passkey-ceremonies';
import { SecondFactorVerifier } from '../second-factor/second-factor-verifier';
import { SignInChallenges } from '../second-factor/sign-in-challenge';
import { SignInThrottle } from '../sign-in-throttle';
import { accountMayEnter, startSignedInSession, type SessionSignIn } from './signed-in-session';

const noPosition = { commit: 0, sequence: 0 };

export class PasskeyStepOptionsCommand {
  constructor(
    readonly challenge: string,
    readonly origin: string | null,
    readonly context: RequestContext,
  ) {}
}

/**
 * Options for the second step with a passkey: the first step's challenge (signed, unexpired) names
 * the account, whose passkeys are allowed; the WebAuthn challenge is bound to it, so an assertion
 * answers this sign-in only. A challenge that does not hold is the one `auth.second_factor_invalid`,
 * checked as the step itself does (review R24c): spent, voided by a password change, or its account
 * no longer able to sign in (locked, disabled, expired), it gives no credential ids and stores no ceremony.
 */
@CommandHandler(PasskeyStepOptionsCommand)
export class PasskeyStepOptionsHandler implements ICommandHandler<PasskeyStepOptionsCommand, CommandOutcome<TPasskeyOptions>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly challenges: SignInChallenges,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  async execute({ challenge, origin }: PasskeyStepOptionsCommand): Promise<CommandOutcome<TPasskeyOptions>> {
    const rp = this.ceremonies.relyingParty(origin);
    const now = this.clock.now();
    const claims = this.challenges.verify(challenge, now);
    if (!claims) throw invalidSecondFactor();
    const account = await loadState(this.store, accountDecider, accountStream(claims.accountId));
    if (account.status !== 'created' || !this.challenges.matchesPassword(claims, account.passwordHash) || !accountMayEnter(account, now)) throw invalidSecondFactor();
    if (await this.challenges.spent(challenge)) throw invalidSecondFactor();
    const state = await this.verifier.state(claims.accountId);
    if (!state.passkeys.length) throw invalidSecondFactor();
    return { value: { options: await this.ceremonies.authenticationOptions(rp, state.passkeys, 'second_factor', boundToSignIn(challenge)) }, position: noPosition };
  }
}

export class PasskeySignInOptionsCommand {
  constructor(
    readonly origin: string | null,
    readonly context: RequestContext,
  ) {}
}

export const passkeySignInNotAllowed = () => new DomainError('auth.passkey_sign_in_not_allowed', 'Your password policy does not allow signing in with a passkey alone: sign in with your password');

/**
 * Options for a sign-in with a passkey alone: no account named, the browser offers its discoverable
 * passkeys for this site. Anonymous and it keeps a challenge, so (R24 finding 6) it answers only
 * where a policy offers the sign-in (403 otherwise), and each call takes a point of the address's
 * sign-in throttle before anything is written: a flood answers 429.
 */
@CommandHandler(PasskeySignInOptionsCommand)
export class PasskeySignInOptionsHandler implements ICommandHandler<PasskeySignInOptionsCommand, CommandOutcome<TPasskeyOptions>> {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly throttle: SignInThrottle,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
  ) {}

  async execute({ origin, context }: PasskeySignInOptionsCommand): Promise<CommandOutcome<TPasskeyOptions>> {
    const rp = this.ceremonies.relyingParty(origin);
    await this.throttle.ceremony(context.sourceIp);
    if (!(await passkeySignInOffered(this.db))) throw passkeySignInNotAllowed();
    return { value: { options: await this.ceremonies.authenticationOptions(rp, null, 'passwordless', '') }, position: noPosition };
  }
}

export class SignInWithPasskeyCommand {
  constructor(
    readonly input: TPasskeySignInInput,
    readonly origin: string | null,
    readonly context: RequestContext,
  ) {}
}

/**
 * A sign-in with a passkey alone (docs/adr/0029), where the account's password policy allows it: the
 * assertion's user handle names the account (its id, given at registration), its credential must be
 * one of that account's passkeys, and the authenticator must have verified its user (PIN or
 * biometrics), so it is two factors in one (RFC 8176 `hwk`, `user`, `mfa`). Under the sign-in
 * throttle (per address) and the account's lockout like a code; locked, disabled or expired accounts
 * are refused like any refused passkey.
 */
@CommandHandler(SignInWithPasskeyCommand)
export class SignInWithPasskeyHandler implements ICommandHandler<SignInWithPasskeyCommand, CommandOutcome<SessionSignIn>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: SignInThrottle,
    private readonly verifier: SecondFactorVerifier,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  async execute({ input, origin, context }: SignInWithPasskeyCommand): Promise<CommandOutcome<SessionSignIn>> {
    const rp = this.ceremonies.relyingParty(origin);
    const accountId = userHandleOf(input.passkey);
    const row = accountId ? await this.db.selectFrom('passkeys_v1').select(['account_id']).where('credential_id', '=', input.passkey.id).where('account_id', '=', accountId).executeTakeFirst() : undefined;
    const state = row ? await loadState(this.store, accountDecider, accountStream(row.account_id)) : null;
    const account = state?.status === 'created' ? state : null;
    const attempt = await this.throttle.attempt(account?.username ?? '', context.sourceIp);
    try {
      const now = this.clock.now();
      if (!account || !accountMayEnter(account, now)) throw invalidSecondFactor();
      const actingAsSelf: RequestContext = { ...context, actor: account.id, actorKind: 'account' };
      // the assertion first, the policy after (R24 finding 7): a forged one answers as any refused passkey, never what the policy says
      await this.verifier.verifyPasskey({ id: account.id, policyId: account.policyId }, input.passkey, rp, 'passwordless', '', actingAsSelf);
      const allowed = account.policyId ? await this.db.selectFrom('password_policy_passkey_sign_in_v1').select('policy_id').where('policy_id', '=', account.policyId).executeTakeFirst() : undefined;
      if (!allowed) throw passkeySignInNotAllowed();
      const policy = await this.db.selectFrom('password_policies_v2').select(['max_age']).where('id', '=', account.policyId!).executeTakeFirst();
      const outcome = await startSignedInSession({ store: this.store, clock: this.clock, config: this.config }, account, { maxAgeDays: policy?.max_age ?? null, secondFactorEnrolmentRequired: false, amr: ['hwk', 'user', 'mfa'], recoveryCodesRemaining: null }, actingAsSelf);
      await attempt.succeeded();
      await this.throttle.ceremonyUsed(context.sourceIp);
      return outcome;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'auth.invalid_credentials') throw invalidSecondFactor();
      // a refused passkey and a refused policy count alike; only a fault of ours gives the point back
      if (!(error instanceof DomainError && (error.code === 'auth.second_factor_invalid' || error.code === 'auth.passkey_sign_in_not_allowed'))) await attempt.release();
      throw error;
    }
  }
}

export class PasskeySignInOfferedQuery {}

/** Is a sign-in with a passkey alone open to anyone (a policy allows it)? The sign-in page shows its button then. */
@QueryHandler(PasskeySignInOfferedQuery)
export class PasskeySignInOfferedHandler implements IQueryHandler<PasskeySignInOfferedQuery, { offered: boolean }> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  async execute(): Promise<{ offered: boolean }> {
    return { offered: await passkeySignInOffered(this.db) };
  }
}

async function passkeySignInOffered(db: Kysely<ReadDatabase>): Promise<boolean> {
  return Boolean(await db.selectFrom('password_policy_passkey_sign_in_v1').select('policy_id').limit(1).executeTakeFirst());
}
