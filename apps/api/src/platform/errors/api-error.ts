import { HttpException, Logger } from '@nestjs/common';
import { ERROR_STATUS, isErrorCode, type ErrorCode, type TApiError, type TFieldRule } from '@rollcall/contracts';
import Database from '@rollcall/sqlite-driver';
import { DomainError } from '@rollcall/domain';
import { ZodError } from 'zod';
import { EventStoreUnavailableError, ReservationTakenError, WrongExpectedVersionError } from '../event-store/event-store.port';
import { isPostgresUnavailable, isTransientPostgresError } from '../event-store/postgres-connections';
import { domainRules, zodRules } from './field-rules';

export interface MappedError {
  status: number;
  body: TApiError;
}

/** A unique value maps to the field that carries it and a message the console shows under it. */
const RESERVATION_ERRORS: Record<string, { code: ErrorCode; field: string; message: string }> = {
  'account.username': { code: 'account.username_taken', field: 'username', message: 'This username is already taken' },
  'account.email': { code: 'account.email_taken', field: 'email', message: 'This e-mail address is already used by another account' },
  'policy.title': { code: 'policy.title_taken', field: 'title', message: 'A password policy with this title already exists' },
  'organization.title': { code: 'organization.title_taken', field: 'title', message: 'An organization with this title already exists' },
  'team.title': { code: 'team.title_taken', field: 'title', message: 'A team with this title already exists in this organization' },
  'reader.name': { code: 'reader.name_taken', field: 'name', message: 'A reader with this name already exists' },
  'attendance_status.title': { code: 'attendance_status.title_taken', field: 'title', message: 'An attendance status with this title already exists' },
};

/** An answer with the status the contracts' table gives its code. */
function answer(code: ErrorCode, message: string, fields?: Record<string, string[]>, rules?: TFieldRule[]): MappedError {
  return { status: ERROR_STATUS[code], body: { error: { code, message, ...(fields ? { fields, rules: rules ?? domainRules(code, message, fields) } : {}) } } };
}

/** a zod issue's message under its field: zod's own texts are fine for types; an unknown key gets a message naming it */
const issueMessage = (issue: ZodError['issues'][number]) => (issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}` : issue.message);

export function zodFields(error: ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (fields[key] ??= []).push(issueMessage(issue));
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
 * The one mapping from anything thrown to the answer a client sees: the same for REST v1, v2, tRPC,
 * the OIDC interaction pages and each row of an account import, which is why it lives outside the
 * http pipeline. Never a stack trace, never a 500 for bad input.
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof ZodError) {
    const fields = zodFields(error);
    const summary = Object.entries(fields).map(([field, messages]) => `${field}: ${messages[0]}`).join('; ');
    return answer('request.invalid', `Invalid input (${summary})`, fields, zodRules(error.issues, issueMessage));
  }
  if (error instanceof DomainError) {
    const fields = error.fields ?? (error.field ? { [error.field]: [error.message] } : undefined);
    // a DomainError's code is a plain string (libs/domain imports nothing): one the table does not know
    // (thrown-error-codes.unit.spec.ts looks for them) is answered as bad input
    const rules = fields ? domainRules(error.code, error.message, fields, error.rules) : undefined;
    if (isErrorCode(error.code)) return answer(error.code, error.message, fields, rules);
    return { status: ERROR_STATUS['request.invalid'], body: { error: { code: error.code, message: error.message, ...(fields ? { fields, rules } : {}) } } };
  }
  if (error instanceof ReservationTakenError) {
    const known = RESERVATION_ERRORS[error.reservation.scope];
    if (known) {
      // every taken value the error names under its field with its own code; the first one's is the error's
      const all = [known, ...error.others.map((other) => RESERVATION_ERRORS[other.scope]).filter((other) => other !== undefined && other.field !== known.field)];
      const fields = Object.fromEntries(all.map(({ field, message }) => [field, [message]]));
      return answer(known.code, known.message, fields, all.map(({ field, code, message }) => ({ field, code, message })));
    }
    return answer('unique.taken', 'This value is already taken');
  }
  if (error instanceof WrongExpectedVersionError) {
    return answer('stream.version_conflict', 'Someone else changed this at the same time; reload and try again');
  }
  // a deadlock or serialization failure that outlived its retries: transient, the caller may try again
  if (isTransientPostgresError(error)) {
    logger.warn(`storage busy: ${(error as { code?: string }).code}: ${(error as Error).message}`);
    return answer('server.unavailable', 'Storage is busy with another change: the call was not completed. Try again shortly');
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
    return answer('server.unavailable', 'Storage is unavailable: the write was not confirmed. Try again shortly');
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Nest's and Express's own refusals: the status is theirs; a status the table gives no code of its
    // own (405, 406, ...) keeps it under request.invalid
    const codes: Record<number, ErrorCode> = { 400: 'request.invalid', 401: 'auth.required', 403: 'auth.forbidden', 404: 'route.not_found', 413: 'request.too_large', 415: 'request.unsupported_media_type', 429: 'rate.limited' };
    const message = status === 404 ? 'This route does not exist' : error.message;
    return { status, body: { error: { code: codes[status] ?? (status >= 500 ? 'server.internal' : 'request.invalid'), message } } };
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return answer('server.internal', 'Something went wrong on our side');
}
