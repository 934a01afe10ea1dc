import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { clientAddressOf } from '../http/client-address';
import { correlationIdOf } from '../http/request-context.factory';
import { routeOf } from './http-metrics';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/**
 * One JSON line per answered request (docs/security.md, 'V7 Error handling and logging'): method,
 * route pattern (never the raw path: links carry activation tokens), status, duration, client
 * address, the request id (X-Request-Id, kept from a proxy or made here) and the correlation id the
 * events of the request carry. Both ids are sent back so a client can quote them.
 */
export function accessLog(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const supplied = request.headers['x-request-id'];
    const requestId = typeof supplied === 'string' && REQUEST_ID.test(supplied) ? supplied : randomUUID();
    const correlationId = correlationIdOf(request);
    response.setHeader('X-Request-Id', requestId);
    response.setHeader('X-Correlation-Id', correlationId);
    response.once('finish', () => {
      logger.info(
        {
          request_id: requestId,
          correlation_id: correlationId,
          method: request.method,
          route: routeOf(request),
          status: response.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          ip: clientAddressOf(request),
        },
        'request',
      );
    });
    next();
  };
}
