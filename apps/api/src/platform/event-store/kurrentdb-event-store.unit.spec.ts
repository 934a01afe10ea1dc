import { EventEmitter } from 'node:events';
import {
  ANY,
  type AppendStreamRequest,
  type AppendStreamState,
  type CurrentStreamState,
  END,
  FORWARDS,
  type KurrentDBClient,
  type MultiAppendResult,
  NO_STREAM,
  type Position as KurrentPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  START as KURRENT_START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { eventStoreContract, eventually, readEverything, testEvent } from './event-store.contract';
import { EventStoreUnavailableError, START, type StoredEvent } from './event-store.port';
import { KurrentDbEventStore } from './kurrentdb-event-store';

/**
 * A stand-in for a KurrentDB server, for the adapter's own logic only: reservations, idempotency keys,
 * retries, the `$all` filter and cursor, the doorbell. It models what the adapter relies on from the
 * server (expected revisions checked and all streams written at one instant, or nothing; one log
 * ordered by (commit, prepare) with a shared commit per append; reads of `$all` that include the start
 * position) and answers after a turn of the event loop, so concurrent calls interleave. Whether the real
 * server behaves so is what kurrentdb-event-store.int.spec.ts checks where a server is available.
 */
interface FakeRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  isJson: true;
  data: unknown;
  metadata: unknown;
  created: Date;
  position: KurrentPosition;
}

class FakeKurrentDb {
  readonly log: FakeRecord[] = [];
  private readonly streams = new Map<string, FakeRecord[]>();
  private readonly doorbells = new Set<EventEmitter & { regex: RegExp | null }>();
  private nextPosition = 0n;
  disposed = false;
  unavailable = false;
  appendCalls = 0;

