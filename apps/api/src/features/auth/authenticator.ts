import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ACCESS_TOKEN_PREFIX, READER_TOKEN_PREFIX } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';
import type { Clock } from '../../platform/runtime/clock';
import { CLOCK } from '../../platform/tokens';
import { addressAllowed, clientAddressOf } from '../../platform/http/client-address';
import { credentialFrom } from '../../platform/http/request-context.factory';
import type { Authentication, CallerAuthentication } from '../../platform/access/caller-access';
import type { SessionPrincipal, TokenPrincipal } from '../../platform/access/principal';
import { ResolveAccessTokenQuery } from './queries/resolve-access-token.query';
import { ResolveSessionQuery } from './queries/resolve-session.query';
import type { ResolvedCredential } from './credential-cache';
import { SessionActivityRecorder } from './session-activity-recorder';
import { TokenUsageRecorder } from './token-usage-recorder';


const anonymous: Authentication = { principal: null, refusal: null };

/**
 * Turns the bearer header or the session cookie into a principal, for REST (AuthGuard), tRPC and
 * WebSocket upgrades alike. Access tokens are recognised by their prefix; their expiry and IP
 * restrictions are checked on every request, their use is noted for `last_used_at`; a session's
 * call is noted for its 'last seen' (session-activity-recorder.ts: in memory, written in batches).
 */
@Injectable()
export class Authenticator implements CallerAuthentication {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly usage: TokenUsageRecorder,
    private readonly sessions: SessionActivityRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  resolveSession(token: string): Promise<SessionPrincipal | null> {
    return this.queryBus.execute<ResolveSessionQuery, SessionPrincipal | null>(new ResolveSessionQuery(token));
  }

  noteSession(principal: SessionPrincipal, request: IncomingMessage): void {
    this.sessions.noteRequest(principal, request);
  }

  async authenticate(request: IncomingMessage): Promise<Authentication> {
    const credential = credentialFrom(request);
    if (!credential) return anonymous;
    // a door reader's token is checked by the reader routes themselves (docs/readers.md): it is no session
    if (credential.token.startsWith(READER_TOKEN_PREFIX)) return anonymous;
    if (!credential.token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const session = await this.resolveSession(credential.token);
      if (!session) return anonymous;
      this.sessions.noteRequest(session, request);
      return { principal: session, refusal: null };
    }
    const resolved = await this.queryBus.execute<ResolveAccessTokenQuery, ResolvedCredential<TokenPrincipal> | null>(new ResolveAccessTokenQuery(credential.token));
    if (!resolved) return anonymous;
    const now = this.clock.now();
    if (resolved.expiresAt !== null && Date.parse(resolved.expiresAt) <= now.getTime()) {
      return { principal: null, refusal: new DomainError('auth.token_expired', 'This access token has expired') };
    }
    const address = clientAddressOf(request);
    if (!addressAllowed(address, resolved.restrictions)) {
      return { principal: null, refusal: new DomainError('auth.address_not_allowed', `This access token may not be used from ${address ?? 'an unknown address'}`) };
    }
    this.usage.noteUse(resolved.principal.tokenId, now.toISOString());
    return { principal: resolved.principal, refusal: null };
  }
}
