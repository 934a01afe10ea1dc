import {
  type AllStreamRecordedEvent,
  type AllStreamSubscription,
  ANY,
  type AppendStreamRequest,
  type AppendStreamState,
  BACKWARDS,
  CancelledError,
  type CurrentStreamState,
  DeadlineExceededError,
  END,
  type Filter,
  FORWARDS,
  KurrentDBClient,
  type MultiAppendResult,
  NO_STREAM,
  NotLeaderError,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  START as KURRENT_START,
  StreamDeletedError,
  StreamNotFoundError,
  streamNameFilter,
  TimeoutError,
  UnavailableError,
  UnsupportedError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type AppendOptions,
  type AppendResult,
  assertValidStreamWrites,
  comparePositions,
  EventStoreUnavailableError,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type Position,
  ReservationTakenError,
  START,
  type StoredEvent,
  type StreamRead,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from './event-store.port';
import {
  idempotencyEvent,
  idempotencyMarker,
  type IdempotencyMarker,
  KurrentDbStreamNames,
  reservationEvent,
  reservationOwner,
  toEventData,
  toPosition,
  toReadPosition,
  toStoredEvent,
} from './kurrentdb-encoding';
import { startPollingSubscription, WakeSignal } from './polling-subscription';

export interface KurrentDbEventStoreOptions {
  /** a KurrentDB connection string, e.g. `kurrentdb://admin:changeit@localhost:2113?tls=false` */
  url: string;
  /** put before every stream name, so several stores can share one server (tests use one per store); default none */
  streamPrefix?: string;
  /** subscription poll interval when the server's push (the doorbell) is down or misses an append (default 500 ms) */
  pollIntervalMs?: number;
}

/**
 * How often one append re-reads and retries when a stream it did not choose the version of moved under
 * it: a reservation stream, an idempotency key stream, a stream pinned for an idempotency key.
 */
const MAX_ATTEMPTS = 10;
const DOORBELL_RETRY_MS = 1000;
const HEAD_PAGE = 100;

/**
 * Event store on KurrentDB (25.1 or later): docs/adr/0016-kurrentdb-adapter.md.
 *
 * Every append is one multi-stream append: the caller's streams, one stream per reservation whose owner
 * changes, and one stream per idempotency key, each with the expected revision we read, so the server
 * applies all of it or none. `$all` is the server's log, read through a server-side filter that hides
 * system streams, the adapter's own streams and other prefixes; Position is (commit, prepare).
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly names: KurrentDbStreamNames;
  private readonly filter: Filter;
  private readonly wake = new WakeSignal();
  private readonly subscriptions = new Set<Subscription>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private doorbell: AllStreamSubscription | null = null;
  private doorbellRetry: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly options: Omit<KurrentDbEventStoreOptions, 'url'>,
    client: KurrentDBClient,
  ) {
    this.names = new KurrentDbStreamNames(options.streamPrefix ?? '');
    this.client = client;
    this.filter = streamNameFilter({ regex: this.names.allFilterRegex });
  }

  /** Connects and reads the head of `$all` once, so a server that cannot be reached fails the start. */
  static async connect(options: KurrentDbEventStoreOptions): Promise<KurrentDbEventStore> {
    // Parses the connection string (throws on a malformed one); the client connects on first use.
    const store = new KurrentDbEventStore(options, KurrentDBClient.connectionString(options.url));
    try {
      for await (const _ of store.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) break;
    } catch (error) {
      await store.client.dispose().catch(() => undefined);
      throw toUnavailable(error, 'cannot reach KurrentDB');
    }
    return store;
  }

  /**
   * A store over a client the caller made, e.g. a stand-in for the server in the unit tests. The store
   * owns it from now on: close() disposes of it.
   */
  static withClient(client: KurrentDBClient, options: Omit<KurrentDbEventStoreOptions, 'url'> = {}): KurrentDbEventStore {
    return new KurrentDbEventStore(options, client);
  }

  async appendToStream(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) throw new Error(`append to ${streamId} carries no events`);
    return (await this.track(this.append([{ streamId, events, options }], options.idempotencyKey)))[0];
  }

  async appendToStreams(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    assertValidStreamWrites(writes);
    return this.track(this.append(writes, undefined));
  }

  /**
   * Read what the append depends on (the key, the reservations, for a keyed `any` the stream's version),
   * send everything as one multi-stream append with those revisions as expectations, and when one of
   * the adapter's own streams moved in between, read again. The caller's own expectations are never
   * retried: their conflict is the caller's answer.
   */
  private async append(writes: StreamWrite[], key: string | undefined): Promise<AppendResult[]> {
    const streamNames = writes.map((write) => this.names.stream(write.streamId));
    for (let attempt = 1; ; attempt++) {
      if (key !== undefined) {
        const marker = await this.readMarker(key);
        if (marker) return [{ ...(await this.resultAt(marker.streamId, marker.lastVersion)), duplicate: true }];
      }

      const requests: AppendStreamRequest[] = [];
      for (const [index, write] of writes.entries()) {
        requests.push({
          streamName: streamNames[index],
          events: write.events.map(toEventData),
          expectedState: await this.streamStateFor(write, key),
        });
      }
      requests.push(...(await this.reservationRequests(writes)));
      if (key !== undefined) {
        const { streamId, events } = writes[0];
        const lastVersion = lastVersionAfter(requests[0].expectedState, events.length);
        requests.push({ streamName: this.names.idempotency(key), expectedState: NO_STREAM, events: [idempotencyEvent({ key, streamId, lastVersion })] });
      }

      let response: MultiAppendResult;
      try {
        response = await this.client.multiStreamAppend(requests);
      } catch (error) {
        if (!(error instanceof KurrentWrongExpectedVersionError)) throw toAppendError(error);
        const write = writes[streamNames.indexOf(error.streamName)];
        if (write && write.options.expectedVersion !== 'any') {
          // The caller's expectation failed, unless a repeat of this very key won the race: then the
          // next round answers with its result.
          if (key !== undefined && (await this.readMarker(key))) continue;
          throw new WrongExpectedVersionError(write.streamId, write.options.expectedVersion, toVersion(error.actualState));
        }
        if (attempt >= MAX_ATTEMPTS) {
          throw new EventStoreUnavailableError(
            `append to ${writes.map((w) => w.streamId).join(', ')} gave up after ${MAX_ATTEMPTS} attempts: ${error.streamName} kept changing`,
          );
        }
        continue;
      }
      this.wake.notify();
      return Promise.all(writes.map((write, index) => this.resultAt(write.streamId, revisionOf(response, streamNames[index]))));
    }
  }

  /**
   * The caller's expectation, except `any` with an idempotency key: the key's record must say which
   * version the append ends at, so the stream's current version is read and expected (and read again
   * if another append moves it first).
   */
  private async streamStateFor(write: StreamWrite, key: string | undefined): Promise<AppendStreamState> {
    const expected = write.options.expectedVersion;
    if (key === undefined || expected !== 'any') return toStreamState(expected);
    return toStreamState(await this.currentVersion(write.streamId));
  }

  /**
   * One request per reservation stream whose owner changes: releases of the whole call first (only the
   * owner's count), then reservations (free, or already this stream's). Each expects the revision we
   * read, so a concurrent change to the same value fails the whole append and we read again.
   */
  private async reservationRequests(writes: StreamWrite[]): Promise<AppendStreamRequest[]> {
    const touched = new Map<string, { scope: string; value: string }>();
    for (const { options } of writes) {
      for (const { scope, value } of [...(options.releases ?? []), ...(options.reservations ?? [])]) {
        touched.set(this.names.reservation({ scope, value }), { scope, value });
      }
    }
    if (touched.size === 0) return [];
    const states = await Promise.all(
      [...touched].map(async ([streamName, reservation]) => {
        const last = await this.lastEvent(streamName);
        return { streamName, reservation, revision: last?.revision ?? null, owner: last ? reservationOwner(last) : null };
      }),
    );
    const owners = new Map(states.map((state) => [state.streamName, state.owner]));
    for (const { streamId, options } of writes) {
      for (const reservation of options.releases ?? []) {
        const name = this.names.reservation(reservation);
        if (owners.get(name) === streamId) owners.set(name, null);
      }
    }
    for (const { streamId, options } of writes) {
      for (const { scope, value } of options.reservations ?? []) {
        const name = this.names.reservation({ scope, value });
        const owner = owners.get(name) ?? null;
        if (owner !== null && owner !== streamId) {
          // A stale expected version is reported before a taken value, as the SQL adapters do.
          await this.assertExpectedVersions(writes);
          throw new ReservationTakenError({ scope, value });
        }
        owners.set(name, streamId);
      }
    }
    return states
      .filter((state) => owners.get(state.streamName) !== state.owner)
      .map((state) => ({
        streamName: state.streamName,
        expectedState: state.revision === null ? NO_STREAM : state.revision,
        events: [reservationEvent(state.reservation, owners.get(state.streamName) ?? null)],
      }));
  }

  private async assertExpectedVersions(writes: StreamWrite[]): Promise<void> {
    for (const { streamId, options } of writes) {
      const expected = options.expectedVersion;
      if (expected === 'any') continue;
      const actual = await this.currentVersion(streamId);
      if (actual !== expected) throw new WrongExpectedVersionError(streamId, expected, actual);
    }
  }

  /** The result of an append that ended at `version`: read back, so a repeated key gets exactly the same. */
  private async resultAt(streamId: string, version: number): Promise<AppendResult> {
    const [event] = await this.readEvents(this.names.stream(streamId), { fromRevision: BigInt(version), maxCount: 1 });
    if (!event?.position || event.revision !== BigInt(version)) {
      throw new Error(`event ${streamId}@${version} cannot be read back (stream deleted or truncated?)`);
    }
    return { nextExpectedVersion: version, position: toPosition(event.position), duplicate: false };
  }

  private async readMarker(key: string): Promise<IdempotencyMarker | null> {
    const [first] = await this.readEvents(this.names.idempotency(key), { fromRevision: KURRENT_START, maxCount: 1 });
    return first ? idempotencyMarker(first) : null;
  }

  private async currentVersion(streamId: string): Promise<number | 'no_stream'> {
    const last = await this.lastEvent(this.names.stream(streamId));
    return last ? Number(last.revision) : 'no_stream';
  }

  private async lastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    return (await this.readEvents(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }))[0];
  }

  private async readEvents(streamName: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, options)) if (resolved.event) events.push(resolved.event);
    } catch (error) {
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw toUnavailableIfSo(error, 'KurrentDB read failed');
    }
    return events;
  }

  /** KurrentDB reads one stream per call: the reads go out together */
  readStreams(reads: readonly StreamRead[]): Promise<StoredEvent[][]> {
    return Promise.all(reads.map(({ streamId, fromVersion }) => this.readStream(streamId, fromVersion)));
  }

  async readStream(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    this.assertOpen();
    const events = await this.readEvents(this.names.stream(streamId), { fromRevision: BigInt(fromVersion), direction: FORWARDS });
    return events.map((event) => toStoredEvent(event, streamId));
  }

  /**
   * Reads `$all` forwards through the filter. The server starts a read at the given position itself,
   * so we ask for one more and drop whatever is not strictly after the cursor; a short page is the end.
   */
  async readAll(from: Position, limit: number): Promise<StoredEvent[]> {
    this.assertOpen();
    const wanted = Math.max(0, Math.floor(limit));
    const events: StoredEvent[] = [];
    let cursor = from;
    while (events.length < wanted) {
      const ask = wanted - events.length + 1;
      const page = await this.readAllPage({ fromPosition: toReadPosition(cursor), direction: FORWARDS, maxCount: ask });
      const before = cursor;
      for (const recorded of page) {
        const position = toPosition(recorded.position);
        if (comparePositions(position, cursor) <= 0) continue;
        cursor = position;
        const streamId = this.ourStreamId(recorded);
        if (streamId !== null) events.push(toStoredEvent(recorded, streamId));
        if (events.length === wanted) break;
      }
      if (page.length < ask) break;
      if (comparePositions(cursor, before) === 0) throw new Error('KurrentDB returned a full page of $all that did not advance');
    }
    return events;
  }

  async headPosition(): Promise<Position> {
    this.assertOpen();
    let from: ReadAllOptions['fromPosition'] = END;
    for (;;) {
      const page = await this.readAllPage({ fromPosition: from, direction: BACKWARDS, maxCount: HEAD_PAGE });
      const last = page.find((recorded) => this.ourStreamId(recorded) !== null);
      if (last) return toPosition(last.position);
      if (page.length < HEAD_PAGE) return START;
      from = page[page.length - 1].position;
    }
  }

  /** The filter already hides them; checked again here so a server that ignores part of it cannot leak one. */
  private ourStreamId(recorded: AllStreamRecordedEvent): string | null {
    return recorded.type.startsWith('$') ? null : this.names.streamIdOf(recorded.streamId);
  }

  private async readAllPage(options: ReadAllOptions): Promise<AllStreamRecordedEvent[]> {
    const events: AllStreamRecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readAll({ ...options, filter: this.filter })) if (resolved.event) events.push(resolved.event);
    } catch (error) {
      throw toUnavailableIfSo(error, 'KurrentDB read failed');
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    this.ensureDoorbell();
    const subscription = startPollingSubscription(
      { readAll: (from, limit) => this.readAll(from, limit), wake: this.wake, pollIntervalMs: this.options.pollIntervalMs ?? 500 },
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
    if (this.doorbellRetry) clearTimeout(this.doorbellRetry);
    const doorbell = this.doorbell;
    this.doorbell = null;
    await doorbell?.unsubscribe().catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.client.dispose().catch(() => undefined);
  }

  /**
   * One live subscription to `$all` (same filter, from the end) only wakes the polling loops when any
   * process appends: a hint, never data, so deliveries keep the one cursor of the polling loop. When it
   * is down the loops still poll, so it just retries quietly.
   */
  private ensureDoorbell(): void {
    if (this.doorbell || this.doorbellRetry || this.closed) return;
    let subscription: AllStreamSubscription;
    try {
      subscription = this.client.subscribeToAll({ fromPosition: END, filter: this.filter });
    } catch {
      this.scheduleDoorbellRetry();
      return;
    }
    const lost = () => {
      if (this.doorbell !== subscription) return;
      this.doorbell = null;
      subscription.unsubscribe().catch(() => undefined);
      this.scheduleDoorbellRetry();
    };
    subscription.on('data', () => this.wake.notify());
    subscription.on('error', lost);
    subscription.on('end', lost);
    subscription.on('close', lost);
    this.doorbell = subscription;
    // Appends may have landed while nothing was listening.
    this.wake.notify();
  }

  private scheduleDoorbellRetry(): void {
    if (this.closed || this.doorbellRetry) return;
    this.doorbellRetry = setTimeout(() => {
      this.doorbellRetry = null;
      if (this.subscriptions.size > 0) this.ensureDoorbell();
    }, DOORBELL_RETRY_MS);
    // Never keep a process alive just to reconnect an optional hint.
    this.doorbellRetry.unref();
  }

  /** close() waits for appends in flight before it disposes of the client. */
  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('event store is closed');
  }
}

