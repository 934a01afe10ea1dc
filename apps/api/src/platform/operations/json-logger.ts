import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** One pino logger per app: JSON lines on standard output, one object per line, for the log shipper. */
export function createJsonLogger(config: Pick<AppConfig, 'logLevel'>, destination: pino.DestinationStream = pino.destination({ sync: false })): Logger {
  return pino({ level: config.logLevel, base: { service: 'rollcall-api' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Nest's start-up inventory (a line per module and per route): detail for debugging, not for the production log */
const START_UP_INVENTORY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's log calls (message, ...params, context last) as pino records with `context` and `err`. */
export class JsonNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write(START_UP_INVENTORY.has(params.at(-1) as string) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: pino.Level, message: unknown, params: unknown[]): void {
    const context = typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined;
    // Nest passes a stack as the parameter before the context on errors
    const stack = level === 'error' && typeof params[0] === 'string' && params.length > 1 ? params[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ ...fields, ...message });
    else this.logger[level](fields, String(message));
  }
}
