import { comparePositions, formatPosition, type Position, type StoredEvent, type SubscribeOptions, type Subscription } from './event-store.port';

/**
 * A level-triggered wake-up signal. Writers call `notify()` after a commit; the subscription loop
 * remembers the generation it saw *before* reading, so a notify that lands between "read came back
 * empty" and "start waiting" is not lost (the wait returns at once instead of sleeping a full poll).
 */
export class WakeSignal {
  private generation = 0;
  private readonly waiters = new Set<() => void>();

  get current(): number {
    return this.generation;
  }

  notify(): void {
    this.generation++;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * Resolves `true` when notified after generation `since`, `false` on timeout or cancel. The
   * returned `cancel` lets `stop()` cut a long poll short.
   */
  wait(since: number, timeoutMs: number): { promise: Promise<boolean>; cancel: () => void } {
    if (this.generation !== since) return { promise: Promise.resolve(true), cancel: () => undefined };
    let settle!: (notified: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    const onNotify = () => finish(true);
    const timer = setTimeout(() => finish(false), timeoutMs);
    const finish = (notified: boolean) => {
      clearTimeout(timer);
      this.waiters.delete(onNotify);
      settle(notified);
    };
    this.waiters.add(onNotify);
    return { promise, cancel: () => finish(false) };
  }
}

export interface PollingSubscriptionSource {
  readAll(from: Position, limit: number): Promise<StoredEvent[]>;
  wake: WakeSignal;
  /** how long to sleep when nothing was read and nothing was signalled (other processes' appends) */
  pollIntervalMs: number;
  /**
   * After a wake-up that found nothing to read (PostgreSQL: the notify arrived but an older open
   * transaction still holds the snapshot xmin back), poll this often for a while instead.
   */
  shortPollMs?: number;
}

const DEFAULT_BATCH_SIZE = 500;
/** how many short polls follow one empty wake-up before falling back to the normal interval */
const SHORT_POLLS_AFTER_WAKE = 20;

/**
 * The one catch-up-then-live loop shared by the adapters: read a batch after the last delivered
 * position, await the handler, advance, and when the log is exhausted wait for a wake-up or a poll
 * timeout. Catch-up and live are the same code path with the same cursor, so the switch between them
 * can neither skip nor repeat an event: there is no switch.
 */
export function startPollingSubscription(
  source: PollingSubscriptionSource,
  options: SubscribeOptions,
): Subscription & { readonly position: Position } {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const shortPollMs = source.shortPollMs ?? Math.min(10, source.pollIntervalMs);
  let position = options.from;
  let stopping = false;
  let cancelWait: (() => void) | null = null;

  const loop = async (): Promise<void> => {
    let shortPollsLeft = 0;
    while (!stopping) {
      // Taken before the read: a commit that lands after this line makes the wait below return at once.
      const seen = source.wake.current;
      const events = await source.readAll(position, batchSize);
      if (stopping) return;
      if (events.length > 0) {
        assertAdvancing(position, events);
        await options.onEvents(events);
        position = events[events.length - 1].position;
        shortPollsLeft = 0;
        continue;
      }
      const wait = source.wake.wait(seen, shortPollsLeft > 0 ? shortPollMs : source.pollIntervalMs);
      cancelWait = wait.cancel;
      const notified = await wait.promise;
      cancelWait = null;
      if (notified) shortPollsLeft = SHORT_POLLS_AFTER_WAKE;
      else if (shortPollsLeft > 0) shortPollsLeft--;
    }
  };

  // Start on a later tick so a synchronous caller can keep the handle before the first delivery.
  const done = Promise.resolve().then(loop);
  // `done` rejects for whoever awaits it; this keeps a subscription nobody watches from crashing the
  // process with an unhandled rejection (stop() still resolves).
  done.catch(() => undefined);
  const finished = done.then(
    () => undefined,
    () => undefined,
  );

  return {
    done,
    get position() {
      return position;
    },
    stop() {
      stopping = true;
      cancelWait?.();
      return finished;
    },
  };
}

/**
 * A store that hands back an event at or before the cursor would break exactly-once delivery; fail
 * loudly rather than deliver a repeat.
 */
function assertAdvancing(from: Position, events: StoredEvent[]): void {
  let previous = from;
  for (const event of events) {
    if (comparePositions(event.position, previous) <= 0) {
      throw new Error(
        `event store returned position ${formatPosition(event.position)} after ${formatPosition(previous)}: refusing to deliver out of order`,
      );
    }
    previous = event.position;
  }
}
