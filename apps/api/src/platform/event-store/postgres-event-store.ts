import pg from 'pg';
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
import {
  type GroupAppend,
  type GroupPlan,
  type GroupWrite,
  planGroup,
  reservationKey,
  serializeEvents,
  type StoredResult,
  touchedKeys,
} from './postgres-append-group';
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
  /**
   * group-commit transactions in flight at once (default 2): one commits while the next one reads
   * and writes, each on its own pooled connection
   */
  maxGroupsInFlight?: number;
  /** most appends (calls) in one group (default 1000) */
  maxGroupAppends?: number;
  /** most events in one group, unless a single append carries more (default 10,000) */
  maxGroupEvents?: number;
}

export interface PostgresEventStoreStats {
  /** committed group transactions */
  transactions: number;
  /** appends that appended events (duplicates and rejected appends excluded), a multi-stream call once */
  appends: number;
  /** largest number of appends (calls) that shared one transaction */
  largestBatch: number;
  /** queries that read streams (`readStream` calls issued together share one) */
  streamReadQueries: number;
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

const EVENT_COLUMNS =
  'global_position, transaction_id::text AS transaction_id, stream_id, stream_version, type, data, metadata, schema_version';

/** Deadlocks and serialization failures say nothing about the append itself: run it again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;
/** most stream reads answered by one query */
const MAX_READS_PER_QUERY = 500;
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
 *
 * Appends are group-committed, as on SQLite: the appends queued while a group is in flight go
 * together in the next one, one transaction of a few statements whatever its size (lock the streams'
 * rows, read, judge each append in order in Node, write every table with one statement, NOTIFY with
 * the COMMIT). A conflict or a taken value rejects its own append only. Ordering is untouched: a
 * group is one transaction, and several processes' groups are ordered by the same horizon as single
 * appends were (docs/adr/0017-several-api-processes.md). Stream reads issued together share one query.
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
  private queue: QueuedAppend[] = [];
  private flushHandle: NodeJS.Immediate | null = null;
  private groupsInFlight = 0;
  /** what the groups in flight touch (streams, values, keys), with how many groups touch each */
  private readonly keysInFlight = new Map<string, number>();
  /** groups and read batches in flight: close() waits for them */
  private readonly running = new Set<Promise<void>>();
  private reads: PendingRead[] = [];
  private readFlushHandle: NodeJS.Immediate | null = null;
  private readonly counters: PostgresEventStoreStats = { transactions: 0, appends: 0, largestBatch: 0, streamReadQueries: 0 };
  private readonly maxGroupsInFlight: number;
  private readonly maxGroupAppends: number;
  private readonly maxGroupEvents: number;