  constructor() {
    // What a fresh server holds before anyone writes: system events, which $all readers must not see.
    this.write([{ streamName: '$settings', expectedState: ANY, events: [{ id: 's', contentType: 'application/json', type: '$settings', data: {}, metadata: undefined }] }]);
    this.write([{ streamName: '$stats-127.0.0.1:2113', expectedState: ANY, events: [{ id: 't', contentType: 'application/json', type: '$statsCollected', data: {}, metadata: undefined }] }]);
  }

  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }

  async multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult> {
    this.appendCalls++;
    await this.turn();
    for (const request of requests) {
      for (const event of request.events) {
        const metadata = event.metadata;
        // the real client's own check
        if (metadata != null && (metadata instanceof Uint8Array || typeof metadata !== 'object' || Array.isArray(metadata) || Object.values(metadata).some((value) => typeof value !== 'string'))) {
          throw new Error('multiStreamAppend requires metadata to be a plain object with string keys and string values.');
        }
      }
    }
    if (new Set(requests.map((request) => request.streamName)).size !== requests.length) throw new Error('a stream twice in one multi-stream append');
    const result = this.write(requests);
    await this.turn();
    return result;
  }

  readStream(streamName: string, { fromRevision = KURRENT_START, direction = FORWARDS, maxCount = Number.MAX_SAFE_INTEGER }: ReadStreamOptions = {}) {
    return async function* (this: FakeKurrentDb) {
      await this.turn();
      const records = this.streams.get(streamName);
      if (!records) throw new StreamNotFoundError(undefined, streamName);
      let list: FakeRecord[];
      if (direction === FORWARDS) {
        list = records.slice(fromRevision === KURRENT_START ? 0 : fromRevision === END ? records.length : Number(fromRevision));
      } else {
        list = records.slice(0, fromRevision === END ? records.length : fromRevision === KURRENT_START ? 1 : Number(fromRevision) + 1).reverse();
      }
      for (const record of list.slice(0, Number(maxCount))) yield { event: { ...record } };
    }.call(this);
  }

  readAll({ fromPosition = KURRENT_START, direction = FORWARDS, maxCount = Number.MAX_SAFE_INTEGER, filter }: ReadAllOptions = {}) {
    return async function* (this: FakeKurrentDb) {
      await this.turn();
      const regex = filter && 'regex' in filter ? new RegExp(filter.regex) : null;
      const compare = (a: KurrentPosition, b: KurrentPosition) => (a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare < b.prepare ? -1 : a.prepare > b.prepare ? 1 : 0);
      let list: FakeRecord[];
      if (direction === FORWARDS) {
        list = this.log.filter((record) => fromPosition === KURRENT_START || (fromPosition !== END && compare(record.position, fromPosition) >= 0));
      } else {
        list = this.log.filter((record) => fromPosition === END || (fromPosition !== KURRENT_START && compare(record.position, fromPosition) <= 0)).reverse();
      }
      list = list.filter((record) => !regex || regex.test(record.streamId));
      for (const record of list.slice(0, Number(maxCount))) yield { event: { ...record } };
    }.call(this);
  }

  subscribeToAll({ filter }: { filter?: { regex?: string } } = {}) {
    this.assertUp();
    const doorbell = Object.assign(new EventEmitter(), {
      regex: filter?.regex ? new RegExp(filter.regex) : null,
      unsubscribe: async () => void this.doorbells.delete(doorbell),
    });
    this.doorbells.add(doorbell);
    return doorbell;
  }

  get openDoorbells(): number {
    return this.doorbells.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  /** Checks every expectation, then writes everything at one instant: one transaction, one commit position. */
  private write(requests: AppendStreamRequest[]): MultiAppendResult {
    for (const { streamName, expectedState } of requests) {
      const current: CurrentStreamState = this.streams.has(streamName) ? BigInt((this.streams.get(streamName) as FakeRecord[]).length - 1) : NO_STREAM;
      if (!matches(expectedState, current)) {
        throw new KurrentWrongExpectedVersionError(undefined, { streamName, expected: expectedState, current });
      }
    }
    const commit = this.nextPosition;
    const responses = requests.map(({ streamName, events }) => {
      const records = this.streams.get(streamName) ?? [];
      this.streams.set(streamName, records);
      for (const event of events) {
        const record: FakeRecord = {
          streamId: streamName,
          id: event.id,
          type: event.type,
          revision: BigInt(records.length),
          isJson: true,
          // as it travels: JSON text, parsed again by the client
          data: JSON.parse(JSON.stringify(event.data)) as unknown,
          metadata: { '$schema.format': 'Json', '$schema.name': event.type, ...(event.metadata as Record<string, string> | undefined) },
          created: new Date(),
          position: { commit, prepare: this.nextPosition },
        };
        this.nextPosition += BigInt(100 + JSON.stringify(event.data).length);
        records.push(record);
        this.log.push(record);
      }
      return { streamName, revision: BigInt(records.length - 1) };
    });
    for (const doorbell of this.doorbells) {
      if (requests.some(({ streamName }) => !doorbell.regex || doorbell.regex.test(streamName))) setImmediate(() => doorbell.emit('data', {}));
    }
    return { position: commit, responses };
  }

  private async turn(): Promise<void> {
    this.assertUp();
    await new Promise((resolve) => setImmediate(resolve));
    this.assertUp();
  }

  private assertUp(): void {
    if (this.disposed || this.unavailable) throw new UnavailableError();
  }
}

function matches(expected: AppendStreamState, current: CurrentStreamState): boolean {
  if (expected === ANY) return true;
  if (expected === NO_STREAM) return current === NO_STREAM;
  if (expected === STREAM_EXISTS) return current !== NO_STREAM;
  return current === expected;
}

eventStoreContract('kurrentdb adapter over a stand-in server', async () => {
  const server = new FakeKurrentDb();
  const store = KurrentDbEventStore.withClient(server.asClient(), { pollIntervalMs: 50 });
  return { store, cleanup: () => store.close() };
});

