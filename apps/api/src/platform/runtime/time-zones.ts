/** The IANA names this runtime knows, plus 'UTC' (some ICU builds list only 'Etc/UTC'). Computed once. */
let cached: string[] | null = null;

export function supportedTimeZones(): string[] {
  cached ??= [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();
  return cached;
}

let known: Set<string> | null = null;

export function isSupportedTimeZone(name: string): boolean {
  known ??= new Set(supportedTimeZones());
  return known.has(name);
}
