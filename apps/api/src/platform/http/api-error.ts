import { HttpException, Logger } from '@nestjs/common';
import type { TApiError } from '@rollcall/contracts';
import Database from '@rollcall/sqlite-driver';
import { DomainError } from '@rollcall/domain';
import { ZodError } from 'zod';
import { EventStoreUnavailableError, ReservationTakenError, WrongExpectedVersionError } from '../event-store/event-store.port';
import { isPostgresUnavailable, isTransientPostgresError } from '../event-store/postgres-connections';

export interface MappedError {
  status: number;
  body: TApiError;
}

/** A unique value maps to the field that carries it and a message the console shows under it. */
const RESERVATION_ERRORS: Record<string, { code: string; field: string; message: string }> = {
  'account.username': { code: 'account.username_taken', field: 'username', message: 'This username is already taken' },
  'account.email': { code: 'account.email_taken', field: 'email', message: 'This e-mail address is already used by another account' },
  'policy.title': { code: 'policy.title_taken', field: 'title', message: 'A password policy with this title already exists' },
  'organization.title': { code: 'organization.title_taken', field: 'title', message: 'An organization with this title already exists' },
  'team.title': { code: 'team.title_taken', field: 'title', message: 'A team with this title already exists in this organization' },
  'reader.name': { code: 'reader.name_taken', field: 'name', message: 'A reader with this name already exists' },
  'attendance_status.title': { code: 'attendance_status.title_taken', field: 'title', message: 'An attendance status with this title already exists' },
};

function domainStatus(code: string): number {
  if (code === 'reader.token_invalid') return 401;
  if (code === 'reader.not_enrollment' || code === 'reader.register_mode_busy' || code === 'reader.no_enrollment_reader' || code === 'scan.sequence_backwards' || code === 'smart_card.taken') return 409;
  if (code === 'auth.invalid_credentials' || code === 'auth.required' || code === 'auth.token_expired') return 401;
  // too many failed sign-ins (auth/sign-in-throttle.ts): Retry-After says when to try again
  if (code === 'rate.limited') return 429;
  if (code === 'auth.forbidden' || code === 'auth.address_not_allowed' || code === 'auth.password_change_required' || code.endsWith('.protected')) return 403;
  if (code.endsWith('.not_found')) return 404;
  // an organization named by a body or query field that does not exist (parent_id, a deletion's destination)
  if (code === 'organization.parent_not_found' || code === 'organization.destination_not_found') return 404;
  // a move that would close a loop, or a destination deleted by the very same deletion: the tree's state refuses it
  if (code === 'organization.cycle' || code === 'organization.destination_deleted') return 409;
  // an unknown, used or expired activation link is 'not found', and all alike
  if (code === 'activation.invalid') return 404;
  // 'User already associated!': the team already has the account
  if (code === 'team.member_exists') return 409;
  if (code === 'team.member_not_found') return 404;
  // rotating the secret of a public client: the application's state refuses it
  if (code === 'application.client_not_confidential') return 409;
  // a role-permission relation id that is unknown or already switched off
  if (code === 'application.relation_not_found') return 404;
  // a calendar's group or day that is unknown, removed or another account's
  if (code === 'calendar.group_not_found' || code === 'calendar.event_not_found') return 404;
  if (code === 'attendance.slot_not_found') return 404;
  // an event group id used twice (a retried create with the same id)
  if (code === 'calendar.group_exists') return 409;
  // erasing twice: the account's state refuses it
  if (code === 'account.erased') return 409;
  // one rebuild of the read models at a time, by the process that runs them (docs/adr/0017)
  if (code === 'projection.rebuild_running' || code === 'projection.rebuild_not_leader') return 409;
  if (code.endsWith('.exists') || code.endsWith('_taken') || code.endsWith('.in_use')) return 409;
  return 400;
}

export function zodFields(error: ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    // zod's own texts are fine for types; an unknown key gets a message naming it
    const message = issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message;
    (fields[key] ??= []).push(message);
  }
  return fields;
}

