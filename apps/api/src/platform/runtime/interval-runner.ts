import type { Logger } from '@nestjs/common';

/**
 * A background job on an interval (application/sweeper.ts): runs never overlap, because a run asked
 * for while one is under way answers that run's result; a failed interval run is logged, not thrown,
 * so the next interval tries again. The timer does not keep the process alive, and `stop` waits for a
 * run under way so module shutdown does not pull the database from under it.
 */
export class IntervalRunner<Result> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<Result> | null = null;

  constructor(private readonly logger: Logger) {}

  /** runs `job` every `everyMs` from now on (a module's init) */
  start(everyMs: number, job: () => Promise<Result>): void {
    this.timer = setInterval(() => void job().catch((error: Error) => this.logger.warn(`sweep failed: ${error.message}`)), everyMs);
    this.timer.unref();
  }

  /** no more interval runs; resolves once a run under way has ended (a module's destroy) */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** `run` unless a run is under way, whose result it then answers */
  exclusive(run: () => Promise<Result>): Promise<Result> {
    if (this.running) return this.running;
    this.running = run().finally(() => (this.running = null));
    return this.running;
  }
}
