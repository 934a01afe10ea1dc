import { EventEmitter } from 'node:events';
import { comparePositions, START, type Position, type StoredEvent } from '../event-store/event-store.port';

/**
 * Where each projection stands, in memory, so a command can wait until the read models have caught
 * up with its own events (read your writes) and the live feed can push what was just projected.
 */
export class ProjectionProgress {
  private readonly positions = new Map<string, Position>();
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  register(projection: string, position: Position): void {
    this.positions.set(projection, position);
  }

  advanced(projection: string, position: Position, events: StoredEvent[]): void {
    this.positions.set(projection, position);
    this.emitter.emit('advanced', projection, events);
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
