import pg from 'pg';
import {
  type AppendOptions,
  type AppendResult,
  assertValidStreamWrites,
  EventStoreUnavailableError,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type Position,
  type Reservation,
  ReservationTakenError,
  START,
  type StoredEvent,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from './event-store.port';
import { startPollingSubscription, WakeSignal } from './polling-subscription';
import { CONNECT_TIMEOUT_MS, isPostgresUnavailable, postgresApplicationName, survivingConnectionLoss } from './postgres-connections';

export interface PostgresEventStoreOptions {
  url: string;
  /** schema holding the event store's tables; created on start (default `event_store`) */
  schema?: string;
  /** connections in the pool (default 10) */
  poolSize?: number;
  /** subscription poll interval when no notification arrives, e.g. LISTEN is down (default 100 ms) */
  pollIntervalMs?: number;
  /** re-poll interval after a notification that found nothing visible yet (default 10 ms) */
  shortPollMs?: number;
}

/** Anything that can run a query: a pool client inside BEGIN, or a plain `pg.Client` inside BEGIN. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  schema_version: number;
}

/** A write with its events already turned into the JSON array the INSERT unpacks. */
interface SerializedWrite {
  streamId: string;
  payload: string;
  count: number;
  options: AppendOptions;
}

const EVENT_COLUMNS =
  'global_position, transaction_id::text AS transaction_id, stream_id, stream_version, type, data, metadata, schema_version';

/** Deadlocks and serialization failures say nothing about the append itself: run it again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;
const LISTEN_RETRY_MS = 1000;

/**
 * Event store on PostgreSQL.
 *
 * `$all` is ordered by (transaction id, global_position), and readers only see rows of transactions
 * older than the oldest transaction still open (`pg_snapshot_xmin`). A bigserial alone is not enough:
 * sequence values are handed out at insert time, not at commit, so a reader that followed
 * global_position would skip a transaction that took a lower number but committed later
 * (docs/adr/0002-event-store-global-ordering.md). Position: commit = transaction id, sequence =
 * global_position.
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly channel: string;
  private readonly wake = new WakeSignal();
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;
  private listener: pg.Client | null = null;
  private listenerStarting: Promise<void> | null = null;
  private listenerRetry: NodeJS.Timeout | null = null;
  private readonly t: { events: string; streams: string; reservations: string; idempotency: string };

  private constructor(private readonly options: PostgresEventStoreOptions) {
    this.schema = options.schema ?? 'event_store';
    // A plain identifier keeps quoting trivial (the app config enforces the same rule).
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.schema)) {
      throw new Error(`invalid event store schema name '${this.schema}' (lower-case letters, digits and _)`);
    }
    // The read models may live in the same schema (ROLLCALL_PG_SCHEMA serves both): the es_ prefix
    // keeps our tables apart from theirs.
    const q = `"${this.schema}"`;
    this.t = {
      events: `${q}.es_events`,
      streams: `${q}.es_streams`,
      reservations: `${q}.es_reservations`,
      idempotency: `${q}.es_idempotency_keys`,
    };
    // Channel names are cut at 63 bytes; two long schema names sharing a prefix would only cause extra
    // wake-ups, which are harmless because a wake-up is a hint to poll, never data.
    this.channel = `es_events_${this.schema}`.slice(0, 63);
    // A client that loses its connection emits 'error'; without a listener that kills the process.
    // The pool drops the client and the next append gets a fresh one (postgres-connections.ts).
    this.pool = survivingConnectionLoss(
      new pg.Pool({
        connectionString: options.url,
        max: options.poolSize ?? 10,
        application_name: postgresApplicationName('event-store', this.schema),
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        keepAlive: true,
      }),
    );
  }

  /** Connects and creates the schema and tables if they do not exist yet. */
  static async connect(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(options);
    try {
      await store.migrate();
    } catch (error) {
      await store.pool.end().catch(() => undefined);
      throw toUnavailable(error, 'cannot start PostgreSQL event store');
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two processes starting together would otherwise race on CREATE ... IF NOT EXISTS (which is not
      // atomic against a concurrent create of the same name).
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rollcall.event_store.${this.schema}`]);
      // The read database may create the same schema at the same moment (another lock, another
      // connection): a lost race on CREATE SCHEMA IF NOT EXISTS is harmless, so it is rolled back alone.
      await client.query('SAVEPOINT create_schema');
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await client.query('RELEASE SAVEPOINT create_schema');
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== '23505' && code !== '42P06') throw error;
        await client.query('ROLLBACK TO SAVEPOINT create_schema');
      }
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.t.events} (
          global_position bigserial PRIMARY KEY,
          transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
          stream_id text NOT NULL,
          stream_version bigint NOT NULL,
          type text NOT NULL,
          data jsonb NOT NULL,
          metadata jsonb NOT NULL,
          schema_version integer NOT NULL DEFAULT 1,
          UNIQUE (stream_id, stream_version)
        )`);
      await client.query(
        `CREATE INDEX IF NOT EXISTS es_events_global_order ON ${this.t.events} (transaction_id, global_position)`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.t.streams} (stream_id text PRIMARY KEY, version bigint NOT NULL)`,
      );
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.t.reservations} (
          scope text NOT NULL,
          value text NOT NULL,
          stream_id text NOT NULL,
          PRIMARY KEY (scope, value)
        )`);
      // result is NULL only while the first append holding the key is still open.
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.t.idempotency} (key text PRIMARY KEY, result jsonb)`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const write = { streamId, payload: serializeEvents(streamId, events), count: events.length, options };
    return (await this.appendInTransaction([write]))[0];
  }

  async appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    assertValidStreamWrites(writes);
    return this.appendInTransaction(
      writes.map(({ streamId, events, options }) => ({
        streamId,
        payload: serializeEvents(streamId, events),
        count: events.length,
        options,
      })),
    );
  }

  /** One transaction on a pooled client for the writes, retried on deadlocks and serialization failures. */
  private async appendInTransaction(writes: SerializedWrite[]): Promise<AppendResult[]> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw toUnavailable(error, 'cannot reach PostgreSQL');
      }
      const connection = { broken: false };
      try {
        await client.query('BEGIN');
        const results = await this.appendPayloads(client, writes);
        await client.query('COMMIT');
        return results;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (connection.broken = true));
        if (isRetryable(error) && attempt < MAX_ATTEMPTS) continue;
        throw await this.mapAppendError(error, writes);
      } finally {
        // A client whose rollback failed is in an unknown state: destroy it rather than pool it.
        client.release(connection.broken);
      }
    }
  }

  /**
   * The append's statements on a connection the caller has already put inside BEGIN; the caller
   * commits or rolls back. Used by `appendToStream`, and by tests that need to hold a commit open.
   * Needs READ COMMITTED (PostgreSQL's default): the conflict checks rely on each statement seeing
   * what concurrent appends committed while it waited for their locks.
   */
  async appendWithinTransaction(
    client: Queryable,
    streamId: string,
    events: NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.assertOpen();
    const write = { streamId, payload: serializeEvents(streamId, events), count: events.length, options };
    return (await this.appendPayloads(client, [write]))[0];
  }

  /**
   * The statements of one append (one write) or one multi-stream append (several, no idempotency key),
   * in this order: the key; every stream's version, in stream id order; every release, then every
   * reservation, each sorted; the events, write after write; one NOTIFY. For a single write this is
   * exactly the statement sequence of a plain append.
   */
  private async appendPayloads(client: Queryable, writes: SerializedWrite[]): Promise<AppendResult[]> {
    const key = writes.length === 1 ? writes[0].options.idempotencyKey : undefined;
    if (key !== undefined) {
      // First, so the key's row lock orders concurrent duplicates: the second waits here until the first
      // commits (then reads its result) or rolls back (then proceeds as the first).
      const claimed = await client.query(
        `INSERT INTO ${this.t.idempotency} (key) VALUES ($1) ON CONFLICT (key) DO NOTHING`,
        [key],
      );
      if (claimed.rowCount === 0) {
        const stored = await client.query<{ result: Omit<AppendResult, 'duplicate'> | null }>(
          `SELECT result FROM ${this.t.idempotency} WHERE key = $1`,
          [key],
        );
        const result = stored.rows[0]?.result;
        if (!result) throw new Error(`idempotency key ${key} is held without a result`);
        return [{ ...result, duplicate: true }];
      }
    }

    // The streams rows are locked in one order (by stream id) whatever the order of the writes, so two
    // multi-stream appends over the same streams cannot deadlock on them.
    const firstVersions = new Map<string, number>();
    for (const { streamId, count, options } of sortByStream(writes)) {
      firstVersions.set(streamId, await this.claimVersions(client, streamId, count, options.expectedVersion));
    }

    // Sorted so that two appends touching the same values lock them in the same order (no deadlock).
    // All releases come first, so one write can take a value that another write of the call gives up.
    for (const { streamId, reservation } of sortReservations(writes, 'releases')) {
      await client.query(`DELETE FROM ${this.t.reservations} WHERE scope = $1 AND value = $2 AND stream_id = $3`, [
        reservation.scope,
        reservation.value,
        streamId,
      ]);
    }
    for (const { streamId, reservation } of sortReservations(writes, 'reservations')) {
      await this.reserve(client, streamId, reservation);
    }

    // Every row gets this transaction's id, so `$all` shows the writes together; global_position,
    // taken insert after insert, orders them as given.
    const results: AppendResult[] = [];
    for (const { streamId, payload, count } of writes) {
      const firstVersion = firstVersions.get(streamId) as number;
      const inserted = await client.query<{ global_position: string; transaction_id: string }>(
        `INSERT INTO ${this.t.events} (stream_id, stream_version, type, data, metadata, schema_version)
         SELECT $1, $2::bigint + x.ord - 1, x.e->>'type', x.e->'data', x.e->'metadata', (x.e->>'schemaVersion')::integer
         FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(e, ord)
         ORDER BY x.ord
         RETURNING global_position, transaction_id::text AS transaction_id`,
        [streamId, firstVersion, payload],
      );
      const last = inserted.rows.reduce((a, b) => (BigInt(a.global_position) > BigInt(b.global_position) ? a : b));
      results.push({
        nextExpectedVersion: firstVersion + count - 1,
        position: { commit: Number(last.transaction_id), sequence: Number(last.global_position) },
        duplicate: false,
      });
    }
    // Delivered at commit, so a subscriber is woken exactly when the rows can become visible. One per
    // transaction: the payload is only a hint, the listener reads nothing from it.
    await client.query('SELECT pg_notify($1, $2)', [this.channel, writes[0].streamId]);

    if (key !== undefined) {
      const { nextExpectedVersion, position } = results[0];
      await client.query(`UPDATE ${this.t.idempotency} SET result = $2 WHERE key = $1`, [
        key,
        JSON.stringify({ nextExpectedVersion, position }),
      ]);
    }
    return results;
  }

  /**
   * Moves the stream's version forward and returns the version of the first new event. The streams row
   * is the lock that serializes appenders of one stream: a conditional UPDATE (or INSERT for no_stream)
   * blocks behind a concurrent one, re-checks its condition after that one commits, and so exactly one
   * of N appenders with the same expectation wins.
   */
  private async claimVersions(
    client: Queryable,
    streamId: string,
    count: number,
    expected: ExpectedVersion,
  ): Promise<number> {
    if (expected === 'any') {
      const row = await client.query<{ version: string }>(
        `INSERT INTO ${this.t.streams} (stream_id, version) VALUES ($1, $2::bigint - 1)
         ON CONFLICT (stream_id) DO UPDATE SET version = ${this.t.streams}.version + $2::bigint
         RETURNING version`,
        [streamId, count],
      );
      return Number(row.rows[0].version) - count + 1;
    }
    if (expected === 'no_stream') {
      const row = await client.query(
        `INSERT INTO ${this.t.streams} (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING`,
        [streamId, count - 1],
      );
      if (row.rowCount === 1) return 0;
    } else {
      const row = await client.query(`UPDATE ${this.t.streams} SET version = $2 WHERE stream_id = $1 AND version = $3`, [
        streamId,
        expected + count,
        expected,
      ]);
      if (row.rowCount === 1) return expected + 1;
    }
    throw new WrongExpectedVersionError(streamId, expected, await this.currentVersion(client, streamId));
  }

  private async currentVersion(client: Queryable, streamId: string): Promise<number | 'no_stream'> {
    const row = await client.query<{ version: string }>(`SELECT version FROM ${this.t.streams} WHERE stream_id = $1`, [
      streamId,
    ]);
    return row.rows.length === 0 ? 'no_stream' : Number(row.rows[0].version);
  }

  private async reserve(client: Queryable, streamId: string, reservation: Reservation): Promise<void> {
    // Two rounds: the owner seen by the failed insert may release the value before we read it back.
    for (let round = 0; round < 2; round++) {
      const inserted = await client.query(
        `INSERT INTO ${this.t.reservations} (scope, value, stream_id) VALUES ($1, $2, $3) ON CONFLICT (scope, value) DO NOTHING`,
        [reservation.scope, reservation.value, streamId],
      );
      if (inserted.rowCount === 1) return;
      const owner = await client.query<{ stream_id: string }>(
        `SELECT stream_id FROM ${this.t.reservations} WHERE scope = $1 AND value = $2`,
        [reservation.scope, reservation.value],
      );
      if (owner.rows.length === 0) continue;
      if (owner.rows[0].stream_id === streamId) return;
      break;
    }
    throw new ReservationTakenError({ scope: reservation.scope, value: reservation.value });
  }

  private async mapAppendError(error: unknown, writes: SerializedWrite[]): Promise<unknown> {
    if (error instanceof WrongExpectedVersionError || error instanceof ReservationTakenError) return error;
    if (isUnavailable(error)) return toUnavailable(error, 'PostgreSQL append failed');
    // The streams row lock should make this impossible; if a writer bypassed it, it is still a conflict,
    // of the stream the violated key names (the key detail reads "(stream_id, stream_version)=(s, 3)").
    if (pgCode(error) === '23505' && /stream/.test(constraintOf(error))) {
      const detail = detailOf(error);
      const { streamId, options } = writes.find((write) => detail.includes(`=(${write.streamId}, `)) ?? writes[0];
      const actual = await this.currentVersion(this.pool, streamId).catch(() => 'no_stream' as const);
      return new WrongExpectedVersionError(streamId, options.expectedVersion, actual);
    }
    return error;
  }

  async readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    const rows = await this.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.t.events} WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, fromVersion],
    );
    return rows.map(toStoredEvent);
  }

  async readAll(from: Position, limit: number): Promise<StoredEvent[]> {
    // Only transactions older than the oldest one still open: whatever commits later has a transaction
    // id at or above that horizon, so it sorts after everything returned here and cannot be skipped.
    const rows = await this.query<EventRow>(
      // ordered by the table's xid8 column (e.), not the text alias of the select list: as text,
      // '10008' sorts before '9995' and the order would break at every power of ten
      `SELECT ${EVENT_COLUMNS} FROM ${this.t.events} e
       WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         AND (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
       ORDER BY e.transaction_id, e.global_position
       LIMIT $3`,
      [String(from.commit), from.sequence, Math.max(0, Math.floor(limit))],
    );
    return rows.map(toStoredEvent);
  }

  async headPosition(): Promise<Position> {
    const rows = await this.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text AS transaction_id, e.global_position FROM ${this.t.events} e
       WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.transaction_id DESC, e.global_position DESC
       LIMIT 1`,
    );
    const row = rows[0];
    return row ? { commit: Number(row.transaction_id), sequence: Number(row.global_position) } : START;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    this.ensureListener();
    const subscription = startPollingSubscription(
      {
        readAll: (from, limit) => this.readAll(from, limit),
        wake: this.wake,
        pollIntervalMs: this.options.pollIntervalMs ?? 100,
        shortPollMs: this.options.shortPollMs ?? 10,
      },
      options,
    );
    this.subscriptions.add(subscription);
    const forget = () => this.subscriptions.delete(subscription);
    subscription.done.then(forget, forget);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    if (this.listenerRetry) clearTimeout(this.listenerRetry);
    await this.listenerStarting?.catch(() => undefined);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    // Waits for appends in flight to release their clients.
    await this.pool.end();
  }

  /**
   * One dedicated connection LISTENs for appends of any process and wakes the subscription loops.
   * It is an accelerator only: when it is down the loops still poll, so it just retries quietly.
   */
  private ensureListener(): void {
    if (this.listener || this.listenerStarting || this.listenerRetry || this.closed) return;
    this.listenerStarting = this.startListener().finally(() => (this.listenerStarting = null));
  }

  private async startListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, application_name: postgresApplicationName('event-store-listen', this.schema), keepAlive: true });
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      if (this.listener === client) this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      this.scheduleListenerRetry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.wake.notify());
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch {
      client.removeAllListeners('end');
      lost();
      return;
    }
    if (this.closed) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    // Appends may have committed while we were not listening.
    this.wake.notify();
  }

  private scheduleListenerRetry(): void {
    if (this.closed || this.listenerRetry) return;
    this.listenerRetry = setTimeout(() => {
      this.listenerRetry = null;
      if (this.subscriptions.size > 0) this.ensureListener();
    }, LISTEN_RETRY_MS);
    // Never keep a process alive just to reconnect an optional listener.
    this.listenerRetry.unref();
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    this.assertOpen();
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw isUnavailable(error) ? toUnavailable(error, 'PostgreSQL read failed') : error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('event store is closed');
  }
}

