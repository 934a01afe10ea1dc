import type pg from 'pg';
import { EventStoreUnavailableError } from './event-store.port';

/**
 * What the API's PostgreSQL connections have in common: how they are named, how long a connection
 * may take, how a lost one is survived and how its failure is told from a bad statement (docs/security.md,
 * 'Faults degrade and heal': `pg_terminate_backend` of the API's backends once crashed the process).
 */

/** a pool connection that does not connect within this fails its caller (503) instead of hanging it */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * `application_name` of a connection: its part and the schema it serves, so `pg_stat_activity` tells
 * the parts and the deployments sharing a server apart (PostgreSQL keeps 63 bytes of it).
 */
export function postgresApplicationName(part: 'event-store' | 'event-store-listen' | 'read-db' | 'projection-leadership' | 'personal-data-keys', schema: string): string {
  return `rollcall-${part} ${schema}`.slice(0, 63);
}

/**
 * A connection PostgreSQL ends (pg_terminate_backend, a restart, a failover, a cut network) emits
 * 'error' on its client, and on the pool when the client was idle; an 'error' event without a
 * listener ends the process. Both are listened to: the pool drops the broken client, the query that
 * ran on it fails (503 server.unavailable) and the next one gets a fresh connection.
 */
export function survivingConnectionLoss(pool: pg.Pool, onLost: (error: Error) => void = () => undefined): pg.Pool {
  pool.on('error', onLost);
  // a checked-out client has no pool listener: an error between two statements of a transaction
  // (nothing in flight to reject) would be emitted on the client alone
  pool.on('connect', (client) => client.on('error', onLost));
  return pool;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The server or the connection failed, as opposed to a statement being wrong: SQLSTATE classes 08
 * (connection), 53 (insufficient resources: disk full, out of memory, too many connections), 57
 * (operator intervention: shutdown, terminated, cancelled), 58 (system) and XX (internal), network
 * errors of the socket, and pg's own messages for a connection that is gone.
 */
/** A deadlock (40P01) or serialization failure (40001): the transaction was rolled back and may simply run again. */
export const isTransientPostgresError = (error: unknown): boolean => ['40P01', '40001'].includes(String((error as { code?: unknown } | null)?.code));

export function isPostgresUnavailable(error: unknown): boolean {
  if (error instanceof EventStoreUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (/^(08|53|57|58|XX)[0-9A-Z]{3}$/.test(code) || NETWORK_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end|not queryable|Client was closed/i.test(message);
}