  private constructor(private readonly options: PostgresEventStoreOptions) {
    this.maxGroupsInFlight = Math.max(1, Math.floor(options.maxGroupsInFlight ?? 2));
    this.maxGroupAppends = Math.max(1, Math.floor(options.maxGroupAppends ?? 1000));
    this.maxGroupEvents = Math.max(1, Math.floor(options.maxGroupEvents ?? 10_000));
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

  appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    try {
      this.assertOpen();
      const writes = [{ streamId, events: serializeEvents(streamId, events), options }];
      return this.enqueue({ writes, idempotencyKey: options.idempotencyKey }).then((results) => results[0]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    try {
      this.assertOpen();
      assertValidStreamWrites(writes);
      return this.enqueue({
        writes: writes.map(({ streamId, events, options }) => ({ streamId, events: serializeEvents(streamId, events), options })),
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Counters for tests and the bench; not part of the port. */
  stats(): PostgresEventStoreStats {
    return { ...this.counters };
  }

  /**
   * The append's statements on a connection the caller has already put inside BEGIN; the caller
   * commits or rolls back. Used by tests that need to hold a commit open: the statements are those of
   * a group of one. Needs READ COMMITTED (PostgreSQL's default): locking a stream's row waits for a
   * concurrent append of it and then reads what that one committed.
   */
  async appendWithinTransaction(
    client: Queryable,
    streamId: string,
    events: NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.assertOpen();
    const writes = [{ streamId, events: serializeEvents(streamId, events), options }];
    const { outcomes, appended } = await this.writeGroup(client, [{ writes, idempotencyKey: options.idempotencyKey }], { begin: false });
    // delivered at the caller's commit, like the group's
    if (appended > 0) await client.query(`NOTIFY "${this.channel}"`);
    const [outcome] = outcomes;
    if (!outcome.ok) throw outcome.error;
    return outcome.results[0];
  }

  private enqueue(append: GroupAppend): Promise<AppendResult[]> {
    return new Promise<AppendResult[]>((resolve, reject) => {
      const eventCount = append.writes.reduce((sum, write) => sum + write.events.length, 0);
      this.queue.push({ ...append, keys: touchedKeys(append), eventCount, resolve, reject });
      // setImmediate runs after the I/O and promise callbacks of this turn: appends issued "at the same
      // time" (Promise.all, concurrent requests) start in one group.
      this.flushHandle ??= setImmediate(() => this.flush());
    });
  }

  /**
   * Starts groups while fewer than `maxGroupsInFlight` are in flight. Appends that arrive meanwhile
   * wait in the queue and go together in the next group: the busier the store, the larger the groups.
   */
  private flush(): void {
    if (this.flushHandle) clearImmediate(this.flushHandle);
    this.flushHandle = null;
    while (this.groupsInFlight < this.maxGroupsInFlight && this.queue.length > 0) {
      const group = this.takeGroup();
      if (group.length === 0) return; // all of them touch what a group in flight touches: they wait for it
      const keys = group.flatMap((append) => append.keys);
      for (const key of keys) this.keysInFlight.set(key, (this.keysInFlight.get(key) ?? 0) + 1);
      this.groupsInFlight++;
      const running: Promise<void> = this.commitGroup(group)
        .catch((error: unknown) => {
          // commitGroup settles every caller itself; this is only a last guard against a bug there
          for (const append of group) append.reject(error);
        })
        .finally(() => {
          this.groupsInFlight--;
          for (const key of keys) {
            const left = (this.keysInFlight.get(key) ?? 1) - 1;
            if (left === 0) this.keysInFlight.delete(key);
            else this.keysInFlight.set(key, left);
          }
          this.running.delete(running);
          if (this.queue.length > 0) this.flushHandle ??= setImmediate(() => this.flush());
        });
      this.running.add(running);
    }
  }

  /**
   * The next group, in queue order. An append that touches a stream, a value or a key of a group in
   * flight stays queued, and so does every later append that touches what it touches: appends to one
   * stream keep their order, and two groups of this process never wait on each other's rows.
   */
  private takeGroup(): QueuedAppend[] {
    const group: QueuedAppend[] = [];
    const waiting: QueuedAppend[] = [];
    const blocked = new Set<string>();
    let events = 0;
    let index = 0;
    for (; index < this.queue.length; index++) {
      const append = this.queue[index];
      if (group.length >= this.maxGroupAppends || (group.length > 0 && events + append.eventCount > this.maxGroupEvents)) break;
      if (append.keys.some((key) => this.keysInFlight.has(key) || blocked.has(key))) {
        for (const key of append.keys) blocked.add(key);
        waiting.push(append);
        continue;
      }
      group.push(append);
      events += append.eventCount;
    }
    this.queue = index < this.queue.length ? [...waiting, ...this.queue.slice(index)] : waiting;
    return group;
  }

  /**
   * Commits one group and settles every caller: each gets its result or the rejection of its own
   * append. Deadlocks, serialization failures and rows another process created between the group's
   * read and its write say nothing about the appends: the group runs again. A failure of the
   * transaction itself fails every caller (a verdict may rest on appends that are now gone); any other
   * error splits the group, so that the append it belongs to fails alone.
   */
  private async commitGroup(group: QueuedAppend[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let outcomes: Outcome[];
      try {
        outcomes = await this.groupInTransaction(group);
      } catch (error) {
        if (isUnavailable(error)) {
          const failure = toUnavailable(error, 'PostgreSQL append failed');
          for (const append of group) append.reject(failure);
          return;
        }
        if ((isRetryable(error) || isLostRace(error)) && attempt < MAX_ATTEMPTS) continue;
        if (group.length > 1) {
          for (const append of group) await this.commitGroup([append]);
          return;
        }
        group[0].reject(await this.mapAppendError(error, group[0].writes));
        return;
      }
      this.counters.transactions++;
      this.counters.largestBatch = Math.max(this.counters.largestBatch, group.length);
      group.forEach((append, index) => {
        const outcome = outcomes[index];
        if (!outcome.ok) return append.reject(outcome.error);
        if (!outcome.results[0].duplicate) this.counters.appends++;
        append.resolve(outcome.results);
      });
      return;
    }
  }

  /** One transaction on a pooled client for the group. */
  private async groupInTransaction(group: QueuedAppend[]): Promise<Outcome[]> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toUnavailable(error, 'cannot reach PostgreSQL');
    }
    const connection = { broken: false };
    try {
      const { outcomes, appended } = await this.writeGroup(client, group, { begin: true });
      // One notification per group, delivered at commit: a subscriber is woken exactly when the rows
      // can become visible. The channel name is checked at construction (schema rule), so it can be
      // written into the statement, which saves a round trip.
      await client.query(appended > 0 ? `NOTIFY "${this.channel}"; COMMIT` : 'COMMIT');
      return outcomes;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (connection.broken = true));
      throw error;
    } finally {
      // A client whose rollback failed is in an unknown state: destroy it rather than pool it.
      client.release(connection.broken);
    }
  }

  /**
   * The group's statements; the caller commits. With `begin` they open the transaction (BEGIN goes
   * with the first statement), without it the connection is already inside one. Whatever the group's
   * size: claim its idempotency keys (only if it has any), lock its streams' rows and read their
   * versions, read the values it takes or gives up (only if any), judge every append in order
   * (`planGroup`), then one statement writes the events, streams, values and keys of all appends it
   * accepted. Locks are taken in one order (keys, then streams, then new values, each sorted) so two
   * processes' groups rarely deadlock, and a deadlock is retried.
   */
  private async writeGroup(
    client: Queryable,
    appends: readonly GroupAppend[],
    { begin }: { begin: boolean },
  ): Promise<{ outcomes: Outcome[]; appended: number }> {
    const keys = [...new Set(appends.flatMap(({ idempotencyKey }) => (idempotencyKey === undefined ? [] : [idempotencyKey])))];
    if (begin && keys.length > 0) await client.query('BEGIN');
    // First, so the key's row lock orders concurrent duplicates: the second waits here until the first
    // commits (then reads its result) or rolls back (then proceeds as the first).
    const claimed = new Set<string>();
    if (keys.length > 0) {
      const inserted = await client.query<{ key: string }>(
        `INSERT INTO ${this.t.idempotency} (key) SELECT k.key FROM unnest($1::text[]) AS k(key) ORDER BY k.key COLLATE "C"
         ON CONFLICT (key) DO NOTHING RETURNING key`,
        [keys],
      );
      for (const { key } of inserted.rows) claimed.add(key);
    }

    // Locked in stream id order: two groups over the same streams wait on each other instead of
    // deadlocking. A row another append is writing is read as that append committed it.
    const streamIds = [...new Set(appends.flatMap(({ writes }) => writes.map(({ streamId }) => streamId)))];
    const lockStreams = (ids: string) => `SELECT stream_id AS name, version, NULL::jsonb AS result FROM ${this.t.streams}
       WHERE stream_id = ANY(${ids}) ORDER BY stream_id COLLATE "C" FOR UPDATE`;
    const keysToRead = keys.filter((key) => !claimed.has(key));
    let locked: Array<{ name: string; version: string | null; result: StoredResult | null }>;
    if (begin && keys.length === 0) {
      // BEGIN and the lock in one message (one round trip fewer per group): a message of several
      // statements takes no parameters, so the stream ids are written in as escaped literals
      const results = (await client.query(
        `BEGIN; ${lockStreams(`ARRAY[${streamIds.map((id) => pg.escapeLiteral(id)).join(',')}]::text[]`)}`,
      )) as unknown as Array<pg.QueryResult<(typeof locked)[number]>>;
      locked = results[results.length - 1].rows;
    } else {
      const read = await client.query<(typeof locked)[number]>(
        keysToRead.length === 0
          ? lockStreams('$1::text[]')
          : `WITH locked AS (${lockStreams('$1::text[]')})
             SELECT name, version, result FROM locked
             UNION ALL
             SELECT key, NULL, result FROM ${this.t.idempotency} WHERE key = ANY($2::text[])`,
        keysToRead.length === 0 ? [streamIds] : [streamIds, keysToRead],
      );
      locked = read.rows;
    }
    const versions = new Map<string, number>();
    const storedResults = new Map<string, StoredResult>();
    for (const row of locked) {
      if (row.version !== null) versions.set(row.name, Number(row.version));
      else if (row.result) storedResults.set(row.name, row.result);
      else throw new Error(`idempotency key ${row.name} is held without a result`);
    }

    // Read after the streams are locked: whoever gave up or took a value of one of our streams held
    // that stream's row, so this read sees what it did.
    const values = new Map<string, Reservation>();
    for (const { writes } of appends) {
      for (const { options } of writes) {
        for (const value of [...(options.reservations ?? []), ...(options.releases ?? [])]) values.set(reservationKey(value), value);
      }
    }
    const owners = new Map<string, string>();
    if (values.size > 0) {
      const held = await client.query<{ scope: string; value: string; stream_id: string }>(
        `SELECT r.scope, r.value, r.stream_id FROM ${this.t.reservations} r
         JOIN unnest($1::text[], $2::text[]) AS x(scope, value) ON r.scope = x.scope AND r.value = x.value`,
        [[...values.values()].map(({ scope }) => scope), [...values.values()].map(({ value }) => value)],
      );
      for (const row of held.rows) owners.set(reservationKey(row), row.stream_id);
    }

    const plan = planGroup(appends, { versions, owners, storedResults });
    const positions = plan.events.length > 0 || plan.keysToDrop.length > 0 ? await this.writePlan(client, plan) : new Map<string, Position>();
    return { outcomes: outcomesOf(appends, plan, positions), appended: plan.events.length };
  }

  /**
   * Writes the plan in one statement (one round trip whatever the group's size) and returns the
   * position of every event, by stream and version. The statement holds only the parts the group
   * needs (a plain append: its streams' rows and its events), so the server parses and plans no more
   * than the group does: for a group of one append, planning the full statement cost more than the
   * append itself. Every row carries this transaction's id, so `$all` shows the group at once when
   * the horizon passes it; global_position, taken row after row in the order of `n`, orders the
   * events as the plan lists them.
   */
  private async writePlan(client: Queryable, plan: GroupPlan): Promise<Map<string, Position>> {
    const { events, newStreams, movedStreams, freed, handedOver, taken, keysToStore, keysToDrop } = plan;
    if (events.length === 0) {
      // every append of the group was refused or a duplicate: only the keys they claimed go back
      if (keysToDrop.length > 0) await client.query(`DELETE FROM ${this.t.idempotency} WHERE key = ANY($1::text[])`, [keysToDrop]);
      return new Map();
    }
    const values: unknown[] = [];
    const param = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
    const column = <T>(rows: readonly T[], pick: (row: T) => unknown, type: string) => param(rows.map(pick), type);
    const parts: string[] = [];
    /** the sub-statements whose row count is known in advance: checked after the write */
    const checked: Array<{ name: string; expected: number }> = [];

    if (newStreams.length > 0) {
      parts.push(`new_streams AS (
        INSERT INTO ${this.t.streams} (stream_id, version)
        SELECT x.stream_id, x.version
        FROM unnest(${column(newStreams, (s) => s.streamId, 'text[]')}, ${column(newStreams, (s) => s.version, 'bigint[]')}) AS x(stream_id, version)
        ORDER BY x.stream_id COLLATE "C"
        RETURNING 1)`);
    }
    if (movedStreams.length > 0) {
      parts.push(`moved_streams AS (
        UPDATE ${this.t.streams} s SET version = x.version
        FROM unnest(${column(movedStreams, (s) => s.streamId, 'text[]')}, ${column(movedStreams, (s) => s.version, 'bigint[]')}) AS x(stream_id, version)
        WHERE s.stream_id = x.stream_id
        RETURNING 1)`);
      checked.push({ name: 'moved_streams', expected: movedStreams.length });
    }
    if (freed.length > 0) {
      parts.push(`freed AS (
        DELETE FROM ${this.t.reservations} r
        USING unnest(${column(freed, (r) => r.scope, 'text[]')}, ${column(freed, (r) => r.value, 'text[]')}, ${column(freed, (r) => r.streamId, 'text[]')}) AS x(scope, value, stream_id)
        WHERE r.scope = x.scope AND r.value = x.value AND r.stream_id = x.stream_id
        RETURNING 1)`);
      checked.push({ name: 'freed', expected: freed.length });
    }
    if (handedOver.length > 0) {
      parts.push(`handed_over AS (
        UPDATE ${this.t.reservations} r SET stream_id = x.stream_id
        FROM unnest(${column(handedOver, (r) => r.scope, 'text[]')}, ${column(handedOver, (r) => r.value, 'text[]')},
                    ${column(handedOver, (r) => r.streamId, 'text[]')}, ${column(handedOver, (r) => r.previousOwner, 'text[]')})
             AS x(scope, value, stream_id, previous_owner)
        WHERE r.scope = x.scope AND r.value = x.value AND r.stream_id = x.previous_owner
        RETURNING 1)`);
      checked.push({ name: 'handed_over', expected: handedOver.length });
    }
    if (taken.length > 0) {
      parts.push(`taken AS (
        INSERT INTO ${this.t.reservations} (scope, value, stream_id)
        SELECT x.scope, x.value, x.stream_id
        FROM unnest(${column(taken, (r) => r.scope, 'text[]')}, ${column(taken, (r) => r.value, 'text[]')}, ${column(taken, (r) => r.streamId, 'text[]')}) AS x(scope, value, stream_id)
        ORDER BY x.scope COLLATE "C", x.value COLLATE "C"
        RETURNING 1)`);
    }
    // The sub-statements of a WITH run in no promised order; the events' INSERT reads this row first,
    // so the streams' and the values' rows are written (and locked) before any event: every group
    // takes its locks in one order, streams, then values, then events. (Every accepted append moves
    // or creates its streams, so this row always has something to count.)
    const first = parts.map((part) => part.slice(0, part.indexOf(' ')));
    parts.push(`written_first AS (SELECT ${[...first.map((name) => `(SELECT count(*) FROM ${name}) AS ${name}`), '1 AS one'].join(', ')})`);
    parts.push(`inserted AS (
        INSERT INTO ${this.t.events} (stream_id, stream_version, type, data, metadata, schema_version)
        SELECT x.stream_id, x.version, x.type, x.data::jsonb, x.metadata::jsonb, x.schema_version
        FROM written_first,
             ROWS FROM (
               unnest(${column(events, (e) => e.streamId, 'text[]')}), unnest(${column(events, (e) => e.version, 'bigint[]')}),
               unnest(${column(events, (e) => e.event.type, 'text[]')}),
               json_array_elements(${param(`[${events.map((e) => e.event.data).join(',')}]`, 'json')}),
               json_array_elements(${param(`[${events.map((e) => e.event.metadata).join(',')}]`, 'json')}),
               unnest(${column(events, (e) => e.event.schemaVersion, 'integer[]')})
             ) WITH ORDINALITY AS x(stream_id, version, type, data, metadata, schema_version, n)
        ORDER BY x.n
        RETURNING stream_id, stream_version, global_position, transaction_id)`);
    // (data and metadata go as one JSON array each: no array-literal escaping of every payload in
    // Node, one parse on the server; measured about half the Node time per event of a text[])
    if (keysToDrop.length > 0) {
      parts.push(`dropped_keys AS (DELETE FROM ${this.t.idempotency} WHERE key = ANY(${param(keysToDrop, 'text[]')}))`);
    }
    if (keysToStore.length > 0) {
      parts.push(`stored_keys AS (
        UPDATE ${this.t.idempotency} k
        SET result = jsonb_build_object(
          'nextExpectedVersion', x.version,
          'position', jsonb_build_object('commit', i.transaction_id::text::bigint, 'sequence', i.global_position))
        FROM unnest(${column(keysToStore, (k) => k.key, 'text[]')}, ${column(keysToStore, (k) => k.streamId, 'text[]')}, ${column(keysToStore, (k) => k.version, 'bigint[]')})
             AS x(key, stream_id, version)
        JOIN inserted i ON i.stream_id = x.stream_id AND i.stream_version = x.version
        WHERE k.key = x.key
        RETURNING 1)`);
      checked.push({ name: 'stored_keys', expected: keysToStore.length });
    }
    const counts = checked.map(({ name }) => `, (SELECT count(*) FROM ${name}) AS ${name}`).join('');
    const written = await client.query<Record<string, string>>(
      `WITH ${parts.join(',\n')}
       SELECT i.stream_id, i.stream_version::text AS stream_version, i.global_position::text AS global_position,
              i.transaction_id::text AS transaction_id${counts}
       FROM inserted i`,
      values,
    );
    // Rows of our own streams and values, which we hold: a different count means someone wrote them
    // without holding the stream (a bug, or a hand-made change); the group runs again on what is there.
    const [row] = written.rows;
    if (row && checked.some(({ name, expected }) => Number(row[name]) !== expected)) {
      throw new LostRaceError('rows of the group changed between its read and its write');
    }
    const positions = new Map<string, Position>();
    for (const { stream_id, stream_version, global_position, transaction_id } of written.rows) {
      positions.set(eventKey(stream_id, Number(stream_version)), { commit: Number(transaction_id), sequence: Number(global_position) });
    }
    return positions;
  }

  private async currentVersion(client: Queryable, streamId: string): Promise<number | 'no_stream'> {
    const row = await client.query<{ version: string }>(`SELECT version FROM ${this.t.streams} WHERE stream_id = $1`, [
      streamId,
    ]);
    return row.rows.length === 0 ? 'no_stream' : Number(row.rows[0].version);
  }

  /**
   * The answer for an append that failed alone, after its retries: a row of its stream or one of its
   * values that kept appearing between its read and its write is a lost race, i.e. a conflict.
   */
  private async mapAppendError(error: unknown, writes: readonly GroupWrite[]): Promise<unknown> {
    if (error instanceof WrongExpectedVersionError || error instanceof ReservationTakenError) return error;
    if (isUnavailable(error)) return toUnavailable(error, 'PostgreSQL append failed');
    if (pgCode(error) === '23505' && /reservations/.test(constraintOf(error))) {
      const detail = detailOf(error);
      const values = writes.flatMap(({ options }) => options.reservations ?? []);
      const value = values.find(({ scope, value }) => detail.includes(`=(${scope}, ${value})`)) ?? values[0];
      if (value) return new ReservationTakenError({ scope: value.scope, value: value.value });
    }
    // The key detail reads "(stream_id)=(s)" for a stream row, "(stream_id, stream_version)=(s, 3)" for
    // an event.
    if ((pgCode(error) === '23505' && /stream/.test(constraintOf(error))) || error instanceof LostRaceError) {
      const detail = detailOf(error);
      const { streamId, options } =
        writes.find((write) => detail.includes(`=(${write.streamId})`) || detail.includes(`=(${write.streamId}, `)) ?? writes[0];
      const actual = await this.currentVersion(this.pool, streamId).catch(() => 'no_stream' as const);
      return new WrongExpectedVersionError(streamId, options.expectedVersion, actual);
    }
    return error;
  }

  /**
   * Reads issued in one turn of the event loop go to the server as one query, like appends in one
   * group: commands read before they decide, and concurrent commands (a batch of scans reads a
   * stream per card) would otherwise cost a round trip and a query each. Each caller still gets its
   * own stream from its own version, read after everything it saw acknowledged.
   */
  readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    try {
      this.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<StoredEvent[]>((resolve, reject) => {
      this.reads.push({ streamId, fromVersion, resolve, reject });
      this.readFlushHandle ??= setImmediate(() => this.flushReads());
    });
  }

  /** as `readStream` each: reads issued together already go out as one query */
  readStreams(reads: readonly StreamRead[]): Promise<StoredEvent[][]> {
    return Promise.all(reads.map(({ streamId, fromVersion }) => this.readStream(streamId, fromVersion)));
  }

  private flushReads(): void {
    if (this.readFlushHandle) clearImmediate(this.readFlushHandle);
    this.readFlushHandle = null;
    while (this.reads.length > 0) {
      const batch = this.reads.splice(0, MAX_READS_PER_QUERY);
      const running: Promise<void> = this.readBatch(batch).finally(() => this.running.delete(running));
      this.running.add(running);
    }
  }

  /** Settles every caller of the batch; a bad request (a stream id the server refuses) fails alone. */
  private async readBatch(batch: PendingRead[]): Promise<void> {
    try {
      const streams = await this.queryStreams(batch);
      batch.forEach((read, index) => read.resolve(streams[index]));
    } catch (error) {
      if (batch.length === 1 || isUnavailable(error)) {
        for (const read of batch) read.reject(error);
        return;
      }
      await Promise.all(batch.map((read) => this.readBatch([read])));
    }
  }

  private async queryStreams(batch: readonly PendingRead[]): Promise<StoredEvent[][]> {
    this.counters.streamReadQueries++;
    if (batch.length === 1) {
      const [{ streamId, fromVersion }] = batch;
      const rows = await this.queryAccepted<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM ${this.t.events} WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
        [streamId, fromVersion],
      );
      return [rows.map(toStoredEvent)];
    }
    // LATERAL: one index range scan per stream asked for, whatever the table's statistics say (a
    // plain join was planned as a hash join over the whole table on a freshly filled one: 36 ms
    // instead of a fraction of one)
    const rows = await this.queryAccepted<EventRow & { request: string }>(
      `SELECT r.request, e.*
       FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r(stream_id, from_version, request)
       CROSS JOIN LATERAL (
         SELECT ${EVENT_COLUMNS} FROM ${this.t.events}
         WHERE stream_id = r.stream_id AND stream_version >= r.from_version
         ORDER BY stream_version
       ) e
       ORDER BY r.request, e.stream_version`,
      [batch.map(({ streamId }) => streamId), batch.map(({ fromVersion }) => fromVersion)],
    );
    const streams: StoredEvent[][] = batch.map(() => []);
    for (const row of rows) streams[Number(row.request) - 1].push(toStoredEvent(row));
    return streams;
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
    // Appends and reads already accepted are still answered: their callers are waiting.
    while (this.queue.length > 0 || this.reads.length > 0 || this.running.size > 0) {
      if (this.reads.length > 0) this.flushReads();
      if (this.running.size === 0) this.flush();
      await Promise.all([...this.running]);
    }
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
    return this.queryAccepted(text, values);
  }

  /** `query` for work accepted before close(), which close() waits for. */
  private async queryAccepted<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
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

/** An append waiting in the queue, with what it touches and how to answer its caller. */
interface QueuedAppend extends GroupAppend {
  keys: string[];
  eventCount: number;
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; results: AppendResult[] } | { ok: false; error: unknown };

interface PendingRead {
  streamId: string;
  fromVersion: number;
  resolve: (events: StoredEvent[]) => void;
  reject: (error: unknown) => void;
}

/** A row of the group's own streams or values changed between its read and its write: run it again. */
class LostRaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LostRaceError';
  }
}

/**
 * A unique violation on a row the group read as absent: another process created it since (it holds
 * no lock until it exists). The next attempt reads it.
 */
const isLostRace = (error: unknown) => error instanceof LostRaceError || pgCode(error) === '23505';

const eventKey = (streamId: string, version: number) => `${version}\u0000${streamId}`;

/** Each caller's answer, from the verdicts and the positions the INSERT returned. */
function outcomesOf(appends: readonly GroupAppend[], plan: GroupPlan, positions: ReadonlyMap<string, Position>): Outcome[] {
  const outcomes: Outcome[] = [];
  plan.verdicts.forEach((verdict, index) => {
    switch (verdict.kind) {
      case 'rejected':
        outcomes.push({ ok: false, error: verdict.error });
        return;
      case 'duplicate':
        outcomes.push({ ok: true, results: [{ ...verdict.result, duplicate: true }] });
        return;
      case 'duplicate-in-group': {
        const first = outcomes[verdict.of];
        if (!first.ok) throw new Error(`append ${index} repeats the key of append ${verdict.of}, which was not appended`);
        outcomes.push({ ok: true, results: [{ ...first.results[0], duplicate: true }] });
        return;
      }
      case 'appended': {
        const results = appends[index].writes.map(({ streamId, events }, writeIndex) => {
          const nextExpectedVersion = verdict.firstVersions[writeIndex] + events.length - 1;
          const position = positions.get(eventKey(streamId, nextExpectedVersion));
          if (!position) throw new Error(`no position came back for ${streamId} at version ${nextExpectedVersion}`);
          return { nextExpectedVersion, position, duplicate: false };
        });
        outcomes.push({ ok: true, results });
        return;
      }
      default: {
        const unhandled: never = verdict;
        throw new Error(`unhandled verdict ${JSON.stringify(unhandled)}`);
      }
    }
  });
  return outcomes;
}

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