function serializeEvents(streamId: string, events: NewEvent[]): string {
  if (events.length === 0) throw new Error(`append to ${streamId} carries no events`);
  return JSON.stringify(
    events.map((event) => ({
      type: event.type,
      data: event.data ?? null,
      metadata: event.metadata,
      schemaVersion: event.schemaVersion ?? 1,
    })),
  );
}

function sortByStream(writes: SerializedWrite[]): SerializedWrite[] {
  return writes.length === 1 ? writes : [...writes].sort((a, b) => compareText(a.streamId, b.streamId));
}

/** The releases or reservations of all writes, each with its stream, sorted by scope and value. */
function sortReservations(
  writes: SerializedWrite[],
  kind: 'releases' | 'reservations',
): Array<{ streamId: string; reservation: Reservation }> {
  return writes
    .flatMap(({ streamId, options }) => (options[kind] ?? []).map((reservation) => ({ streamId, reservation })))
    .sort(({ reservation: a }, { reservation: b }) =>
      a.scope === b.scope ? compareText(a.value, b.value) : compareText(a.scope, b.scope),
    );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    position: { commit: Number(row.transaction_id), sequence: Number(row.global_position) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    schemaVersion: row.schema_version,
  };
}

function pgCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function detailOf(error: unknown): string {
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' ? detail : '';
}

function constraintOf(error: unknown): string {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : '';
}

function isRetryable(error: unknown): boolean {
  const code = pgCode(error);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

const isUnavailable = isPostgresUnavailable;

function toUnavailable(error: unknown, context: string): EventStoreUnavailableError {
  if (error instanceof EventStoreUnavailableError) return error;
  const message = error instanceof Error ? error.message || error.name : String(error);
  return new EventStoreUnavailableError(`${context}: ${message}`, error);
}
