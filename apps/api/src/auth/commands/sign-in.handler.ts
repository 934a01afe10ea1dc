import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS, type TAuthenticateInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, sessionDecider, sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand, handleCommandRetrying, loadState } from '../../application/aggregate-repository';
import type { Clock } from '../../application/clock';
import type { RequestContext } from '../../application/request-context';
import { newAggregateId } from '../../application/ids';
import type { AppConfig } from '../../config/app-config';
import type { CommandOutcome } from '../../core/command-gateway';
import { PasswordHasher } from '../../core/password-hasher';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../core/tokens';
import type { EventStore } from '../../event-store/event-store.port';
import type { ReadDatabase } from '../../read-db/read-database';
import { passwordChangeRequired as needsPasswordChange } from '../queries/resolve-session.query';
import { hashToken, newSessionToken } from '../session-token';

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

/** Unknown, locked, disabled, expired and wrong-password sign-ins all get the same answer. */
const invalidCredentials = () => new DomainError('auth.invalid_credentials', 'Wrong username or password');

@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, CommandOutcome<SignInResult>> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute({ input, context }: SignInCommand): Promise<CommandOutcome<SignInResult>> {
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
      if (policy && policy.lockout > 0) {
        // parallel wrong attempts each re-decide on the latest stream: exactly `lockout` count before the lock
        await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(account.id), {
          type: 'RecordFailedSignIn',
          data: { at, lockoutAttempts: policy.lockout, lockoutDurationSeconds: policy.lockout_duration },
        }, actingAsSelf);
      }
      throw invalidCredentials();
    }
    const expired = account.expiresAt != null && account.expiresAt <= at;
    if (expired || account.statusId === ACCOUNT_STATUS.disabled) throw invalidCredentials();

    const sessionId = newAggregateId();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + this.config.sessionHours * 3_600_000).toISOString();
    await handleCommand(this.store, this.clock, sessionDecider, sessionStream(sessionId), {
      type: 'StartSession',
      data: { sessionId, accountId: account.id, tokenHash: hashToken(token), startedAt: at, expiresAt },
    }, actingAsSelf);
    let signedIn;
    try {
      signedIn = await handleCommandRetrying(this.store, this.clock, accountDecider, accountStream(account.id), { type: 'RecordSignIn', data: { sessionId, at } }, actingAsSelf);
    } catch (error) {
      // locked by a parallel attempt since we looked: the same answer as any refusal
      if (error instanceof DomainError && error.code === 'account.locked') throw invalidCredentials();
      throw error;
    }
    const passwordChangeRequired = needsPasswordChange(account.statusId, account.passwordChangedAt, policy?.max_age ?? null, now);
    return { value: { token, accountId: account.id, expiresAt, passwordChangeRequired }, position: signedIn.position };
  }
}
