import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS, type TAuthenticateInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, sessionDecider, sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, handleCommandRetrying, loadState } from '../../../platform/commands/handle-command';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import { newAggregateId } from '../../../platform/runtime/ids';
import type { AppConfig } from '../../../platform/config/app-config';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { PasswordHasher } from '../../../platform/passwords/password-hasher';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../../platform/tokens';
import type { EventStore } from '../../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { accountExpired, passwordChangeRequired as needsPasswordChange } from '../queries/resolve-session.query';
import { hashToken, newSessionToken } from '../../../platform/access/session-token';
import { lockoutRule, recordWrongPassword } from '../password-attempts';
import { SignInThrottle } from '../sign-in-throttle';

export class SignInCommand {
  constructor(
    readonly input: TAuthenticateInput,
    readonly context: RequestContext,
  ) {}
}

export interface SignInResult {
  token: string;
  accountId: string;
  expiresAt: string;
  /** the session may only change the password (status 3 or an aged password) */
  passwordChangeRequired: boolean;
}

/**
 * Unknown, locked, disabled, expired and wrong-password sign-ins all get the same answer; a throttled
 * one gets 429 `rate.limited`, decided before the account is looked up (sign-in-throttle.ts).
 */
const invalidCredentials = () => new DomainError('auth.invalid_credentials', 'Wrong username or password');

@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, CommandOutcome<SignInResult>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
  ) {}

  async execute({ input, context }: SignInCommand): Promise<CommandOutcome<SignInResult>> {
    // before any lookup or hash: a throttled attempt costs nothing and tells nothing about the account
    const attempt = await this.throttle.attempt(input.username, context.sourceIp);
    try {
      const outcome = await this.signIn(input, context);
      await attempt.succeeded();
      return outcome;
    } catch (error) {
      // only refused credentials count against the throttle; our own faults (storage down) do not
      if (!(error instanceof DomainError && error.code === 'auth.invalid_credentials')) await attempt.release();
      throw error;
    }
  }

  private async signIn(input: TAuthenticateInput, context: RequestContext): Promise<CommandOutcome<SignInResult>> {
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

    const sessionId = newAggregateId();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + this.config.sessionHours * 3_600_000).toISOString();
    await handleCommand(this.store, this.clock, sessionDecider, sessionStream(sessionId), {
      type: 'StartSession',
      data: { sessionId, accountId: account.id, tokenHash: hashToken(token), startedAt: at, expiresAt },
    }, actingAsSelf);
    let signedIn;
    try {
      signedIn = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(account.id), { type: 'RecordSignIn', data: { sessionId, at, passwordHash: account.passwordHash } }, actingAsSelf);
    } catch (error) {
      // locked, or the password changed (which ends every session of the old one), by a parallel call
      // since we looked: the session just started never reaches the client, and is ended; the same
      // answer as any refusal
      if (error instanceof DomainError && (error.code === 'account.locked' || error.code === 'account.password_changed')) {
        await handleCommandRetrying(this.store, this.clock, sessionDecider, sessionStream(sessionId), { type: 'EndSession', data: { endedAt: at, reason: 'revoked' } }, actingAsSelf);
        throw invalidCredentials();
      }
      throw error;
    }
    const passwordChangeRequired = needsPasswordChange(account.statusId, account.passwordChangedAt, policy?.max_age ?? null, now);
    return { value: { token, accountId: account.id, expiresAt, passwordChangeRequired }, position: signedIn.position };
  }
}
