/**
 * Exponential backoff with full jitter: the wait after the n-th failure in a row is uniform in
 * [0, min(max, base * 2^(n-1))]. Full jitter keeps a hundred doors that lost the server at the same
 * moment from all coming back at the same moment.
 */
export function backoffDelay(failures: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  if (failures <= 0) return 0;
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(random() * ceiling);
}

/** A timer that a stop can cut short. Resolves true when it ran out, false when woken or aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
