import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { mapError } from '../errors/api-error';
import { retryAfterSecondsOf } from './retry-after';

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body } = mapError(exception);
    if (status === 429) response.setHeader('Retry-After', String(retryAfterSecondsOf(exception) ?? 60));
    response.status(status).json(body);
  }
}
