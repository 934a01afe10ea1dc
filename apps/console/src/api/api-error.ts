import { ERROR_CODES } from '@rollcall/contracts';
import type { TFunction } from 'i18next';

/** The API's one error shape, carried by tRPC errors as `error.data.apiError`. */
export interface ApiErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function errorData(error: unknown): Record<string, unknown> | null {
  if (!isRecord(error)) return null;
  const data = error.data;
  return isRecord(data) ? data : null;
}

export function getApiError(error: unknown): ApiErrorBody | null {
  const apiError = errorData(error)?.apiError;
  if (!isRecord(apiError) || typeof apiError.code !== 'string' || typeof apiError.message !== 'string') return null;
  const fields: Record<string, string[]> = {};
  if (isRecord(apiError.fields)) {
    for (const [name, messages] of Object.entries(apiError.fields)) {
      if (Array.isArray(messages)) fields[name] = messages.filter((m): m is string => typeof m === 'string');
    }
  }
  return { code: apiError.code, message: apiError.message, fields };
}

export function getHttpStatus(error: unknown): number | undefined {
  const status = errorData(error)?.httpStatus;
  if (typeof status === 'number') return status;
  // an answer that is not tRPC's (a proxy's 502 page, a crashed process's 500): the link keeps the
  // HTTP response it got, so the server answered and is not 'unreachable'
  const response = isRecord(error) && isRecord(error.meta) ? error.meta.response : undefined;
  return isRecord(response) && typeof response.status === 'number' && response.status >= 400 ? response.status : undefined;
}

const knownCodes = new Set<string>(ERROR_CODES);

/**
 * A message for the admin: the translation of a known error code, else the server's own message,
 * else a generic text. tRPC's own messages (JSON dumps of validation issues) are never shown.
 */
export function describeError(error: unknown, t: TFunction): string {
  const apiError = getApiError(error);
  if (apiError) {
    return knownCodes.has(apiError.code)
      ? t(`errors.${apiError.code}`, { defaultValue: apiError.message })
      : apiError.message;
  }
  const status = getHttpStatus(error);
  if (status === 401) return t('errors.auth.required');
  if (status === 403) return t('errors.auth.forbidden');
  if (status === 404) return t('errors.resource.not_found');
  if (status !== undefined && status >= 500) return t('errors.serverFailed', { status });
  if (status !== undefined) return t('errors.http', { status });
  // an answer came, but not the API's JSON (a proxy's error page, a process that failed mid-answer):
  // the server was reached, it failed
  if (isRecord(error) && error.cause instanceof SyntaxError) return t('errors.serverFailedAnswer');
  return t('errors.network');
}

/**
 * Splits a server error for a form: messages of the form's own fields go under those fields; the
 * rest (other fields, or no fields at all) becomes one notice, so nothing the server said is lost.
 */
export function splitFieldErrors<Field extends string>(
  error: unknown,
  formFields: readonly Field[],
  t: TFunction,
): { fields: Partial<Record<Field, string[]>>; notice: string | null } {
  const fields: Partial<Record<Field, string[]>> = {};
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(getApiError(error)?.fields ?? {})) {
    if (!messages.length) continue;
    // a list item's error ('restrictions.0') is shown under its list's field
    const field = (formFields as readonly string[]).includes(name) ? name : name.split('.')[0];
    if ((formFields as readonly string[]).includes(field)) (fields[field as Field] ??= []).push(...messages);
    else unplaced.push(...messages);
  }
  const notice = unplaced.length ? unplaced.join(' ') : Object.keys(fields).length ? null : describeError(error, t);
  return { fields, notice };
}

/** One message for a single-field form (a picker): the server's field messages, else the error described. */
export function singleFieldErrorText(error: unknown, t: TFunction): string {
  const messages = Object.values(getApiError(error)?.fields ?? {}).flat();
  return messages.length ? messages.join(' ') : describeError(error, t);
}
