import { z } from 'zod';

/**
 * Stable, dotted error codes. The console maps them to translated messages; clients may branch on
 * them. A code is never renamed once released.
 */
export const ERROR_CODES = [
  'request.invalid',
  'request.malformed_json',
  'request.too_large',
  'request.unsupported_media_type',
  'route.not_found',
  'auth.required',
  'auth.invalid_credentials',
  'auth.forbidden',
  'auth.password_change_required',
  'password.too_short',
  'password.too_weak',
  'password.reused',
  'password.current_wrong',
  'account.username_unchangeable',
  'account.status_invalid',
  'resource.not_found',
  'stream.version_conflict',
  'unique.taken',
  'account.username_taken',
  'account.email_taken',
  'account.not_found',
  'account.exists',
  'account.protected',
  'policy.not_found',
  'policy.title_taken',
  'policy.exists',
  'rate.limited',
  'server.unavailable',
  'server.internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error shape of every REST answer (and of tRPC errors' `data.apiError`). */
export const ZApiError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
});
export type TApiError = z.infer<typeof ZApiError>;
