import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parse as parseCookies } from 'cookie';
import { SESSION_COOKIE } from '@rollcall/contracts';
import type { RequestContext } from '../commands/request-context';
import type { Principal } from '../access/principal';
import { clientAddressOf } from './client-address';

const CORRELATION_HEADER = 'x-correlation-id';

/** The bearer header wins; the user_session cookie is the fallback (spec: request setup). */
export function credentialFrom(request: IncomingMessage): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return { token: header.slice(7).trim(), via: 'bearer' };
  const cookies = request.headers.cookie ? parseCookies(request.headers.cookie) : {};
  const cookie = cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/**
 * The request's correlation id: the caller's X-Correlation-Id when well formed, else one made here;
 * kept on the request so the events, the access log and the answer's header all carry the same.
 */
export function correlationIdOf(request: IncomingMessage): string {
  const held = request as IncomingMessage & { rollcallCorrelationId?: string };
  if (held.rollcallCorrelationId) return held.rollcallCorrelationId;
  const supplied = request.headers[CORRELATION_HEADER];
  held.rollcallCorrelationId = typeof supplied === 'string' && /^[\w.:-]{1,100}$/.test(supplied) ? supplied : randomUUID();
  return held.rollcallCorrelationId;
}

export function requestContext(request: IncomingMessage, principal: Principal | null): RequestContext {
  const correlationId = correlationIdOf(request);
  const timeZone = request.headers['x-time-zone'];
  return {
    // a token acts for its account, but the history names the token (DESIGN section 3)
    actor: principal?.kind === 'token' ? principal.tokenId : (principal?.accountId ?? 'anonymous'),
    actorKind: principal?.kind === 'token' ? 'token' : principal ? 'account' : 'system',
    sourceIp: clientAddressOf(request),
    correlationId,
    timeZone: typeof timeZone === 'string' && timeZone.length < 64 ? timeZone : null,
  };
}
