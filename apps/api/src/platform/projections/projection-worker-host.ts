import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../config/app-config';
import type { Position } from '../event-store/event-store.port';
import { fromFailureMessage, type FromProjectionWorker, type ProjectionWorkerData, type ToProjectionWorker } from './projection-worker-protocol';
import type { RunnerEvents } from './projection-runner';

/** the first restart after the worker died, doubled on each death in a row up to MAX_RESTART_MS */
const FIRST_RESTART_MS = 250;
const MAX_RESTART_MS = 4000;
/** how long a stop waits for the worker to finish its batch before it is terminated */
const STOP_TIMEOUT_MS = 10_000;

export interface ProjectionWorkerEvents extends RunnerEvents {
  /** projections committed up to these positions */
  onCommitted: (positions: Array<[projection: string, position: Position]>) => void;
}

/**
 * Runs the projections on a worker thread (docs/adr/0026) and relays what it says. Started, it resolves
 * once the worker has set the tables up and subscribed; a worker that dies (an uncaught error, out of
 * memory) is reported as a failure of every projection and started again with backoff, going on from
 * the checkpoints it committed.
 */
export class ProjectionWorkerHost {
  private worker: Worker | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDelayMs = FIRST_RESTART_MS;
  private appendedPending = false;

  constructor(
    private readonly script: string,
    private readonly config: Pick<AppConfig, 'eventStore' | 'readDb'>,
    private readonly projectionNames: readonly string[],
    private readonly events: ProjectionWorkerEvents,
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    const data: ProjectionWorkerData = { config: { eventStore: this.config.eventStore, readDb: this.config.readDb } };
    const worker = new Worker(this.script, { workerData: data });
    this.worker = worker;
    await new Promise<void>((resolve, reject) => {
      const onStartMessage = (message: FromProjectionWorker) => {
        if (message.type !== 'started') return;
        worker.off('exit', onEarlyExit);
        resolve();
      };
      const onEarlyExit = (code: number) => reject(new Error(`the projection worker exited with code ${code} before it started`));
      worker.on('message', onStartMessage);
      worker.once('exit', onEarlyExit);
      worker.once('error', reject);
    });
    worker.on('message', (message: FromProjectionWorker) => this.received(message));
    worker.on('error', (error) => this.died(worker, error));
    worker.on('exit', (code) => this.died(worker, new Error(`the projection worker exited with code ${code}`)));
    this.restartDelayMs = FIRST_RESTART_MS;
  }

  /** this process appended: the worker reads the events now; one message per turn of the event loop */
  appended(): void {
    if (this.appendedPending || !this.worker) return;
    this.appendedPending = true;
    setImmediate(() => {
      this.appendedPending = false;
      this.send({ type: 'appended' });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ToProjectionWorker);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private send(message: ToProjectionWorker): void {
    this.worker?.postMessage(message);
  }

  private received(message: FromProjectionWorker): void {
    switch (message.type) {
      case 'committed':
        this.events.onCommitted(message.positions);
        return;
      case 'failed':
        this.events.onError?.(message.projection, fromFailureMessage(message.error));
        return;
      case 'recovered':
        this.events.onRecovered?.();
        return;
      case 'set-aside':
        this.events.onSetAside?.(message.projection, message.event);
        return;
      case 'rebuilding-ahead':
        this.events.onRebuildingAhead?.(message.message);
        return;
      default:
        return;
    }
  }

  private died(worker: Worker, error: Error): void {
    if (this.stopping || this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    for (const name of this.projectionNames) this.events.onError?.(name, error);
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, MAX_RESTART_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.start().then(
        () => this.events.onRecovered?.(),
        (failure: unknown) => this.died(this.worker ?? worker, failure instanceof Error ? failure : new Error(String(failure))),
      );
    }, delay);
    this.restartTimer.unref();
  }
}
