import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics';

/**
 * The route label of a request: the route's pattern (`/api/v2/account/:id`), never the raw path, so
 * ids do not multiply the series; tRPC by its mount, everything else as the console or unmatched.
 */
export function routeOf(request: Request): string {
  const pattern = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${request.baseUrl}${pattern}`;
  if (request.originalUrl.startsWith('/trpc')) return '/trpc';
  if (request.originalUrl.startsWith('/api')) return 'unmatched';
  return 'console';
}

/** Counts and times every HTTP request for /metrics, labelled once the answer is sent. */
export function httpMetrics(metrics: Metrics) {
  return (request: Request, response: Response, next: NextFunction) => {
    const stopTimer = metrics.httpDuration.startTimer();
    response.once('finish', () => {
      const route = routeOf(request);
      stopTimer({ method: request.method, route });
      metrics.httpRequests.inc({ method: request.method, route, status: String(response.statusCode) });
    });
    next();
  };
}
