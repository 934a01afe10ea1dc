const pad = (n: number) => String(n).padStart(2, '0');

/** an instant as the browser's local 'YYYY-MM-DDTHH:mm:ss', what a datetime-local field shows */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** a datetime-local value back to an instant; an untouched field keeps its original (milliseconds included) */
export function fromLocalInput(value: string, original: string | null): string | null {
  if (!value) return null;
  if (original && toLocalInput(original) === value) return original;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** HH:mm:ss of the local time of day */
export function timeOf(iso: string | null): string {
  return iso ? toLocalInput(iso).slice(11) : '';
}

/** a duration in seconds as HH:MM:SS (hours may pass 24) */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}
