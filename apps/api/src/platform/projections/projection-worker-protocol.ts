import type { AppConfig } from '../config/app-config';
import type { Position } from '../event-store/event-store.port';

/**
 * What the API's main thread and its projection worker say to each other (docs/adr/0026). The worker
 * owns the read models' writes; the main thread decides, appends, answers and pushes live events, and
 * learns from these messages how far each read model got.
 */
export interface ProjectionWorkerData {
  config: Pick<AppConfig, 'eventStore' | 'readDb'>;
}

/** main thread to worker */
export type ToProjectionWorker =
  /** this process appended: read the events file again now instead of at the next poll */
  | { type: 'appended' }
  /** stop after the batch being applied, close the files, then answer 'stopped' */
  | { type: 'stop' };

/** a failure carried across the thread boundary: its code (SQLITE_FULL, ...) and message */
export interface FailureMessage {
  code: string | null;
  message: string;
}

/** worker to main thread */
export type FromProjectionWorker =
  /** tables set up, read models caught up from their checkpoints onwards: the process may listen */
  | { type: 'started' }
  /** these projections committed up to these positions (their checkpoints in the read database) */
  | { type: 'committed'; positions: Array<[projection: string, position: Position]> }
  | { type: 'failed'; projection: string; error: FailureMessage }
  | { type: 'recovered' }
  | { type: 'set-aside'; projection: string; event: { position: Position; type: string; streamId: string } }
  | { type: 'rebuilding-ahead'; message: string }
  | { type: 'stopped' };

export function toFailureMessage(error: unknown): FailureMessage {
  const code = (error as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : null, message: error instanceof Error ? error.message : String(error) };
}

/** the failure again as an Error with its code, as the runner's own failures reach their owner */
export function fromFailureMessage(failure: FailureMessage): Error {
  return Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
}
