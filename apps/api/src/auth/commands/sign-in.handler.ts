import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCOUNT_STATUS, type TAuthenticateInput } from '@rollcall/contracts';
import { accountDecider, accountStream, DomainError, sessionDecider, sessionStream } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import { handleCommand } from '../../application/aggregate-repository';
import type { Clock } from '../../application/clock';
import type { RequestContext } from '../../application/request-context';
import { newAggregateId } from '../../application/ids';
import type { AppConfig } from '../../config/app-config';
import type { CommandOutcome } from '../../core/command-gateway';
import { PasswordHasher } from '../../core/password-hasher';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_DB } from '../../core/tokens';
import type { EventStore } from '../../event-store/event-store.port';
import type { ReadDatabase } from '../../read-db/read-database';
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
}

/** Unknown, disabled, expired and wrong-password sign-ins all get the same answer. */
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
    const account = await this.db
      .selectFrom('accounts_v1')
      .select(['id', 'password_hash', 'status_id', 'expires_at'])
      .where('username_lower', '=', input.username.toLowerCase())
      .executeTakeFirst();
    const passwordMatches = await this.hasher.verify(account?.password_hash ?? null, input.password);
    const now = this.clock.now();
    const expired = account?.expires_at != null && account.expires_at <= now.toISOString();
    if (!account || !passwordMatches || expired || account.status_id === ACCOUNT_STATUS.disabled) throw invalidCredentials();

    const sessionId = newAggregateId();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + this.config.sessionHours * 3_600_000).toISOString();
    const actingAsSelf: RequestContext = { ...context, actor: account.id, actorKind: 'account' };
    await handleCommand(this.store, this.clock, sessionDecider, sessionStream(sessionId), {
      type: 'StartSession',
      data: { sessionId, accountId: account.id, tokenHash: hashToken(token), startedAt: now.toISOString(), expiresAt },
    }, actingAsSelf);
    const signedIn = await handleCommand(this.store, this.clock, accountDecider, accountStream(account.id), { type: 'RecordSignIn', data: { sessionId, at: now.toISOString() } }, actingAsSelf);
    return { value: { token, accountId: account.id, expiresAt }, position: signedIn.position };
  }
}
