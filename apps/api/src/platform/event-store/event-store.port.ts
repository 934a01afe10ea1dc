/**
 * The event store port. Every adapter (SQLite, PostgreSQL, later KurrentDB) passes the one contract
 * suite in `event-store.contract.ts`. See docs/adr/0002-event-store-global-ordering.md for how each adapter orders
 * `$all`.
 */

/**
 * A place in the global log. `commit` orders transactions (the PostgreSQL transaction id; the SQLite
 * adapter uses the event's own sequence), `sequence` orders events inside one commit. Positions compare
 * lexicographically; the pair is shown to clients as the string `"<commit>.<sequence>"`.
 */
export interface Position {
  readonly commit: number;
  readonly sequence: number;
}

export const START: Position = { commit: 0, sequence: 0 };

export function comparePositions(a: Position, b: Position): number {
  return a.commit !== b.commit ? Math.sign(a.commit - b.commit) : Math.sign(a.sequence - b.sequence);
}

export const formatPosition = (p: Position) => `${p.commit}.${p.sequence}`;

export function parsePosition(text: string): Position | null {
  const match = /^(\d+)\.(\d+)$/.exec(text);
  return match ? { commit: Number(match[1]), sequence: Number(match[2]) } : null;
}

export interface EventMetadata {
  eventId: string;
  /** account id, token id or reader id; 'system' for the bootstrap. */
  actor: string;
  actorKind: 'account' | 'token' | 'reader' | 'system';
  sourceIp: string | null;
  correlationId: string;
  causationId: string | null;
  /** server clock, ISO-8601 */
  occurredAt: string;
  /** the device's own clock, for readers */
  deviceTime?: string | null;
}

export interface NewEvent {
  type: string;
  data: unknown;
  metadata: EventMetadata;
  /** payload schema version, for upcasters (default 1) */
  schemaVersion?: number;
}

export interface StoredEvent {
  streamId: string;
  /** 0-based version of the event within its stream */
  streamVersion: number;
  position: Position;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  schemaVersion: number;
}

/**
 * `no_stream`: the stream must not exist; a number: the stream's current version (the version of its
 * last event, 0-based); `any`: no check.
 */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** A unique value (username, e-mail, card UID, ...) owned by one stream. */
export interface Reservation {
  scope: string;
  value: string;
}

export interface AppendOptions {
  expectedVersion: ExpectedVersion;
  /** taken atomically with the append; a value owned by another stream fails the whole append */
  reservations?: Reservation[];
  /** released atomically with the append (only if owned by this stream) */
  releases?: Reservation[];
  /** a repeated key appends nothing and returns the first append's result */
  idempotencyKey?: string;
}

/** One stream's part of an `appendToStreams` call. */
export interface StreamWrite {
  streamId: string;
  events: NewEvent[];
  /** `idempotencyKey` is refused here: a key names one append, not a share of a multi-stream one */
  options: AppendOptions;
}

export interface AppendResult {
  /** version of the stream's last event after the append */
  nextExpectedVersion: number;
  /** position of the last appended event */
  position: Position;
  /** true when the idempotency key had been used: nothing was appended */
  duplicate: boolean;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${expected}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export class ReservationTakenError extends Error {
  constructor(
    readonly reservation: Reservation,
    /** other values of the same append found taken too (a command may look them up to name them all) */
    readonly others: readonly Reservation[] = [],
  ) {
    super(`${reservation.scope} '${reservation.value}' is already taken`);
    this.name = 'ReservationTakenError';
  }
}

/** The storage itself failed (disk full, fsync error, server gone): the append was not acknowledged. */
export class EventStoreUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'EventStoreUnavailableError';
  }
}

export interface Subscription {
  /**
   * stops delivery; resolves once the handler will not be called again (never rejects). Do not await
   * it from inside `onEvents`: it waits for that very handler to return.
   */
  stop(): Promise<void>;
  /**
   * settles when the subscription ends: resolves after stop() (or the store's close()), rejects with
   * the error when the handler or the store failed, which also ends the subscription
   */
  readonly done: Promise<void>;
}

export interface SubscribeOptions {
  /** deliver events strictly after this position (START for everything) */
  from: Position;
  /** called with ordered batches; the next batch is read only after it resolves */
  onEvents: (events: StoredEvent[]) => Promise<void> | void;
  batchSize?: number;
}

/** one stream to read, from a version (0 when left out) */
export interface StreamRead {
  streamId: string;
  fromVersion?: number;
}

export interface EventStore {
  appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams in one transaction: every write's expectedVersion, reservations and
   * releases are checked; one failure appends nothing anywhere. Results come in the order of `writes`;
   * the events get consecutive places in `$all` in that order, with nothing of other appends between
   * them. All releases of the call apply before any of its reservations, so one write can take a value
   * another write of the same call gives up, whatever their order. Fails like `appendToStream`
   * (`WrongExpectedVersionError` names the stream that failed); refuses with a plain Error an empty
   * list, a stream named twice, a write without events and an idempotency key.
   */
  appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]>;
  /** events of one stream from `fromVersion` (inclusive), in order */
  readStream(streamId: string, fromVersion?: number): Promise<StoredEvent[]>;
  /**
   * Several streams at once, each from its `fromVersion` (inclusive): the answer's i-th list is the
   * i-th read's events, in order, as `readStream` would give them. One statement or query where the
   * store can: a batch of scans reads a stream per card and per day, and most of them hold nothing new.
   */
  readStreams(reads: readonly StreamRead[]): Promise<StoredEvent[][]>;
  /** up to `limit` events strictly after `from`, in global order; never skips a late commit */
  readAll(from: Position, limit: number): Promise<StoredEvent[]>;
  /** catch-up then live, one mechanism so nothing is skipped or repeated at the switch */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** position of the last event a reader can see now (START when empty) */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}

/**
 * The call shapes every adapter refuses in `appendToStreams`, checked in one place so they agree.
 * Throws a plain Error: these are programming mistakes, not outcomes of the data.
 */
export function assertValidStreamWrites(writes: readonly StreamWrite[]): void {
  if (writes.length === 0) throw new Error('appendToStreams needs at least one write');
  const seen = new Set<string>();
  for (const { streamId, events, options } of writes) {
    if (seen.has(streamId)) throw new Error(`stream ${streamId} appears more than once in one appendToStreams call`);
    seen.add(streamId);
    if (events.length === 0) throw new Error(`append to ${streamId} carries no events`);
    if (options.idempotencyKey !== undefined) {
      throw new Error(`appendToStreams does not take idempotency keys (stream ${streamId})`);
    }
  }
}
