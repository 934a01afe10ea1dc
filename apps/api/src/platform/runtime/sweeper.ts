import type { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Clock } from './clock';
import { IntervalRunner } from './interval-runner';

/**
 * A background sweep (the attendance sweepers): on an interval, each item that is due gets its own
 * system command, and the events they record are counted. One item failing is logged and the others
 * go on; the next interval tries it again. Runs never overlap (IntervalRunner).
 */
export abstract class Sweeper<Item> implements OnModuleInit, OnModuleDestroy {
  private readonly runner: IntervalRunner<number>;

  protected constructor(
    protected readonly logger: Logger,
    protected readonly clock: Clock,
    private readonly everyMs: number,
  ) {
    this.runner = new IntervalRunner<number>(logger);
  }

  onModuleInit(): void {
    this.runner.start(this.everyMs, () => this.sweep());
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }

  /** settles everything due at `now`; answers how many events that recorded */
  sweep(now: Date = this.clock.now()): Promise<number> {
    return this.runner.exclusive(async () => {
      let recorded = 0;
      for (const item of await this.due(now)) {
        try {
          recorded += await this.settle(item, now);
        } catch (error) {
          this.logger.warn(`could not ${this.describe(item)}: ${(error as Error).message}`);
        }
      }
      return recorded;
    });
  }

  /** what is due at `now` */
  protected abstract due(now: Date): Promise<Item[]>;
  /** one item's command; answers the number of events it recorded */
  protected abstract settle(item: Item, now: Date): Promise<number>;
  /** for the log: 'end register mode of reader 0193...' */
  protected abstract describe(item: Item): string;
}
