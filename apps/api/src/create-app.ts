import 'reflect-metadata';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type INestApplication, Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { BootstrapAdminService } from './features/accounts/bootstrap-admin.service';
import type { AppConfig } from './platform/config/app-config';
import { ProjectionsService } from './platform/projections/projections.service';
import { ApiExceptionFilter } from './platform/http/api-exception.filter';
import { isAllowedOrigin, refuseCrossSiteCookieRequests, restBodyParsing, securityHeaders, serveConsole } from './platform/http/http-pipeline';
import { TrpcServer } from './platform/trpc/trpc-server';
import { httpMetrics } from './platform/operations/http-metrics';
import { Metrics } from './platform/operations/metrics';
import type { DestinationStream } from 'pino';
import { accessLog } from './platform/operations/access-log';
import { createJsonLogger, JsonNestLogger } from './platform/operations/json-logger';
import { compileTrust, resolveClientAddress } from './platform/http/client-address';
import { mountOidc } from './features/oidc/oidc.module';
import { preparePrivateDataDir } from './platform/operations/private-files';
import { BoundedExpressAdapter, DEFAULT_HTTP_TIMEOUTS, guardUpgrades, type HttpTimeouts } from './platform/live/socket-limits';
import { READER_WS_PATH } from './features/doors/reader-channel';
import { WS_PATH } from './platform/trpc/trpc-server';
import { OidcProviderHost } from './features/oidc/oidc-provider.host';

export interface RunningApp {
  app: INestApplication;
  url: string;
  /** the OpenID Connect issuer */
  issuer: string;
  close(): Promise<void>;
}

const LOG_LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  silent: [],
};

/**
 * Builds and starts the whole API: projections caught up, first administrator ensured, REST, tRPC,
 * WebSocket and the console on one port. main.ts and the integration tests both start it this way.
 */
export async function startApp(config: AppConfig, options: { print?: (line: string) => void; logDestination?: DestinationStream; httpTimeouts?: HttpTimeouts } = {}): Promise<RunningApp> {
  preparePrivateDataDir(config);
  const jsonLogger = config.logFormat === 'json' ? createJsonLogger(config, options.logDestination) : null;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new BoundedExpressAdapter(options.httpTimeouts ?? DEFAULT_HTTP_TIMEOUTS), {
    bodyParser: false,
    logger: jsonLogger ? new JsonNestLogger(jsonLogger) : LOG_LEVELS[config.logLevel],
    abortOnError: false,
  });
  const express = app.getHttpAdapter().getInstance();
  securityHeaders(express);
  express.use(httpMetrics(app.get(Metrics)));
  if (jsonLogger) express.use(accessLog(jsonLogger));
  // X-Forwarded-For counts only from ROLLCALL_TRUSTED_PROXIES (none by default)
  const trust = compileTrust(config.trustedProxies);
  express.set('trust proxy', trust);
  express.use((request: IncomingMessage, _response: unknown, next: () => void) => {
    resolveClientAddress(request, trust);
    next();
  });
  const trpc = app.get(TrpcServer);
  refuseCrossSiteCookieRequests(express, config.allowedOrigins);
  trpc.mountHttp(express);
  restBodyParsing(express);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.enableShutdownHooks();
  // the OpenID Connect provider under /oidc (docs/adr/0014): before the console's catch-all
  // a secrets key that opens nothing stops the start (main.ts exits 1 with the message): nothing left open
  await mountOidc(app, express).catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw error;
  });
  // the console's files and client-side routes; /api, /trpc and /ws are left to the API
  serveConsole(express, config.consoleDir);
  await app.init();

  await app.get(ProjectionsService).start();
  await app.get(BootstrapAdminService).run(options.print);

  const server: Server = app.getHttpServer();
  trpc.attachWebSocket(server, (origin, host) => isAllowedOrigin(origin, host, config.allowedOrigins), trust);
  guardUpgrades(server, [WS_PATH, READER_WS_PATH], new Logger('Upgrades'));
  await app.listen(config.port, config.host);
  const address = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;
  // the OpenID Connect issuer: ROLLCALL_PUBLIC_URL's, or this URL's (docs/adr/0014)
  const issuer = await app.get(OidcProviderHost).listeningAt(url);
  return {
    app,
    url,
    issuer,
    close: async () => {
      await trpc.close();
      await app.close();
      jsonLogger?.flush();
    },
  };
}