function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

/** The version of the last event of an append of `count` events made with a known expectation. */
function lastVersionAfter(state: AppendStreamState, count: number): number {
  if (typeof state === 'bigint') return Number(state) + count;
  if (state === NO_STREAM) return count - 1;
  throw new Error(`cannot tell where an append expecting ${state} ends`);
}

/** The server reports deleted (-5) and tombstoned (-6) streams below zero: for us they are not there. */
function toVersion(state: CurrentStreamState): number | 'no_stream' {
  return typeof state === 'bigint' && state >= 0n ? Number(state) : 'no_stream';
}

function revisionOf(response: MultiAppendResult, streamName: string): number {
  const written = response.responses.find((entry) => entry.streamName === streamName);
  if (!written) throw new Error(`KurrentDB did not report the revision of ${streamName}`);
  return Number(written.revision);
}

/** gRPC status codes: CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE; UNIMPLEMENTED */
const UNAVAILABLE_CODES = new Set([1, 4, 14]);
const UNIMPLEMENTED = 12;

function isUnavailable(error: unknown): boolean {
  if (
    error instanceof EventStoreUnavailableError ||
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError
  ) {
    return true;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
  // Failures to connect reach multi-stream append as plain gRPC errors.
  return error instanceof Error && /UNAVAILABLE|ECONNREFUSED|No connection established/.test(error.message);
}

function toAppendError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof UnsupportedError || code === UNIMPLEMENTED) {
    return new EventStoreUnavailableError('KurrentDB does not support multi-stream appends: Rollcall needs KurrentDB 25.1 or later', error);
  }
  return toUnavailableIfSo(error, 'KurrentDB append failed');
}

function toUnavailableIfSo(error: unknown, context: string): unknown {
  return isUnavailable(error) ? toUnavailable(error, context) : error;
}

function toUnavailable(error: unknown, context: string): EventStoreUnavailableError {
  if (error instanceof EventStoreUnavailableError) return error;
  const message = error instanceof Error ? error.message || error.name : String(error);
  return new EventStoreUnavailableError(`${context}: ${message}`, error);
}
