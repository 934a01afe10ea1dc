import pino, { type Logger } from 'pino';
import { type LogLevel } from '../config/agent-config';

export type AgentLogger = Logger;

/**
 * Structured JSON logs, one object a line on stdout (journald keeps them; `journalctl -o cat | jq`
 * reads them). Written synchronously: a log line that says a scan was queued must be out before the
 * process can die, and the tests read exactly those lines. The token is never logged; `redact`
 * guards against a future log call passing the configuration whole.
 */
export function createLogger(level: LogLevel = 'info', destination: number | NodeJS.WritableStream = 1): AgentLogger {
  const stream = typeof destination === 'number' ? pino.destination({ dest: destination, sync: true }) : destination;
  return pino(
    {
      level,
      base: { service: 'rollcall-agent' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['token', '*.token', 'authorization', '*.authorization'], censor: '[redacted]' },
    },
    stream,
  );
}
