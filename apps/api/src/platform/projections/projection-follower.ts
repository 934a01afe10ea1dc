import type { Kysely } from 'kysely';
import { comparePositions, START, type EventStore, type Position, type StoredEvent, type Subscription } from '../event-store/event-store.port';
import type { ReadDatabase } from '../read-db/read-database';
import type { Projection } from './projection';
import type { ProjectionProgress } from './projection-progress';

/** events held for projections the leader has not reached yet; beyond this the tail waits */
const MAX_BUFFERED = 10_000;

/** the first retry after a storage failure, doubled on each failure in a row up to MAX_RETRY_MS */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 4000;

const later = (a: Position, b: Position) => (comparePositions(a, b) >= 0 ? a : b);
const earlier = (a: Position, b: Position) => (comparePositions(a, b) <= 0 ? a : b);

/**
 * What a process that does not lead the projections runs instead (docs/adr/0017): it follows `$all`
 * itself and, as the leader's checkpoints pass those events, reports them through ProjectionProgress
 * exactly as a runner would: the position (command waits resolve: the shared read model holds the
 * events) and the events (live pushes and cache evictions go out in this process too). A projection's
 * reported position is the lower of its checkpoint and what this process has read: both bound what
 * the read model is known to hold.
 */
export class ProjectionFollower {
  private readonly reported = new Map<string, Position>();
  private readonly checkpoints = new Map<string, Position>();
  private buffer: StoredEvent[] = [];
  private tail: Position = START;
  private subscription: Subscription | null = null;
  private stopped = false;
  private started = false;
  private resumeTail: (() => void) | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs = FIRST_RETRY_MS;

  constructor(
    private readonly store: EventStore,
    private readonly db: Kysely<ReadDatabase>,
    private readonly projections: readonly Projection[],
    private readonly progress: ProjectionProgress,
    private readonly events: { onError: (error: unknown) => void; onRecovered?: () => void },
  ) {}

  async start(): Promise<void> {
    await this.readCheckpoints();
    for (const { name } of this.projections) {
      // after leading, this process has already announced up to its own last commit: go on from there
      const announced = this.progress.positionOf(name);
      const from = comparePositions(announced, START) > 0 ? announced : (this.checkpoints.get(name) ?? START);
      this.reported.set(name, from);
      this.progress.register(name, from);
    }
    this.tail = this.lowestReported();
    this.subscribe();
    this.started = true;
    this.publish();
  }

  /**
   * Checkpoints the projection worker reports as it commits them (docs/adr/0026), instead of reading
   * them from the table: what they pass is reported at once.
   */
  accept(positions: ReadonlyArray<readonly [projection: string, position: Position]>): void {
    for (const [name, position] of positions) this.checkpoints.set(name, later(position, this.checkpoints.get(name) ?? START));
    if (this.started && !this.stopped) this.publish();
  }

  /**
   * Follows `$all` after what this process has read. A storage failure (a lost connection) stops the
   * subscription: it starts again after a backoff from the same tail, the buffer kept, once the store
   * answers again (docs/security.md, 'Faults degrade and heal').
   */
  private subscribe(): void {
    const subscription = this.store.subscribeToAll({ from: this.tail, batchSize: 1000, onEvents: (events) => this.received(events) });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.stopped || this.subscription !== subscription) return;
      this.subscription = null;
      this.failedWith(error);
    });
  }

  private failedWith(error: unknown): void {
    this.events.onError(error);
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(delay * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped) return;
      // the store answers before the subscription starts again; a failed probe waits longer
      this.store.headPosition().then(
        () => {
          if (this.stopped) return;
          this.retryDelayMs = FIRST_RETRY_MS;
          this.subscribe();
          this.refresh();
          this.events.onRecovered?.();
        },
        (failure: unknown) => {
          if (!this.stopped) this.failedWith(failure);
        },
      );
    }, delay);
    this.retryTimer.unref();
  }

  /** reads the checkpoints again and reports what they passed; concurrent calls fold into one more read */
  refresh(): void {
    if (this.stopped) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.readCheckpoints()
      .then(() => this.publish())
      .catch(() => undefined) // the next notification or tick reads again; /readyz shows a lag meanwhile
      .finally(() => {
        this.refreshing = null;
        if (!this.refreshAgain) return;
        this.refreshAgain = false;
        this.refresh();
      });
  }

  /**
   * This process takes over (it holds the lock now, so the checkpoints stand still): report what the
   * old leader committed and this process has not announced yet, then stop. The runner goes on from
   * the checkpoints. Bounded by MAX_BUFFERED: a projection lagging further than that is announced
   * without its events (its waiters still resolve).
   */
  async handOver(): Promise<void> {
    await this.stop();
    await this.readCheckpoints();
    const target = [...this.checkpoints.values()].reduce(later, START);
    while (comparePositions(this.tail, target) < 0 && this.buffer.length < MAX_BUFFERED) {
      const events = await this.store.readAll(this.tail, 1000);
      if (events.length === 0) break;
      this.buffer.push(...events);
      this.tail = events[events.length - 1].position;
      this.publish();
    }
    this.publish();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.resumeTail?.();
    await this.subscription?.stop();
    this.subscription = null;
    await this.refreshing;
  }

  private async received(events: StoredEvent[]): Promise<void> {
    this.buffer.push(...events);
    this.tail = events[events.length - 1].position;
    this.publish();
    // a projection the leader holds back would make the buffer grow without end: the tail waits for it
    if (this.buffer.length > MAX_BUFFERED && !this.stopped) await new Promise<void>((resume) => (this.resumeTail = resume));
  }

  private async readCheckpoints(): Promise<void> {
    const rows = await this.db.selectFrom('projection_checkpoints').select(['projection', 'position_commit', 'position_sequence']).execute();
    for (const row of rows) {
      const position = { commit: Number(row.position_commit), sequence: Number(row.position_sequence) };
      // a checkpoint moves back only when a deposed leader commits its last batch late: keep the furthest
      this.checkpoints.set(row.projection, later(position, this.checkpoints.get(row.projection) ?? START));
    }
  }

  /** reports each projection up to min(checkpoint, tail), with the events in between */
  private publish(): void {
    for (const { name } of this.projections) {
      const from = this.reported.get(name) ?? START;
      const target = earlier(this.checkpoints.get(name) ?? START, this.tail);
      if (comparePositions(target, from) <= 0) continue;
      const events = this.buffer.filter((event) => comparePositions(event.position, from) > 0 && comparePositions(event.position, target) <= 0);
      this.reported.set(name, target);
      this.progress.advanced(name, target, events);
    }
    const lowest = this.lowestReported();
    const kept = this.buffer.findIndex((event) => comparePositions(event.position, lowest) > 0);
    this.buffer = kept < 0 ? [] : this.buffer.slice(kept);
    if (this.buffer.length <= MAX_BUFFERED && this.resumeTail) {
      const resume = this.resumeTail;
      this.resumeTail = null;
      resume();
    }
  }

  private lowestReported(): Position {
    let lowest: Position | null = null;
    for (const position of this.reported.values()) lowest = lowest ? earlier(lowest, position) : position;
    return lowest ?? START;
  }
}
