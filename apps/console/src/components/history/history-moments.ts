/** the largest sequence a position may carry (the contracts accept up to 16 digits) */
const SEQUENCE_MAX = '9999999999999999';

/**
 * The position just before an event's: time travel to it shows the entity as it was before that
 * event. Positions are `commit.sequence`, ordered by commit then sequence (docs/adr/0002).
 */
export function positionJustBefore(position: string): string {
  const [commit, sequence] = position.split('.').map(Number);
  if (sequence > 0) return `${commit}.${sequence - 1}`;
  return commit > 0 ? `${commit - 1}.${SEQUENCE_MAX}` : '0.0';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** a datetime-local value with seconds, in the browser's zone */
export function toLocalSecondsInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
