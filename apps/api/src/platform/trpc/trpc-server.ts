import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { getWSConnectionHandler } from '@trpc/server/adapters/ws';
import { TRPCError, type AnyTRPCRouter } from '@trpc/server';
import type { Express, Request } from 'express';
import { DomainError } from '@rollcall/domain';
import { WebSocket, WebSocketServer } from 'ws';
import { ACCESS_CHECKS, CALLER_AUTHENTICATION, type AccessChecks, type CallerAuthentication } from '../access/caller-access';
import { holdsAnywhere } from '../access/grants';
import type { Principal, SessionPrincipal } from '../access/principal';
import { ProjectionProgress } from '../projections/projection-progress';
import { resolveClientAddress } from '../http/client-address';
import { servedOrigin } from '../http/http-pipeline';
import { retryAfterSecondsOf } from '../http/retry-after';
import { credentialFrom, requestContext } from '../http/request-context.factory';
import { clearSessionCookie, setSessionCookie } from '../http/session-cookie';
import { BEFORE_PUSH, LiveFeed } from '../live/live-feed';
import { pathOf, refuseUpgrade } from '../live/socket-limits';
import { FrameCoalescer } from './frame-coalescer';
import { LiveConnection } from './live-connection';
import type { TrpcContext } from './trpc';

export const TRPC_PATH = '/trpc';
/** the composition root's router (root-router.ts), built from every feature's */
export const TRPC_ROUTER = Symbol('TRPC_ROUTER');
export const WS_PATH = '/ws';
/** calls in one batched HTTP request; more answers 400 request.invalid before any call runs */
export const TRPC_MAX_BATCH_SIZE = 50;

/**
 * The read models whose events may end or narrow a session (the credential cache watches the same):
 * after any of their commits every open console socket checks its session again, so a sign-out, a
 * disabled or deleted account closes the socket at once, not only at its next push.
 */
const SESSION_SHAPING_PROJECTIONS = new Set(['sessions_v1', 'accounts_v2', 'organization_access_v1', 'organizations_v1']);
const QUIET_ACCOUNT_EVENTS = new Set(['AccountSignedIn', 'SignInFailed', 'AccountLocked']);
/** sessions also end by the clock alone: open sockets check theirs this often even when nothing happens */
const SESSION_SWEEP_MS = 15_000;
/** a console that stops answering pings (a half-open connection) is dropped */
const KEEP_ALIVE = { enabled: true, pingMs: 30_000, pongWaitMs: 10_000 };

/** what a tRPC call's body may be: JSON only (multipart and octet-stream inputs are refused, 415) */
const TRPC_BODY_TYPES = /^application\/json\s*(;|$)/i;

