import { TRPCError } from '@trpc/server';
import { WebSocket } from 'ws';
import type { AccessChecks } from '../access/caller-access';
import type { SessionPrincipal } from '../access/principal';
import { SubscriptionWire } from './subscription-wire';

/** close code of a console socket whose session ended (signed out, expired, account disabled or deleted) */
export const SESSION_ENDED_CLOSE = 4401;

/** more subscriptions than a console ever runs at once on one socket are refused (TOO_MANY_REQUESTS) */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 32;

/** resolves a session token as it is now: through the credential cache, evicted as HTTP's is */
export type ResolveSession = (token: string) => Promise<SessionPrincipal | null>;

/**
 * One console WebSocket and the session it was opened with. The socket carries subscriptions only,
 * and every pushed message is decided on the session and grants as they are now (DESIGN section 6,
 * trust rules): `current()` resolves the session again through the credential cache (a map look-up
 * while nothing changed, a read after the cache evicted it), and closes the socket with 4401 once
 * the session has ended.
 *
 * `principal` is this connection's own object, updated in place by each `current()`: a subscription
 * that filters with the principal it was given (`ctx.principal`) filters with today's grants.
 */
export class LiveConnection {
  readonly principal: SessionPrincipal;
  /** subscriptions running on this socket (a console runs a handful; each one holds a listener) */
  subscriptions = 0;
  /** tRPC's protocol on this socket: which subscriptions run, for broadcasts (docs/adr/0024) */
  readonly wire = new SubscriptionWire();
  private ended = false;
  private pending: Promise<SessionPrincipal> | null = null;

  constructor(
    private readonly token: string,
    principal: SessionPrincipal,
    private readonly socket: WebSocket,
    private readonly resolve: ResolveSession,
    /**
     * the access policy itself, for a broadcast's verdicts per audience (live-broadcast.ts); the
     * procedures on this socket get it wrapped, each verdict after a fresh look at the session
     */
    readonly access: AccessChecks,
  ) {
    this.principal = { ...principal };
  }

  get accountId(): string {
    return this.principal.accountId;
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /**
   * The session as it is now, or UNAUTHORIZED (and the socket closed) once it has ended. Calls made
   * while one resolution is under way share it: a batch checked for many accounts costs one.
   */
  current(): Promise<SessionPrincipal> {
    if (this.ended) return Promise.reject(sessionEnded());
    this.pending ??= this.resolve(this.token)
      .then(
        (fresh) => {
          if (!fresh || fresh.sessionId !== this.principal.sessionId) {
            this.end();
            throw sessionEnded();
          }
          Object.assign(this.principal, fresh);
          return this.principal;
        },
        (cause: unknown) => {
          // the read database is unreachable: this push is not made, the socket stays for the next
          throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The session could not be checked; try again shortly', cause });
        },
      )
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /** checks the session now; closes the socket if it has ended (the watcher's and the sweep's call) */
  async recheck(): Promise<void> {
    await this.current().catch(() => undefined);
  }

  /** writes one prepared text frame (a broadcast's, live-broadcast.ts) unless the socket is closing */
  sendFrame(frame: Buffer): void {
    if (this.ended || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(frame, { binary: false });
  }

  /** closes the socket: tRPC ends every subscription on it as it closes */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.socket.close(SESSION_ENDED_CLOSE, 'session ended');
    // a client that never answers the close handshake does not keep the socket
    setTimeout(() => this.socket.terminate(), 5_000).unref();
  }
}

const sessionEnded = () => new TRPCError({ code: 'UNAUTHORIZED', message: 'The session has ended (signed out, expired or disabled): sign in again' });
