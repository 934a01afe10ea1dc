import { EventEmitter } from 'node:events';
import { comparePositions, START, type Position, type StoredEvent } from '../event-store/event-store.port';

/** the window the projections screen's rate is measured over */
const RATE_WINDOW_MS = 10_000;

/**
 * Where each projection stands, in memory, so a command can wait until the read models have caught
 * up with its own events (read your writes) and the live feed can push what was just projected.
 */
export class ProjectionProgress {
  private readonly positions = new Map<string, Position>();
  /** per projection, the batches of the last RATE_WINDOW_MS: when and how many events */
  private readonly recent = new Map<string, Array<{ at: number; count: number }>>();
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  register(projection: string, position: Position): void {
    this.positions.set(projection, position);
    // a runner restarted on swapped-in tables may start past what waiters wait for (rebuild-with-swap.ts)
    this.emitter.emit('advanced', projection, []);
  }

  advanced(projection: string, position: Position, events: StoredEvent[]): void {
    this.positions.set(projection, position);
    const now = Date.now();
    const recent = (this.recent.get(projection) ?? []).filter((batch) => now - batch.at < RATE_WINDOW_MS);
    recent.push({ at: now, count: events.length });
    this.recent.set(projection, recent);
    this.emitter.emit('advanced', projection, events);
  }

  /** events per second over the last RATE_WINDOW_MS (0 when idle) */
  rateOf(projection: string): number {
    const now = Date.now();
    const count = (this.recent.get(projection) ?? []).filter((batch) => now - batch.at < RATE_WINDOW_MS).reduce((sum, batch) => sum + batch.count, 0);
    return count / (RATE_WINDOW_MS / 1000);
  }

  positionOf(projection: string): Position {
    return this.positions.get(projection) ?? START;
  }

  /** the slowest projection decides what every read model is guaranteed to show */
  lowest(): Position {
    let lowest: Position | null = null;
    for (const position of this.positions.values()) {
      if (!lowest || comparePositions(position, lowest) < 0) lowest = position;
    }
    return lowest ?? START;
  }

  reached(position: Position): boolean {
    for (const current of this.positions.values()) if (comparePositions(current, position) < 0) return false;
    return true;
  }

  /** resolves true once every projection reached `position`, false after `timeoutMs` */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.reached(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAdvance = () => {
        if (!this.reached(position)) return;
        cleanup();
        resolve(true);
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(this.reached(position));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.emitter.off('advanced', onAdvance);
      };
      this.emitter.on('advanced', onAdvance);
    });
  }

  /** subscribe to projected batches; returns the unsubscribe function */
  onAdvanced(listener: (projection: string, events: StoredEvent[]) => void): () => void {
    this.emitter.on('advanced', listener);
    return () => this.emitter.off('advanced', listener);
  }
}