const logger = new Logger('Errors');

/**
 * SQLite could not read or write its file (a disk I/O error such as a failed fsync, a full disk, a
 * lock held past busy_timeout): the storage is unavailable, the same 503 as EventStoreUnavailableError.
 * The event store wraps its own failures, but the personal-data keys beside the events throw
 * better-sqlite3's error as it is, and a new account's key is stored before its events are appended
 * (hardening/failing-fsync.int.spec.ts found a failing fsync answered 500 there). A constraint or a
 * misuse is a bug and stays a 500.
 */
function isSqliteStorageFailure(error: unknown): error is InstanceType<typeof Database.SqliteError> {
  return error instanceof Database.SqliteError && /^SQLITE_(IOERR|FULL|BUSY|LOCKED|CANTOPEN|READONLY)/.test(error.code);
}

/**
 * The one mapping from anything thrown to the answer a client sees: the same for REST v1, v2 and
 * tRPC. Never a stack trace, never a 500 for bad input.
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof ZodError) {
    const fields = zodFields(error);
    const summary = Object.entries(fields).map(([field, messages]) => `${field}: ${messages[0]}`).join('; ');
    return { status: 400, body: { error: { code: 'request.invalid', message: `Invalid input (${summary})`, fields } } };
  }
  if (error instanceof DomainError) {
    const fields = error.fields ?? (error.field ? { [error.field]: [error.message] } : undefined);
    return { status: domainStatus(error.code), body: { error: { code: error.code, message: error.message, ...(fields ? { fields } : {}) } } };
  }
  if (error instanceof ReservationTakenError) {
    const known = RESERVATION_ERRORS[error.reservation.scope];
    if (known) return { status: 409, body: { error: { code: known.code, message: known.message, fields: { [known.field]: [known.message] } } } };
    return { status: 409, body: { error: { code: 'unique.taken', message: 'This value is already taken' } } };
  }
  if (error instanceof WrongExpectedVersionError) {
    return { status: 409, body: { error: { code: 'stream.version_conflict', message: 'Someone else changed this at the same time; reload and try again' } } };
  }
  // a deadlock or serialization failure that outlived its retries: transient, the caller may try again
  if (isTransientPostgresError(error)) {
    logger.warn(`storage busy: ${(error as { code?: string }).code}: ${(error as Error).message}`);
    return { status: 503, body: { error: { code: 'server.unavailable', message: 'Storage is busy with another change: the call was not completed. Try again shortly' } } };
  }
  // 'not confirmed', not 'not saved': after a failed fsync SQLite may still recover the commit from its
  // WAL at the next start (docs/security.md, scenario 2); what was acknowledged is never lost
  // a lost or refused PostgreSQL connection (read database, personal-data keys) is the same 503: the pool
  // connects again by itself (event-store/postgres-connections.ts)
  if (error instanceof EventStoreUnavailableError || isSqliteStorageFailure(error) || isPostgresUnavailable(error)) {
    logger.error(
      error instanceof EventStoreUnavailableError
        ? `event store unavailable: ${error.message}`
        : `storage unavailable: ${(error as { code?: string }).code ?? 'connection'}: ${(error as Error).message}`,
    );
    return { status: 503, body: { error: { code: 'server.unavailable', message: 'Storage is unavailable: the write was not confirmed. Try again shortly' } } };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const codes: Record<number, string> = { 400: 'request.invalid', 401: 'auth.required', 403: 'auth.forbidden', 404: 'route.not_found', 413: 'request.too_large', 415: 'request.unsupported_media_type', 429: 'rate.limited' };
    const message = status === 404 ? 'This route does not exist' : error.message;
    return { status, body: { error: { code: codes[status] ?? (status >= 500 ? 'server.internal' : 'request.invalid'), message } } };
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return { status: 500, body: { error: { code: 'server.internal', message: 'Something went wrong on our side' } } };
}
