import Database from '@rollcall/sqlite-driver';
import {
  type AppendOptions,
  type AppendResult,
  assertValidStreamWrites,
  EventStoreUnavailableError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type Reservation,
  ReservationTakenError,
  START,
  type StoredEvent,
  type StreamRead,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from './event-store.port';
import { startPollingSubscription, WakeSignal } from './polling-subscription';

export interface SqliteEventStoreOptions {
  /** how long a write waits for another process's write lock before the batch fails (ms) */
  busyTimeoutMs?: number;
  /**
   * Poll interval for subscriptions. Appends made through this store wake subscribers at once; the
   * poll only matters for appends made by other processes on the same file.
   */
  pollIntervalMs?: number;
  /** most appends committed in one transaction */
  maxBatch?: number;
  /**
   * Wakes this store's subscriptions when another thread appended to the same file (the projection
   * worker, projections/projection-worker-host.ts); without it they learn of such appends at the next poll.
   */
  wake?: WakeSignal;
}

export interface SqliteEventStoreStats {
  /** committed write transactions (one per group-commit batch) */
  transactions: number;
  /**
   * appends that appended events (duplicates and rejected appends excluded); an `appendToStreams` call
   * counts once, whatever the number of its streams
   */
  appends: number;
  /** largest number of appends (calls, as above) that shared one transaction */
  largestBatch: number;
}

interface PendingWrite {
  streamId: string;
  /** serialized up front so a payload that cannot be stored fails its caller before the batch starts */
  rows: Array<{ type: string; data: string; metadata: string; schemaVersion: number }>;
  options: AppendOptions;
}

/** One caller's unit of the batch: one savepoint, all of its writes or none. */
interface PendingAppend {
  /** one for `appendToStream`, several for `appendToStreams` */
  writes: PendingWrite[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; results: AppendResult[] } | { ok: false; error: unknown };

interface EventRow {
  position: number;
  stream_id: string;
  stream_version: number;
  type: string;
  data: string;
  metadata: string;
  schema_version: number;
}

/** the store's tables (exported for the bench's bare-append ceiling, which must write the same rows) */
export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS es_events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    schema_version INTEGER NOT NULL DEFAULT 1,
    UNIQUE (stream_id, stream_version)
  );
  CREATE TABLE IF NOT EXISTS es_streams (
    stream_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS es_reservations (
    scope TEXT NOT NULL,
    value TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    PRIMARY KEY (scope, value)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS es_idempotency_keys (
    key TEXT PRIMARY KEY,
    result TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/**
 * Event store on one SQLite file (WAL, synchronous=FULL).
 *
 * Appends are group-committed: every append queued during one turn of the event loop is written in one
 * transaction (one fsync), each inside its own SAVEPOINT so a rejected append rolls back alone. A
 * multi-stream append (`appendToStreams`) is one such unit: all its streams share its savepoint. The
 * global position is the AUTOINCREMENT rowid; SQLite has a single writer and assigns it under the write
 * lock, so positions become visible in order and a reader can never see N+1 before N
 * (docs/adr/0002-event-store-global-ordering.md).
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly wake: WakeSignal;
  private readonly queue: PendingAppend[] = [];
  private flushHandle: NodeJS.Immediate | null = null;
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;
  private readonly counters: SqliteEventStoreStats = { transactions: 0, appends: 0, largestBatch: 0 };
  private readonly pollIntervalMs: number;
  private readonly maxBatch: number;

  private readonly statements: {
    streamVersion: Database.Statement<[string], { version: number }>;
    upsertStream: Database.Statement<[string, number]>;
    insertEvent: Database.Statement<[string, number, string, string, string, number]>;
    reserve: Database.Statement<[string, string, string]>;
    reservationOwner: Database.Statement<[string, string], { stream_id: string }>;
    release: Database.Statement<[string, string, string]>;
    idempotencyResult: Database.Statement<[string], { result: string }>;
    storeIdempotency: Database.Statement<[string, string]>;
    readStream: Database.Statement<[string, number], EventRow>;
    readStreams: Database.Statement<[string], EventRow & { request: number }>;
    readAll: Database.Statement<[number, number], EventRow>;
    head: Database.Statement<[], { position: number | null }>;
  };

  constructor(
    /** the events file; a rebuild attaches it to copy rows by SQL (projections/stored-event-rows.ts) */
    readonly file: string,
    options: SqliteEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.wake = options.wake ?? new WakeSignal();
    this.maxBatch = options.maxBatch ?? 1000;
    let db: Database.Database | undefined;
    try {
      db = new Database(file);
      // busy_timeout first: switching to WAL and creating tables may wait on another process.
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.pragma('journal_mode = WAL');
      // FULL: an acknowledged append survives power loss (NORMAL in WAL mode may lose the last commits).
      db.pragma('synchronous = FULL');
      // a released username or e-mail is zeroed in the file, not left in a free page (docs/adr/0015)
      db.pragma('secure_delete = ON');
      // IMMEDIATE so two processes opening a fresh file do not both try to create the tables.
      db.exec('BEGIN IMMEDIATE');
      db.exec(SCHEMA);
      db.exec('COMMIT');
    } catch (error) {
      db?.close();
      throw new EventStoreUnavailableError(`cannot open SQLite event store ${file}: ${messageOf(error)}`, error);
    }
    this.db = db;
    const columns = 'position, stream_id, stream_version, type, data, metadata, schema_version';
    this.statements = {
      streamVersion: db.prepare('SELECT version FROM es_streams WHERE stream_id = ?'),
      upsertStream: db.prepare(
        'INSERT INTO es_streams (stream_id, version) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version',
      ),
      insertEvent: db.prepare(
        'INSERT INTO es_events (stream_id, stream_version, type, data, metadata, schema_version) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      reserve: db.prepare(
        'INSERT INTO es_reservations (scope, value, stream_id) VALUES (?, ?, ?) ON CONFLICT (scope, value) DO NOTHING',
      ),
      reservationOwner: db.prepare('SELECT stream_id FROM es_reservations WHERE scope = ? AND value = ?'),
      release: db.prepare('DELETE FROM es_reservations WHERE scope = ? AND value = ? AND stream_id = ?'),
      idempotencyResult: db.prepare('SELECT result FROM es_idempotency_keys WHERE key = ?'),
      storeIdempotency: db.prepare('INSERT INTO es_idempotency_keys (key, result) VALUES (?, ?)'),
      readStream: db.prepare(
        `SELECT ${columns} FROM es_events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version`,
      ),
      // one index range scan per stream asked for, the reads given as a JSON array of [stream id, from version]
      readStreams: db.prepare(
        `SELECT r.key AS request, ${columns.split(', ').map((column) => `e.${column}`).join(', ')}
         FROM json_each(?) r JOIN es_events e ON e.stream_id = r.value ->> 0 AND e.stream_version >= r.value ->> 1
         ORDER BY r.key, e.stream_version`,
      ),
      readAll: db.prepare(`SELECT ${columns} FROM es_events WHERE position >= ? ORDER BY position LIMIT ?`),
      head: db.prepare('SELECT max(position) AS position FROM es_events'),
    };
  }

  /** Counters for tests and the bench; not part of the port. */
  stats(): SqliteEventStoreStats {
    return { ...this.counters };
  }

  appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new EventStoreUnavailableError('event store is closed'));
    if (events.length === 0) return Promise.reject(new Error(`append to ${streamId} carries no events`));
    let rows: PendingWrite['rows'];
    try {
      rows = serializeRows(events);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.enqueue({ writes: [{ streamId, rows, options }], resolve: (results) => resolve(results[0]), reject });
    });
  }

  appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    if (this.closed) return Promise.reject(new EventStoreUnavailableError('event store is closed'));
    let pending: PendingWrite[];
    try {
      assertValidStreamWrites(writes);
      pending = writes.map(({ streamId, events, options }) => ({ streamId, rows: serializeRows(events), options }));
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult[]>((resolve, reject) => this.enqueue({ writes: pending, resolve, reject }));
  }

  async readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.statements.readStream.all(streamId, fromVersion).map(toStoredEvent);
  }

  /**
   * One statement for all the reads: a statement per stream costs about 10 µs of the calling thread
   * even when the stream holds nothing new, a batch of scans reads about a thousand, and in one
   * statement the same reads take a tenth of that (docs/benchmarks.md).
   */
  async readStreams(reads: readonly StreamRead[]): Promise<StoredEvent[][]> {
    this.assertOpen();
    const streams: StoredEvent[][] = reads.map(() => []);
    if (reads.length === 0) return streams;
    if (reads.length === 1) return [await this.readStream(reads[0].streamId, reads[0].fromVersion)];
    const asked = JSON.stringify(reads.map(({ streamId, fromVersion = 0 }) => [streamId, fromVersion]));
    for (const row of this.statements.readStreams.all(asked)) streams[row.request].push(toStoredEvent(row));
    return streams;
  }

  async readAll(from: Position, limit: number): Promise<StoredEvent[]> {
    this.assertOpen();
    // Our positions have commit = sequence = rowid, so "strictly after (c, s)" is rowid > c, or rowid = c
    // when s < c (a position that sorts before the event at c).
    const firstRowid = from.sequence < from.commit ? from.commit : from.commit + 1;
    return this.statements.readAll.all(firstRowid, Math.max(0, Math.floor(limit))).map(toStoredEvent);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = startPollingSubscription(
      { readAll: (from, limit) => this.readAll(from, limit), wake: this.wake, pollIntervalMs: this.pollIntervalMs },
      options,
    );
    this.subscriptions.add(subscription);
    const forget = () => this.subscriptions.delete(subscription);
    subscription.done.then(forget, forget);
    return subscription;
  }

  async headPosition(): Promise<Position> {
    this.assertOpen();
    const position = this.statements.head.get()?.position;
    return position == null ? START : { commit: position, sequence: position };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Appends already accepted are still written: their callers are waiting for an answer.
    if (this.flushHandle) clearImmediate(this.flushHandle);
    while (this.queue.length > 0) this.flush();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.wake.notify();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('event store is closed');
  }

  private enqueue(append: PendingAppend): void {
    this.queue.push(append);
    // setImmediate runs after the I/O and promise callbacks of this turn: every append issued
    // "at the same time" (Promise.all, concurrent requests) lands in the same batch.
    this.flushHandle ??= setImmediate(() => this.flush());
  }

  /** Writes up to `maxBatch` queued appends in one transaction, then settles their callers. */
  private flush(): void {
    this.flushHandle = null;
    const batch = this.queue.splice(0, this.maxBatch);
    if (this.queue.length > 0 && !this.closed) this.flushHandle = setImmediate(() => this.flush());
    if (batch.length === 0) return;

    const outcomes: Outcome[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      for (const append of batch) {
        this.db.exec('SAVEPOINT append');
        try {
          outcomes.push({ ok: true, results: this.applyAppend(append) });
          this.db.exec('RELEASE append');
        } catch (error) {
          if (!isRejectionOfOneAppend(error)) throw error;
          this.db.exec('ROLLBACK TO append');
          this.db.exec('RELEASE append');
          outcomes.push({ ok: false, error });
        }
      }
      this.db.exec('COMMIT');
    } catch (error) {
      // The transaction itself failed (disk full, I/O error, another process holding the lock past
      // busy_timeout): nothing of the batch is durable, and even a "wrong version" verdict may have
      // been judged against appends that are now gone, so every caller gets the same answer.
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // SQLite may already have rolled back on its own; the batch fails either way.
        }
      }
      const failure = new EventStoreUnavailableError(`SQLite append failed: ${messageOf(error)}`, error);
      for (const append of batch) append.reject(failure);
      return;
    }

    this.counters.transactions++;
    this.counters.largestBatch = Math.max(this.counters.largestBatch, batch.length);
    batch.forEach((append, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) {
        if (!outcome.results[0].duplicate) this.counters.appends++;
        append.resolve(outcome.results);
      } else {
        append.reject(outcome.error);
      }
    });
    this.wake.notify();
  }

  /**
   * Runs inside the batch transaction and the append's savepoint; throws to reject only this append (all
   * of its writes). Checks every write's version, then applies every release, then every reservation,
   * then inserts the events in the order of the writes, so the rowids (positions) are consecutive.
   */
  private applyAppend({ writes }: PendingAppend): AppendResult[] {
    const s = this.statements;
    // Only a single append can carry a key (appendToStreams refuses them). The key is checked before
    // the version: a retried append must get its first answer, not a version conflict caused by its
    // own first attempt.
    const key = writes.length === 1 ? writes[0].options.idempotencyKey : undefined;
    if (key !== undefined) {
      const stored = s.idempotencyResult.get(key);
      if (stored) return [{ ...(JSON.parse(stored.result) as Omit<AppendResult, 'duplicate'>), duplicate: true }];
    }

    const firstVersions = writes.map(({ streamId, options }) => {
      const current = s.streamVersion.get(streamId)?.version;
      const expected = options.expectedVersion;
      if (
        (expected === 'no_stream' && current !== undefined) ||
        (typeof expected === 'number' && current !== expected)
      ) {
        throw new WrongExpectedVersionError(streamId, expected, current ?? 'no_stream');
      }
      return (current ?? -1) + 1;
    });

    // Releases first, so an append can hand a value back and take it again (or swap values), and one
    // write of a multi-stream append can take what another write of it gives up.
    for (const { streamId, options } of writes) {
      for (const { scope, value } of options.releases ?? []) s.release.run(scope, value, streamId);
    }
    for (const { streamId, options } of writes) {
      for (const reservation of options.reservations ?? []) {
        if (s.reserve.run(reservation.scope, reservation.value, streamId).changes === 0) {
          const owner = s.reservationOwner.get(reservation.scope, reservation.value)?.stream_id;
          if (owner !== streamId) throw new ReservationTakenError(copyReservation(reservation));
        }
      }
    }

    const results = writes.map(({ streamId, rows }, writeIndex) => {
      const firstVersion = firstVersions[writeIndex];
      let lastPosition = 0;
      rows.forEach((row, index) => {
        const info = s.insertEvent.run(streamId, firstVersion + index, row.type, row.data, row.metadata, row.schemaVersion);
        lastPosition = Number(info.lastInsertRowid);
      });
      const nextExpectedVersion = firstVersion + rows.length - 1;
      s.upsertStream.run(streamId, nextExpectedVersion);
      return { nextExpectedVersion, position: { commit: lastPosition, sequence: lastPosition }, duplicate: false };
    });

    if (key !== undefined) {
      const { nextExpectedVersion, position } = results[0];
      s.storeIdempotency.run(key, JSON.stringify({ nextExpectedVersion, position }));
    }
    return results;
  }
}

/**
 * Errors that concern one append only: its savepoint is rolled back and the rest of the batch commits.
 * A constraint error can only mean this append's data clashes (the checks above should prevent it),
 * never that the database is unwell.
 */
function isRejectionOfOneAppend(error: unknown): boolean {
  if (error instanceof WrongExpectedVersionError || error instanceof ReservationTakenError) return true;
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CONSTRAINT');
}

function serializeRows(events: NewEvent[]): PendingWrite['rows'] {
  return events.map((event) => ({
    type: event.type,
    data: JSON.stringify(event.data ?? null),
    metadata: JSON.stringify(event.metadata),
    schemaVersion: event.schemaVersion ?? 1,
  }));
}

function toStoredEvent(row: EventRow): StoredEvent {
  // metadata is parsed on first use: projections rarely read it, and on a rebuild of a million
  // events parsing it eagerly was a large share of the time
  let metadata: EventMetadata | undefined;
  return {
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    position: { commit: row.position, sequence: row.position },
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    get metadata(): EventMetadata {
      return (metadata ??= JSON.parse(row.metadata) as EventMetadata);
    },
    schemaVersion: row.schema_version,
  };
}

const copyReservation = ({ scope, value }: Reservation): Reservation => ({ scope, value });

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
