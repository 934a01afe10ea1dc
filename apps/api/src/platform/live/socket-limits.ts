import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * How long a client may take to send a request before the server answers 408 and closes the
 * connection. Node checks these every `checkEveryMs`, so a request is cut off between `requestMs`
 * and `requestMs + checkEveryMs`: a body shorter than its Content-Length, headers trickled one byte
 * at a time, a connection that never sends anything, or an upgrade request that never ends its
 * headers hold a socket for a bounded time only (docs/security.md, "No client ends the process").
 */
export interface HttpTimeouts {
  /** the request line and headers */
  headersMs: number;
  /** the whole request, body included: a 1 MB tRPC import over a slow link still fits */
  requestMs: number;
  /** an idle keep-alive connection between requests */
  keepAliveMs: number;
  checkEveryMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, requestMs: 60_000, keepAliveMs: 5_000, checkEveryMs: 5_000 };

/**
 * Nest's Express adapter with an HTTP server that bounds slow and half-sent requests: the
 * connection-checking interval can only be set when the server is created, so the adapter creates it.
 */
export class BoundedExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: HttpTimeouts) {
    super();
  }

  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    const { headersMs, requestMs, keepAliveMs, checkEveryMs } = this.timeouts;
    const server = createServer({ headersTimeout: headersMs, requestTimeout: requestMs, keepAliveTimeout: keepAliveMs, connectionsCheckingInterval: checkEveryMs }, this.getInstance());
    this.setHttpServer(server);
  }
}

/**
 * Every upgrade request gets an error listener on its socket before anything else happens: for
 * upgrades Node leaves the socket's errors to the application, and one unhandled 'error' (a client's
 * TCP reset) would end the process. An upgrade to a path nobody serves is answered 404 and closed
 * instead of being left open. Registered once, beside the listeners of the paths that are served
 * (TrpcServer for /ws, ReaderChannel for the reader socket), which attach their own handling too.
 */
export function guardUpgrades(server: Server, servedPaths: readonly string[], logger: Pick<Logger, 'debug'>): void {
  const served = new Set(servedPaths);
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', (error: Error) => logger.debug?.(`upgrade socket error (${request.url ?? '?'}): ${error.message}`));
    if (served.has(pathOf(request))) return;
    refuseUpgrade(socket, 404, 'Not Found');
  });
}

/** the path of an upgrade request; a URL that does not parse is served by nobody */
export function pathOf(request: IncomingMessage): string {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** answers an upgrade request that will not become a WebSocket, and closes its connection */
export function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  // a client that never reads the answer does not keep the socket: end() flushed what it could
  setTimeout(() => socket.destroy(), 1_000).unref();
}
