import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@rollcall/domain';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/runtime/clock';
import type { RequestContext } from '../../../platform/commands/request-context';
import type { CommandOutcome } from '../../../platform/commands/command-gateway';
import { comparePositions, START, type Position } from '../../../platform/event-store/event-store.port';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { SignOutCommand } from '../../auth/commands/sign-out.handler';
import { RevokeApplicationConsentCommand } from '../../oidc/commands/revoke-application-consent.handler';
import { endAccountProviderSessions, revokeAccountTokens, signedInApplications } from '../../oidc/oidc-revocations';

export class SignOutOwnSessionsCommand {
  constructor(
    /** the signed-in account: only its own sessions are ever ended */
    readonly accountId: string,
    /** the session asking: never ended here (Log out ends it) */
    readonly currentSessionId: string,
    /** one session by id, or every other one */
    readonly which: { sessionId: string } | 'others',
    readonly context: RequestContext,
  ) {}
}

/**
 * Signs out one of the account's own sessions, or all but the one asking, through the auth feature's
 * own SignOut command, so each is a SessionEnded in that session's history with the account as its
 * actor, and the credential cache that HTTP and the WebSocket share forgets it at once. A session of
 * another account answers exactly like one that does not exist. Every other one also ends the
 * account's OpenID Connect codes and tokens issued until now and its browser sessions at the provider
 * (applications and browsers sign in again); `signed_out` counts the applications signed in until then
 * (as the own sessions page lists them) beside the sessions.
 */
@CommandHandler(SignOutOwnSessionsCommand)
export class SignOutOwnSessionsHandler implements ICommandHandler<SignOutOwnSessionsCommand, CommandOutcome<{ signed_out: number }>> {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, currentSessionId, which, context }: SignOutOwnSessionsCommand): Promise<CommandOutcome<{ signed_out: number }>> {
    let query = this.db
      .selectFrom('sessions_v1')
      .select('id')
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', this.clock.now().toISOString());
    if (which !== 'others') {
      if (which.sessionId === currentSessionId) throw new DomainError('request.invalid', 'This is the session you are using: sign it out with Log out', 'id');
      query = query.where('id', '=', which.sessionId);
    }
    const ids = (await query.execute()).map((row) => row.id).filter((id) => id !== currentSessionId);
    // every other sign-in includes the applications': their codes and tokens issued until now go (review R24b, F2),
    // and the browsers' sessions at the provider, which would otherwise give new ones at once (review R24c, G1)
    let applications = 0;
    if (which === 'others') {
      applications = (await signedInApplications(this.db, accountId, this.clock.now())).length;
      await revokeAccountTokens(this.db, accountId, this.clock.now());
      await endAccountProviderSessions(this.db, accountId);
    }
    if (which !== 'others' && !ids.length) return this.signOutApplication(accountId, which.sessionId, context);
    let last: Position | null = null;
    for (const sessionId of ids) {
      const outcome = await this.commandBus.execute<SignOutCommand, CommandOutcome<{ ok: true }>>(new SignOutCommand(sessionId, context));
      if (!last || comparePositions(outcome.position, last) > 0) last = outcome.position;
    }
    return { value: { signed_out: ids.length + applications }, position: last ?? START };
  }

  /**
   * An application signed in through OpenID Connect (ListOwnSessions lists it by its id): signing it
   * out revokes the account's consent to it with the OpenID Connect feature's own command, which
   * ends its grants and tokens now (ApplicationConsentRevoked in the account's history).
   */
  private async signOutApplication(accountId: string, applicationId: string, context: RequestContext): Promise<CommandOutcome<{ signed_out: number }>> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const live = await this.db
      .selectFrom('oidc_store')
      .select('id')
      .where('account_id', '=', accountId)
      .where('client_id', '=', applicationId)
      .where('model', 'in', ['AccessToken', 'RefreshToken'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowSeconds)]))
      .executeTakeFirst();
    if (!live) throw new DomainError('session.not_found', 'Session not found', 'id');
    const outcome = await this.commandBus.execute<RevokeApplicationConsentCommand, CommandOutcome<{ ok: true }>>(new RevokeApplicationConsentCommand(accountId, applicationId, context));
    return { value: { signed_out: 1 }, position: outcome.position };
  }
}
