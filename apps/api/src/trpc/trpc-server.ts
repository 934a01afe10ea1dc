import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import type { Express, Request } from 'express';
import { WebSocketServer } from 'ws';
import { AccessPolicy } from '../auth/access-policy';
import { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import { ResolveSessionQuery } from '../auth/queries/resolve-session.query';
import { CommandGateway } from '../core/command-gateway';
import { ProjectionsService } from '../core/projections.service';
import { resolveClientAddress } from '../http/client-address';
import { retryAfterSecondsOf } from '../http/retry-after';
import { credentialFrom, requestContext } from '../http/request-context.factory';
import { clearSessionCookie, setSessionCookie } from '../http/session-cookie';
import { ATTENDANCE_BATCH, LiveFeed } from '../live/live-feed';
import { buildAppRouter, type AppRouter } from './app-router';
import { FrameCoalescer } from './frame-coalescer';
import type { TrpcContext } from './trpc';

export const TRPC_PATH = '/trpc';
export const WS_PATH = '/ws';

/** Serves the console's tRPC API over HTTP (queries, mutations) and WebSocket (subscriptions). */
@Injectable()
export class TrpcServer {
  private readonly logger = new Logger('tRPC');
  readonly router: AppRouter;
  private wss: WebSocketServer | null = null;
  private stopWsHandler: (() => void) | null = null;
  /** a burst of live messages goes out to each console in one write (frame-coalescer.ts) */
  private readonly frames = new FrameCoalescer();
  private readonly coalesceBurst = () => this.frames.holdUntilNextTurn();

  constructor(
    gateway: CommandGateway,
    private readonly queryBus: QueryBus,
    private readonly live: LiveFeed,
    private readonly authenticator: Authenticator,
    private readonly access: AccessPolicy,
    projectionsService: ProjectionsService,
  ) {
    this.router = buildAppRouter({ gateway, queryBus, live, projectionsService });
    // registered before any subscription listens: the sockets are corked before their frames are sent
    live.emitter.on('message', this.coalesceBurst);
    live.emitter.on(ATTENDANCE_BATCH, this.coalesceBurst);
  }

  mountHttp(app: Express): void {
    app.use(
      TRPC_PATH,
      createExpressMiddleware<AppRouter>({
        router: this.router,
        maxBodySize: 1024 * 1024,
        // errors raised before a procedure runs (content type, method, body size) would go out as text/plain
        // a throttled sign-in (429) says when to try again, as REST does (auth/sign-in-throttle.ts)
        responseMeta: ({ errors }) => {
          if (!errors.length) return {};
          const retryAfter = errors.map((error) => retryAfterSecondsOf(error.cause)).find((seconds) => seconds !== null);
          return { headers: { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}) } };
        },
        createContext: async ({ req, res }): Promise<TrpcContext> => {
          const { principal, refusal } = await this.authenticator.authenticate(req);
          return {
            principal,
            refusal,
            context: requestContext(req, principal),
            access: this.access,
            cookies: { set: (token, expiresAt) => setSessionCookie(res, token, expiresAt, req.secure), clear: () => clearSessionCookie(res) },
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
    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    this.wss = wss;
    const handler = applyWSSHandler<AppRouter>({
      wss,
      router: this.router,
      createContext: ({ req }): TrpcContext => {
        const principal = (req as IncomingMessage & { principal?: Principal }).principal ?? null;
        return { principal, refusal: null, context: requestContext(req, principal), access: this.access };
      },
    });
    this.stopWsHandler = () => handler.broadcastReconnectNotification();
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== WS_PATH) return; // other upgrade paths belong to nobody: let them time out
      resolveClientAddress(request, trustProxy);
      const refuse = (status: number, text: string) => {
        socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        socket.destroy();
      };
      if (!isAllowedOrigin(request.headers.origin, request.headers.host)) return refuse(403, 'Forbidden');
      const credential = credentialFrom(request);
      if (!credential) return refuse(401, 'Unauthorized');
      this.queryBus
        .execute<ResolveSessionQuery, Principal | null>(new ResolveSessionQuery(credential.token))
        .then((principal) => {
          if (!principal) return refuse(401, 'Unauthorized');
          (request as IncomingMessage & { principal?: Principal }).principal = principal;
          wss.handleUpgrade(request, socket, head, (ws) => {
            this.frames.track(socket);
            wss.emit('connection', ws, request);
          });
        })
        .catch(() => refuse(503, 'Service Unavailable'));
    });
  }

  /** for /metrics */
  clientCount(): number {
    return this.wss?.clients.size ?? 0;
  }

  async close(): Promise<void> {
    this.live.emitter.off('message', this.coalesceBurst);
    this.live.emitter.off(ATTENDANCE_BATCH, this.coalesceBurst);
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
