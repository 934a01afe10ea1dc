import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import helmet from 'helmet';
import { IMPORT_MAX_BODY_BYTES, type TApiError } from '@rollcall/contracts';
import { credentialFrom } from './request-context.factory';

const apiError = (code: string, message: string): TApiError => ({ error: { code, message } });

/** `POST accounts/import/csv` on v1, v2 and unprefixed, as seen under the /api mount */
const IMPORT_PATH = /^\/(v1\/|v2\/)?accounts\/import\/csv\/?$/;

/** Security headers on every answer: CSP, frame-ancestors none, nosniff, no referrer leaks. */
export function securityHeaders(app: Express): void {
  app.disable('x-powered-by');
  // answers are small and mostly private; hashing every body for an ETag cost more than it saved
  app.set('etag', false);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // MUI (emotion) injects style elements at run time
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          // the embedded default is served over plain HTTP on a LAN address; a proxy adds HTTPS
          upgradeInsecureRequests: null,
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    }),
  );
}

/** The origin rule of the API: the request's own host, or one of ROLLCALL_ALLOWED_ORIGINS (also used for WS upgrades). */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (!origin) return true; // non-browser clients send no Origin; they still need a credential
  if (allowedOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * The browser's Origin when it is the address this request came to (its Host), else null: what a
 * passkey's relying party may be taken from without ROLLCALL_PUBLIC_URL (docs/adr/0029; R24 finding
 * 8), so a request naming a foreign Origin cannot make that site the relying party.
 */
export function servedOrigin(origin: unknown, host: unknown): string | null {
  if (typeof origin !== 'string' || typeof host !== 'string') return null;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase() ? url.origin : null;
  } catch {
    return null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie sessions on /api and /trpc: a state-changing request that carries the
 * session cookie and no bearer header is refused (403) when the browser says it comes from another
 * origin (Sec-Fetch-Site, or Origin where a browser sends no Sec-Fetch-Site). SameSite=Lax already
 * keeps the cookie off cross-site forms in today's browsers; this covers sibling origins of the same
 * site and browsers without SameSite. Clients that send neither header (curl, scripts) pass.
 */
export function refuseCrossSiteCookieRequests(app: Express, allowedOrigins: readonly string[]): void {
  app.use(['/api', '/trpc'], (request: Request, response: Response, next: NextFunction) => {
    // a bearer header is never added by a browser on its own: only the cookie can be ridden
    if (SAFE_METHODS.has(request.method) || credentialFrom(request)?.via !== 'cookie') return next();
    const origin = request.headers.origin;
    // an origin named in ROLLCALL_ALLOWED_ORIGINS is ours, whatever the browser's site verdict
    if (origin !== undefined && allowedOrigins.includes(origin)) return next();
    // the browser's own verdict when it gives one (a proxy that rewrites Host cannot confuse it), else Origin against Host
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined ? site === 'same-origin' || site === 'none' : isAllowedOrigin(origin, request.headers.host, allowedOrigins)) return next();
    const error = apiError('auth.forbidden', 'A request from another site may not use the session cookie');
    if (request.baseUrl === '/trpc') {
      // the tRPC error shape the console reads, with the same apiError inside
      response.status(403).json({ error: { message: error.error.message, code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403, path: request.path.slice(1), apiError: error.error } } });
      return;
    }
    response.status(403).json(error);
  });
}

/**
 * JSON bodies for the REST routes, with our own answers for a malformed body (400), a body that is
 * too large (413) and a body that is not JSON (415).
 */
export function restBodyParsing(app: Express): void {
  app.use('/api', (request: Request, response: Response, next: NextFunction) => {
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) && !request.is('application/json')) {
      response.status(415).json(apiError('request.unsupported_media_type', 'Send the body as application/json'));
      return;
    }
    next();
  });
  // the CSV import carries up to IMPORT_MAX_ROWS rows in one body; every other route keeps 1 MB
  const importJson = express.json({ limit: IMPORT_MAX_BODY_BYTES, strict: false });
  const defaultJson = express.json({ limit: '1mb', strict: false });
  app.use('/api', (request: Request, response: Response, next: NextFunction) => (IMPORT_PATH.test(request.path) ? importJson : defaultJson)(request, response, next));
  app.use('/api', (error: Error & { type?: string; status?: number }, request: Request, response: Response, next: NextFunction) => {
    if (error.type === 'entity.parse.failed') return void response.status(400).json(apiError('request.malformed_json', 'The body is not valid JSON'));
    if (error.type === 'entity.too.large') return void response.status(413).json(apiError('request.too_large', `The body is larger than ${IMPORT_PATH.test(request.path) ? IMPORT_MAX_BODY_BYTES / 1024 / 1024 : 1} MB`));
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return void response.status(415).json(apiError('request.unsupported_media_type', error.message));
    if (error.status && error.status < 500) return void response.status(error.status).json(apiError('request.invalid', error.message));
    next(error);
  });
}

const COMPRESSED_COPY = /\.(br|gz)$/;

/** how long a browser may keep a console file: index.html is asked again each time, hashed assets never */
function cacheControlOf(file: string): string {
  const original = file.replace(COMPRESSED_COPY, '');
  if (original.endsWith('.html')) return 'no-cache';
  if (original.startsWith(`assets${sep}`)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/** The built console, with index.html for every client-side route (not for /api, /trpc, /ws). */
export function serveConsole(app: Express, consoleDir: string): boolean {
  const index = join(consoleDir, 'index.html');
  if (!existsSync(index)) return false;
  // the API's own paths, and the operators' (health, readiness, metrics)
  const isApiPath = (path: string) => /^\/(api|trpc|ws|healthz|readyz|metrics)(\/|$)/.test(path);
  // The build writes a brotli and a gzip copy beside each script and style (apps/console/vite.config.ts):
  // the browser gets the smallest it accepts, with no compression work per request. Files under
  // assets/ carry their content hash in their name, so they never change: cached for a year.
  const files = expressStaticGzip(consoleDir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    serveStatic: { index: false, setHeaders: (res, path) => res.setHeader('Cache-Control', cacheControlOf(relative(consoleDir, path))) },
  });
  // API calls never touch the file system looking for a console file
  app.use((request: Request, response: Response, next: NextFunction) => (isApiPath(request.path) ? next() : files(request, response, next)));
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' || isApiPath(request.path)) return next();
    // a script of an older build is gone, not a page: the console's chunk loader sees a 404 and reloads
    if (request.path.startsWith('/assets/')) return void response.status(404).type('text/plain').send('Not found');
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  });
  return true;
}
