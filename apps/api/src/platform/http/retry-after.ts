/**
 * How long a refused caller should wait (the Retry-After header of a 429), when the error says so:
 * any error with a whole `retryAfterSeconds` (auth/sign-in-throttle.ts). REST, tRPC over HTTP and
 * the OIDC interaction routes all read it here.
 */
export function retryAfterSecondsOf(error: unknown): number | null {
  const seconds = error instanceof Error ? (error as Error & { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}