describe('KurrentDbEventStore over a stand-in server', () => {
  it('keeps reservations and idempotency keys in streams of their own, which $all does not show', async () => {
    const server = new FakeKurrentDb();
    const store = KurrentDbEventStore.withClient(server.asClient());
    try {
      await store.appendToStream('account-1', [testEvent('AccountCreated')], {
        expectedVersion: 'no_stream',
        reservations: [{ scope: 'username', value: 'alice' }],
        idempotencyKey: 'k-1',
      });
      await store.appendToStream('account-1', [testEvent('UsernameChanged')], { expectedVersion: 0, releases: [{ scope: 'username', value: 'alice' }] });
      expect(server.log.map((record) => `${record.streamId.replace(/[0-9a-f]{64}$/, '<hash>')}:${record.type}`)).toEqual([
        '$settings:$settings',
        '$stats-127.0.0.1:2113:$statsCollected',
        'account-1:AccountCreated',
        'rollcall:reservation:username:<hash>:ReservationTaken',
        'rollcall:idempotency:<hash>:IdempotencyKeyUsed',
        'account-1:UsernameChanged',
        'rollcall:reservation:username:<hash>:ReservationReleased',
      ]);
      // one transaction per append: the internal events share the commit of the append's own
      expect(new Set(server.log.slice(2, 5).map((record) => record.position.commit)).size).toBe(1);
      expect((await readEverything(store)).map((e) => e.type)).toEqual(['AccountCreated', 'UsernameChanged']);
      expect(await store.headPosition()).toEqual((await readEverything(store))[1].position);
    } finally {
      await store.close();
    }
  });

  it('re-reserving a value the stream already owns writes nothing to the reservation stream', async () => {
    const server = new FakeKurrentDb();
    const store = KurrentDbEventStore.withClient(server.asClient());
    const alice = { scope: 'username', value: 'alice' };
    try {
      await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
      await store.appendToStream('account-1', [testEvent('AccountTouched')], { expectedVersion: 0, reservations: [alice] });
      expect(server.log.filter((record) => record.type === 'ReservationTaken')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('a stale expected version is reported before a taken value, as on SQLite and PostgreSQL', async () => {
    const store = KurrentDbEventStore.withClient(new FakeKurrentDb().asClient());
    const alice = { scope: 'username', value: 'alice' };
    try {
      await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
      await store.appendToStream('account-2', [testEvent('AccountCreated')], { expectedVersion: 'no_stream' });
      await expect(store.appendToStream('account-2', [testEvent('UsernameChanged')], { expectedVersion: 3, reservations: [alice] })).rejects.toMatchObject({
        name: 'WrongExpectedVersionError',
        streamId: 'account-2',
        expected: 3,
        actual: 0,
      });
      await expect(store.appendToStream('account-2', [testEvent('UsernameChanged')], { expectedVersion: 0, reservations: [alice] })).rejects.toMatchObject({
        name: 'ReservationTakenError',
      });
    } finally {
      await store.close();
    }
  });

  it('a keyed append expecting `any` re-reads the stream when another append moves it first, and records where it ended', async () => {
    const server = new FakeKurrentDb();
    const store = KurrentDbEventStore.withClient(server.asClient());
    try {
      const results = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => store.appendToStream('reader-1', [testEvent('Arrival', { i })], { expectedVersion: 'any', idempotencyKey: `reader-1:${i}` })),
        ...Array.from({ length: 5 }, (_, i) => store.appendToStream('reader-1', [testEvent('Heartbeat', { i })], { expectedVersion: 'any' })),
      ]);
      expect(results.map((r) => r.nextExpectedVersion).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, v) => v));
      // some keyed appends lost a race on the stream and went again
      expect(server.appendCalls).toBeGreaterThan(10);
      for (let i = 0; i < 5; i++) {
        const repeat = await store.appendToStream('reader-1', [testEvent('Arrival', { i })], { expectedVersion: 'any', idempotencyKey: `reader-1:${i}` });
        expect(repeat).toEqual({ ...results[i], duplicate: true });
      }
      expect(await store.readStream('reader-1')).toHaveLength(10);
    } finally {
      await store.close();
    }
  });

  it('the same key sent in parallel expecting no_stream: the losers of the race get the first result, not a conflict', async () => {
    const store = KurrentDbEventStore.withClient(new FakeKurrentDb().asClient());
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.appendToStream('reader-2', [testEvent('Arrival')], { expectedVersion: 'no_stream', idempotencyKey: 'reader-2:1' })),
      );
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      for (const result of results) expect({ ...result, duplicate: false }).toEqual(results.find((r) => !r.duplicate));
      // a different key with the same stale expectation is a conflict
      await expect(
        store.appendToStream('reader-2', [testEvent('Arrival')], { expectedVersion: 'no_stream', idempotencyKey: 'reader-2:2' }),
      ).rejects.toMatchObject({ name: 'WrongExpectedVersionError', expected: 'no_stream', actual: 0 });
    } finally {
      await store.close();
    }
  });

  it('stores with different prefixes on one server see neither each other nor their reservations', async () => {
    const server = new FakeKurrentDb();
    const a = KurrentDbEventStore.withClient(server.asClient(), { streamPrefix: 'a-' });
    const b = KurrentDbEventStore.withClient(server.asClient(), { streamPrefix: 'b-' });
    const x = { scope: 'u', value: 'x' };
    await a.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream', reservations: [x] });
    await b.appendToStream('s', [testEvent('B')], { expectedVersion: 'no_stream', reservations: [x] });
    expect((await readEverything(a)).map((e) => `${e.streamId}:${e.type}`)).toEqual(['s:A']);
    expect((await readEverything(b)).map((e) => `${e.streamId}:${e.type}`)).toEqual(['s:B']);
    expect(server.log.map((record) => record.streamId).filter((name) => name === 'a-s' || name === 'b-s')).toEqual(['a-s', 'b-s']);
    await Promise.all([a.close(), b.close()]);
  });

  it("the server's push wakes a subscriber for another client's append; close() ends it", async () => {
    const server = new FakeKurrentDb();
    const reader = KurrentDbEventStore.withClient(server.asClient(), { pollIntervalMs: 60_000 });
    const writer = KurrentDbEventStore.withClient(server.asClient());
    const received: StoredEvent[] = [];
    const subscription = reader.subscribeToAll({ from: START, onEvents: (events) => void received.push(...events) });
    await new Promise((resolve) => setTimeout(resolve, 100)); // parked on a one-minute poll
    expect(server.openDoorbells).toBe(1);
    await writer.appendToStream('s', [testEvent('Ping')], { expectedVersion: 'no_stream' });
    await eventually(() => received.length === 1, 'the pushed event', 5_000);
    await reader.close();
    await subscription.done;
    expect(server.openDoorbells).toBe(0);
  });

  it('a server that cannot be reached makes appends and reads fail with EventStoreUnavailableError', async () => {
    const server = new FakeKurrentDb();
    const store = KurrentDbEventStore.withClient(server.asClient());
    await store.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream' });
    server.unavailable = true;
    await expect(store.appendToStream('s', [testEvent('B')], { expectedVersion: 0 })).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(store.readAll(START, 10)).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(store.readStream('s')).rejects.toBeInstanceOf(EventStoreUnavailableError);
    server.unavailable = false;
    expect(await store.readStream('s')).toHaveLength(1);
    await store.close();
  });

  it('refuses stream ids that would land among system or internal streams', async () => {
    const store = KurrentDbEventStore.withClient(new FakeKurrentDb().asClient());
    await expect(store.appendToStream('$ce-account', [testEvent('A')], { expectedVersion: 'any' })).rejects.toThrow(/cannot be stored in KurrentDB/);
    await expect(store.appendToStream('rollcall:reservation:x', [testEvent('A')], { expectedVersion: 'any' })).rejects.toThrow(/cannot be stored/);
    await store.close();
  });
});