/** Serves the console's tRPC API over HTTP (queries, mutations) and WebSocket (subscriptions). */
@Injectable()
export class TrpcServer {
  private readonly logger = new Logger('tRPC');
  private wss: WebSocketServer | null = null;
  private stopWsHandler: (() => void) | null = null;
  /** a burst of live messages goes out to each console in one write (frame-coalescer.ts) */
  private readonly frames = new FrameCoalescer();
  private readonly coalesceBurst = () => this.frames.holdUntilNextTurn();
  private readonly connections = new Set<LiveConnection>();
  private recheckScheduled = false;
  /** session resolutions under way, by token: the sockets of one session share one per push */
  private readonly resolving = new Map<string, Promise<SessionPrincipal | null>>();
  private readonly stopWatchingSessions: () => void;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    @Inject(TRPC_ROUTER) readonly router: AnyTRPCRouter,
    private readonly live: LiveFeed,
    @Inject(CALLER_AUTHENTICATION) private readonly callers: CallerAuthentication,
    @Inject(ACCESS_CHECKS) private readonly access: AccessChecks,
    progress: ProjectionProgress,
  ) {
    // every push is announced first: the sockets are corked before their frames are sent
    live.emitter.on(BEFORE_PUSH, this.coalesceBurst);
    this.stopWatchingSessions = progress.onAdvanced((projection, events) => {
      if (SESSION_SHAPING_PROJECTIONS.has(projection) && events.some((event) => !QUIET_ACCOUNT_EVENTS.has(event.type))) this.recheckSessionsSoon();
    });
    this.sweep = setInterval(() => this.recheckSessionsSoon(), SESSION_SWEEP_MS).unref();
  }

  /**
   * Every open socket checks its session again, on the next turn: by then the credential cache has
   * evicted what the same commit changed (it listens to the same projections), so the check reads
   * the session as it is now; one check per socket, however many commits arrived within the turn.
   */
  private recheckSessionsSoon(): void {
    if (this.recheckScheduled || this.connections.size === 0) return;
    this.recheckScheduled = true;
    setImmediate(() => {
      this.recheckScheduled = false;
      for (const connection of this.connections) void connection.recheck();
    });
  }

  /** the access policy as a live socket uses it: every verdict first refreshes the session it is taken on */
  private accessFor(connection: LiveConnection): AccessChecks {
    const access = this.access;
    return {
      authorize: async (...args: Parameters<AccessChecks['authorize']>) => {
        await connection.current();
        return access.authorize(...args);
      },
      // a subscription that filters what it pushes ends (FORBIDDEN) once its own permission is gone
      permits: async (...args: Parameters<AccessChecks['permits']>) => {
        const [principal, permission] = args;
        await connection.current();
        if (!holdsAnywhere(principal.grants, permission)) throw new DomainError('auth.forbidden', `This account lacks the permission ${permission}`);
        return access.permits(...args);
      },
    };
  }

  mountHttp(app: Express): void {
    app.use(
      TRPC_PATH,
      createExpressMiddleware({
        router: this.router,
        maxBodySize: 1024 * 1024,
        // one request may carry many calls: without a cap, a 15 KB anonymous GET of 1,937 calls held the
        // event loop for about a second (second outside review); the console sends at most 25 (trpc.ts)
        maxBatchSize: TRPC_MAX_BATCH_SIZE,
        // errors raised before a procedure runs (content type, method, body size) would go out as text/plain
        // a throttled sign-in (429) says when to try again, as REST does
        responseMeta: ({ errors }) => {
          if (!errors.length) return {};
          const retryAfter = errors.map((error) => retryAfterSecondsOf(error.cause)).find((seconds) => seconds !== null);
          return { headers: { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}) } };
        },
        createContext: async ({ req, res }): Promise<TrpcContext> => {
          // every procedure takes JSON: tRPC would try a form or a raw stream as the input and fail inside
          if (!TRPC_BODY_TYPES.test(req.headers['content-type'] ?? 'application/json')) {
            throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'tRPC calls take a JSON body (Content-Type: application/json)' });
          }
          const { principal, refusal } = await this.callers.authenticate(req);
          return {
            principal,
            refusal,
            context: requestContext(req, principal),
            access: this.access,
            cookies: { set: (token, expiresAt) => setSessionCookie(res, token, expiresAt, req.secure), clear: () => clearSessionCookie(res) },
            client: { userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null, via: credentialFrom(req)?.via ?? null, origin: servedOrigin(req.headers.origin, req.headers.host) },
          };
        },
        onError: ({ error }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') this.logger.error(error.cause?.stack ?? error.message);
        },
      }),
    );
  }

  /**
   * Subscriptions over WebSocket. The upgrade is refused unless the Origin is ours (or configured)
   * and the request carries a valid session (cookie or bearer header): no anonymous sockets.
   */
  attachWebSocket(server: Server, isAllowedOrigin: (origin: string | undefined, host: string | undefined) => boolean, trustProxy: (address: string, hop: number) => boolean): void {
    // an oversized or malformed frame closes that socket (1009 / 1002); the error is tRPC's to handle
    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    this.wss = wss;
    wss.on('error', (error) => this.logger.warn(`WebSocket server error: ${error.message}`));
    const resolveSession = (token: string) => this.resolveSessionOnce(token);
    const handlerOptions = {
      wss,
      router: this.router,
      keepAlive: KEEP_ALIVE,
      onError: ({ error }: { error: TRPCError }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') this.logger.error(error.cause?.stack ?? error.message);
      },
    };
    // one handler per socket, so its encoder reads that socket's protocol (subscription-wire.ts): a
    // broadcast (live-broadcast.ts, docs/adr/0024) writes to the subscriptions running there
    const serve = (ws: WebSocket, request: IncomingMessage, connection: LiveConnection) =>
      getWSConnectionHandler({
        ...handlerOptions,
        experimental_encoder: connection.wire,
        createContext: (): TrpcContext => ({ principal: connection.principal, refusal: null, context: requestContext(request, connection.principal), access: this.accessFor(connection), live: connection }),
      })(ws, request);
    this.stopWsHandler = () => {
      // tRPC's own notice: the consoles reconnect to another process
      const notice = JSON.stringify({ id: null, method: 'reconnect' });
      for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.send(notice);
    };
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(request) !== WS_PATH) return; // the reader socket's, or answered 404 (socket-limits.ts)
      // for upgrades Node leaves socket errors to us: a client's reset must not end the process
      socket.on('error', () => undefined);
      resolveClientAddress(request, trustProxy);
      if (!isAllowedOrigin(request.headers.origin, request.headers.host)) return refuseUpgrade(socket, 403, 'Forbidden');
      const credential = credentialFrom(request);
      if (!credential) return refuseUpgrade(socket, 401, 'Unauthorized');
      resolveSession(credential.token)
        .then((principal) => {
          if (!principal) return refuseUpgrade(socket, 401, 'Unauthorized');
          if (socket.destroyed) return;
          this.callers.noteSession(principal, request);
          wss.handleUpgrade(request, socket, head, (ws) => {
            const connection = new LiveConnection(credential.token, principal, ws, resolveSession, this.access);
            this.connections.add(connection);
            ws.once('close', () => this.connections.delete(connection));
            this.frames.track(socket);
            serve(ws, request, connection);
          });
        })
        .catch(() => refuseUpgrade(socket, 503, 'Service Unavailable'));
    });
  }

  /**
   * A session as it is now, through the credential cache; sockets of the same session asking while
   * one resolution is under way share it (a push resolves every subscribed socket's session at once).
   */
  private resolveSessionOnce(token: string): Promise<SessionPrincipal | null> {
    let resolving = this.resolving.get(token);
    if (!resolving) {
      resolving = this.callers.resolveSession(token).finally(() => this.resolving.delete(token));
      this.resolving.set(token, resolving);
    }
    return resolving;
  }

  /** for /metrics */
  clientCount(): number {
    return this.wss?.clients.size ?? 0;
  }

  async close(): Promise<void> {
    this.stopWatchingSessions();
    clearInterval(this.sweep);
    this.live.emitter.off(BEFORE_PUSH, this.coalesceBurst);
    this.stopWsHandler?.();
    const wss = this.wss;
    if (!wss) return;
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    this.wss = null;
  }

  /** for REST routes that need the principal of a raw express request */
  static principalOf(request: Request): Principal | undefined {
    return (request as Request & { principal?: Principal }).principal;
  }
}
