import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AppendResult,
  comparePositions,
  EventStoreUnavailableError,
  type EventStore,
  formatPosition,
  type NewEvent,
  type Position,
  ReservationTakenError,
  START,
  type StoredEvent,
  type StreamWrite,
  WrongExpectedVersionError,
} from './event-store.port';

export interface EventStoreUnderTest {
  store: EventStore;
  /** closes the store (it may already be closed) and removes its file or schema */
  cleanup: () => Promise<void>;
}

/** An event whose metadata is complete and whose id lets a test recognise it after a round trip. */
export function testEvent(type: string, data: unknown = {}, schemaVersion?: number): NewEvent {
  return {
    type,
    data,
    schemaVersion,
    metadata: {
      eventId: randomUUID(),
      actor: 'system',
      actorKind: 'system',
      sourceIp: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds; fails after `timeoutMs` with `what` in the message. */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Reads the whole log in pages of `page` events. */
export async function readEverything(store: EventStore, page = 100): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  let from: Position = START;
  for (;;) {
    const batch = await store.readAll(from, page);
    all.push(...batch);
    if (batch.length < page) return all;
    from = batch[batch.length - 1].position;
  }
}

function expectStrictlyIncreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) {
    expect(comparePositions(positions[i - 1], positions[i]), `position ${i} follows ${i - 1}`).toBe(-1);
  }
}

type Settled<T> = PromiseSettledResult<T>;
const fulfilled = <T>(results: Settled<T>[]) =>
  results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);
const rejected = <T>(results: Settled<T>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);

/**
 * The behaviour every EventStore adapter must have. Each test gets a fresh, empty store from `make`
 * (a new SQLite file, a new PostgreSQL schema) and real concurrency: parallel appends are issued
 * together and race inside the adapter, nothing is mocked.
 */
export function eventStoreContract(name: string, make: () => Promise<EventStoreUnderTest>): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: EventStoreUnderTest;
    let store: EventStore;

    beforeEach(async () => {
      subject = await make();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('streams', () => {
      it('appends and reads a stream: versions from 0, payload and metadata round-trip, schemaVersion defaults to 1', async () => {
        const first = testEvent('AccountCreated', { username: 'alice', tags: ['a', 'b'], nested: { n: 1.5, ok: true, none: null } });
        const second = testEvent('AccountRenamed', { username: 'alicia' }, 3);
        const third = testEvent('AccountLocked', null);
        const result = await store.appendToStream('account-1', [first, second], { expectedVersion: 'no_stream' });
        expect(result.nextExpectedVersion).toBe(1);
        expect(result.duplicate).toBe(false);
        const next = await store.appendToStream('account-1', [third], { expectedVersion: 1 });
        expect(next.nextExpectedVersion).toBe(2);
        expect(comparePositions(result.position, next.position)).toBe(-1);

        const events = await store.readStream('account-1');
        expect(events.map((e) => e.streamVersion)).toEqual([0, 1, 2]);
        expect(events.every((e) => e.streamId === 'account-1')).toBe(true);
        expect(events.map((e) => e.type)).toEqual(['AccountCreated', 'AccountRenamed', 'AccountLocked']);
        expect(events[0].data).toEqual(first.data);
        expect(events[0].metadata).toEqual(first.metadata);
        expect(events[1].metadata).toEqual(second.metadata);
        expect(events[2].data).toBeNull();
        expect(events.map((e) => e.schemaVersion)).toEqual([1, 3, 1]);
        // The append's position is the position of its last event, as readAll reports it.
        expect(events[1].position).toEqual(result.position);
        expect(events[2].position).toEqual(next.position);
        expectStrictlyIncreasing(events.map((e) => e.position));
      });

      it('reads a stream from a version (inclusive) and an unknown stream as empty', async () => {
        await store.appendToStream('s', [testEvent('A'), testEvent('B'), testEvent('C'), testEvent('D')], {
          expectedVersion: 'no_stream',
        });
        expect((await store.readStream('s', 2)).map((e) => [e.streamVersion, e.type])).toEqual([
          [2, 'C'],
          [3, 'D'],
        ]);
        expect(await store.readStream('s', 4)).toEqual([]);
        expect(await store.readStream('nobody')).toEqual([]);
      });

      it('reads issued together: each gets its own stream from its own version, and sees the appends acknowledged before it', async () => {
        await store.appendToStream('s', [testEvent('A'), testEvent('B'), testEvent('C')], { expectedVersion: 'no_stream' });
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => store.appendToStream(`t-${i}`, Array.from({ length: 1 + (i % 4) }, (_, j) => testEvent('T', { i, j })), { expectedVersion: 'no_stream' })),
        );
        const [fromZero, fromTwo, unknown, past, ...others] = await Promise.all([
          store.readStream('s'),
          store.readStream('s', 2),
          store.readStream('nobody'),
          store.readStream('s', 3),
          ...Array.from({ length: 30 }, (_, i) => store.readStream(`t-${i}`, i % 2)),
        ]);
        expect(fromZero.map((e) => [e.streamVersion, e.type])).toEqual([[0, 'A'], [1, 'B'], [2, 'C']]);
        expect(fromTwo.map((e) => [e.streamVersion, e.type])).toEqual([[2, 'C']]);
        expect(unknown).toEqual([]);
        expect(past).toEqual([]);
        others.forEach((events, i) => {
          expect(events.every((e) => e.streamId === `t-${i}`), `t-${i}`).toBe(true);
          expect(events.map((e) => (e.data as { j: number }).j), `t-${i}`).toEqual(Array.from({ length: 1 + (i % 4) }, (_, j) => j).slice(i % 2));
        });
        // a read issued once an append is acknowledged sees it, even among reads issued together
        const appended = store.appendToStream('s', [testEvent('D')], { expectedVersion: 2 });
        const [, afterAppend] = await Promise.all([store.readStream('t-0'), appended.then(() => store.readStream('s', 3))]);
        expect(afterAppend.map((e) => e.type)).toEqual(['D']);
      });

      it('reads several streams in one call, each as readStream gives it, in the order asked', async () => {
        await store.appendToStream('s', [testEvent('A'), testEvent('B'), testEvent('C')], { expectedVersion: 'no_stream' });
        const quoted = `it's "quoted" [0, 1]`; // a stream id that must not break the store's encoding of the reads
        await store.appendToStream(quoted, [testEvent('Q', { n: 1 })], { expectedVersion: 'no_stream' });
        await Promise.all(Array.from({ length: 40 }, (_, i) => store.appendToStream(`t-${i}`, Array.from({ length: 1 + (i % 3) }, (_, j) => testEvent('T', { i, j })), { expectedVersion: 'no_stream' })));
        const reads = [
          { streamId: 't-7', fromVersion: 1 },
          { streamId: 's' },
          { streamId: 'nobody' },
          { streamId: 's', fromVersion: 2 },
          { streamId: 's', fromVersion: 3 },
          { streamId: quoted },
          ...Array.from({ length: 40 }, (_, i) => ({ streamId: `t-${i}`, fromVersion: i % 2 })),
        ];
        const together = await store.readStreams(reads);
        const oneByOne = await Promise.all(reads.map(({ streamId, fromVersion }) => store.readStream(streamId, fromVersion)));
        expect(together).toHaveLength(reads.length);
        expect(together.map((events) => events.map((e) => [e.streamId, e.streamVersion, e.type, e.data]))).toEqual(
          oneByOne.map((events) => events.map((e) => [e.streamId, e.streamVersion, e.type, e.data])),
        );
        expect(together[1].map((e) => e.type)).toEqual(['A', 'B', 'C']);
        expect(together[3].map((e) => e.type)).toEqual(['C']);
        expect(together[2]).toEqual([]);
        expect(together[4]).toEqual([]);
        expect(together[5].map((e) => e.data)).toEqual([{ n: 1 }]);
        expect(together[0].map((e) => e.streamVersion)).toEqual([1]);
        expect(await store.readStreams([])).toEqual([]);
        expect((await store.readStreams([{ streamId: 's', fromVersion: 1 }]))[0].map((e) => e.type)).toEqual(['B', 'C']);
      });
    });

    describe('$all', () => {
      it('reads across streams in global order, strictly after `from`, honouring the limit; headPosition follows', async () => {
        expect(await store.headPosition()).toEqual(START);
        expect(await store.readAll(START, 10)).toEqual([]);

        const appended: string[] = [];
        for (let i = 0; i < 12; i++) {
          const event = testEvent('Tick', { i });
          appended.push(event.metadata.eventId);
          await store.appendToStream(`stream-${i % 3}`, [event], { expectedVersion: 'any' });
        }
        const all = await store.readAll(START, 100);
        expect(all.map((e) => e.metadata.eventId)).toEqual(appended);
        expectStrictlyIncreasing(all.map((e) => e.position));
        expect(all.map((e) => e.streamId).slice(0, 4)).toEqual(['stream-0', 'stream-1', 'stream-2', 'stream-0']);

        const page = await store.readAll(START, 5);
        expect(page.map((e) => e.metadata.eventId)).toEqual(appended.slice(0, 5));
        const after = await store.readAll(page[4].position, 4);
        expect(after.map((e) => e.metadata.eventId)).toEqual(appended.slice(5, 9));
        expect(await store.readAll(all[11].position, 10)).toEqual([]);
        expect(await store.headPosition()).toEqual(all[11].position);
      });

      it('subscribeToAll delivers every event exactly once, in order, across catch-up and live', async () => {
        const expected: string[] = [];
        // 200 before subscribing, spread over streams and multi-event appends.
        for (let i = 0; i < 40; i++) {
          const events = [0, 1, 2, 3, 4].map((j) => testEvent('Before', { i, j }));
          expected.push(...events.map((e) => e.metadata.eventId));
          await store.appendToStream(`before-${i % 7}`, events, { expectedVersion: 'any' });
        }

        const received: StoredEvent[] = [];
        let handlersRunning = 0;
        let overlapped = false;
        const subscription = store.subscribeToAll({
          from: START,
          batchSize: 37, // small enough that catch-up takes several reads, and batches straddle the switch
          onEvents: async (events) => {
            handlersRunning++;
            if (handlersRunning > 1) overlapped = true;
            received.push(...events);
            // a slow handler: appends keep landing while it runs
            await sleep(Math.random() < 0.3 ? 3 : 0);
            handlersRunning--;
          },
        });

        // 200 while subscribed: some sequential with pauses, some racing each other.
        const writers = [0, 1, 2, 3].map(async (writer) => {
          for (let i = 0; i < 25; i++) {
            const events = [testEvent('Live', { writer, i }), testEvent('Live', { writer, i, second: true })];
            await store.appendToStream(`live-${writer}`, events, { expectedVersion: 'any' });
            if (i % 5 === 0) await sleep(Math.floor(Math.random() * 8));
          }
        });
        await Promise.all(writers);

        await eventually(() => received.length >= 400, '400 events delivered');
        // Give a repeat a chance to show up before we look.
        await sleep(250);
        await subscription.stop();

        expect(received).toHaveLength(400);
        expect(overlapped).toBe(false);
        const log = await readEverything(store);
        expect(log).toHaveLength(400);
        // Delivered exactly the log, in the log's order.
        expect(received.map((e) => e.position)).toEqual(log.map((e) => e.position));
        expectStrictlyIncreasing(received.map((e) => e.position));
        const ids = received.map((e) => e.metadata.eventId);
        expect(new Set(ids).size).toBe(400);
        expect(ids.slice(0, 200)).toEqual(expected);
        // Each live writer's own events arrive in the order it wrote them.
        for (let writer = 0; writer < 4; writer++) {
          const mine = received.filter((e) => e.streamId === `live-${writer}`);
          expect(mine.map((e) => e.streamVersion)).toEqual(Array.from({ length: 50 }, (_, v) => v));
        }
      });

      it('subscribeToAll starts strictly after `from`, and stop() ends delivery', async () => {
        for (let i = 0; i < 10; i++) await store.appendToStream('s', [testEvent('E', { i })], { expectedVersion: 'any' });
        const log = await store.readAll(START, 10);
        const received: StoredEvent[] = [];
        const subscription = store.subscribeToAll({ from: log[3].position, onEvents: (events) => void received.push(...events) });
        await eventually(() => received.length >= 6, 'the 6 events after position 4');
        expect(received.map((e) => e.position)).toEqual(log.slice(4).map((e) => e.position));

        await subscription.stop();
        await subscription.done;
        await store.appendToStream('s', [testEvent('AfterStop')], { expectedVersion: 'any' });
        await sleep(200);
        expect(received).toHaveLength(6);
      });

      it("a failing handler ends the subscription: done rejects with the handler's error, nothing more is delivered", async () => {
        await store.appendToStream('s', [testEvent('A'), testEvent('B')], { expectedVersion: 'no_stream' });
        let calls = 0;
        const subscription = store.subscribeToAll({
          from: START,
          batchSize: 1,
          onEvents: () => {
            calls++;
            throw new Error('projection broke');
          },
        });
        await expect(subscription.done).rejects.toThrow('projection broke');
        await subscription.stop();
        expect(calls).toBe(1);
      });
    });

    describe('optimistic concurrency', () => {
      it('20 parallel appenders with the same expected version: exactly one wins, the stream stays contiguous', async () => {
        await store.appendToStream('contested', [testEvent('Created')], { expectedVersion: 'no_stream' });
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) =>
            store.appendToStream('contested', [testEvent('Changed', { i }), testEvent('Changed', { i, more: true })], {
              expectedVersion: 0,
            }),
          ),
        );
        const winners = fulfilled(results);
        const losers = rejected(results);
        expect(winners).toHaveLength(1);
        expect(winners[0].nextExpectedVersion).toBe(2);
        expect(losers).toHaveLength(19);
        for (const error of losers) {
          expect(error).toBeInstanceOf(WrongExpectedVersionError);
          expect(error).toMatchObject({ streamId: 'contested', expected: 0, actual: 2 });
        }
        const events = await store.readStream('contested');
        expect(events.map((e) => e.streamVersion)).toEqual([0, 1, 2]);
        // both events of the one winner, none of a loser
        expect(new Set(events.slice(1).map((e) => (e.data as { i: number }).i)).size).toBe(1);
        expect(await readEverything(store)).toHaveLength(3);
      });

      it('20 parallel creators of one stream (no_stream): exactly one wins', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) => store.appendToStream('new', [testEvent('Created', { i })], { expectedVersion: 'no_stream' })),
        );
        expect(fulfilled(results)).toHaveLength(1);
        expect(rejected(results).every((e) => e instanceof WrongExpectedVersionError)).toBe(true);
        expect((await store.readStream('new')).map((e) => e.streamVersion)).toEqual([0]);
      });

      it('20 parallel appenders with `any` all succeed with contiguous versions', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.appendToStream('busy', [testEvent('Hit', { i })], { expectedVersion: 'any' })),
        );
        expect(results.map((r) => r.nextExpectedVersion).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, v) => v));
        expect((await store.readStream('busy')).map((e) => e.streamVersion)).toEqual(Array.from({ length: 20 }, (_, v) => v));
      });

      it('no_stream, any and numeric expectations', async () => {
        // a number against a stream that does not exist
        await expect(store.appendToStream('s', [testEvent('A')], { expectedVersion: 0 })).rejects.toMatchObject({
          name: 'WrongExpectedVersionError',
          streamId: 's',
          expected: 0,
          actual: 'no_stream',
        });
        // any on a new stream starts it at 0
        expect((await store.appendToStream('s', [testEvent('A')], { expectedVersion: 'any' })).nextExpectedVersion).toBe(0);
        // no_stream on an existing stream
        const noStream = store.appendToStream('s', [testEvent('B')], { expectedVersion: 'no_stream' });
        await expect(noStream).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(noStream).rejects.toMatchObject({ expected: 'no_stream', actual: 0 });
        // a stale and a future number
        await expect(store.appendToStream('s', [testEvent('B')], { expectedVersion: 5 })).rejects.toMatchObject({ expected: 5, actual: 0 });
        await store.appendToStream('s', [testEvent('B'), testEvent('C')], { expectedVersion: 0 });
        await expect(store.appendToStream('s', [testEvent('D')], { expectedVersion: 0 })).rejects.toMatchObject({ expected: 0, actual: 2 });
        // any on an existing stream appends after its end
        expect((await store.appendToStream('s', [testEvent('D')], { expectedVersion: 'any' })).nextExpectedVersion).toBe(3);
        expect((await store.readStream('s')).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
      });
    });

    describe('reservations', () => {
      const alice = { scope: 'username', value: 'alice' };

      it('two parallel creations reserving one username: one wins, the other appends nothing', async () => {
        const results = await Promise.allSettled(
          ['account-1', 'account-2'].map((stream) =>
            store.appendToStream(stream, [testEvent('AccountCreated', { stream })], {
              expectedVersion: 'no_stream',
              reservations: [alice, { scope: 'email', value: `${stream}@example.com` }],
            }),
          ),
        );
        expect(fulfilled(results)).toHaveLength(1);
        const [error] = rejected(results);
        expect(error).toBeInstanceOf(ReservationTakenError);
        expect((error as ReservationTakenError).reservation).toEqual(alice);

        const winner = results[0].status === 'fulfilled' ? 'account-1' : 'account-2';
        const loser = winner === 'account-1' ? 'account-2' : 'account-1';
        expect(await store.readStream(loser)).toEqual([]);
        expect((await readEverything(store)).map((e) => e.streamId)).toEqual([winner]);
        // The loser's other reservation went with it: its e-mail is free, its stream still new.
        await store.appendToStream(loser, [testEvent('AccountCreated')], {
          expectedVersion: 'no_stream',
          reservations: [{ scope: 'username', value: 'bob' }, { scope: 'email', value: `${loser}@example.com` }],
        });
      });

      it('the owner may reserve again; a release frees the value for another stream; others cannot release it', async () => {
        await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
        // Re-reserving what this stream owns is fine.
        await store.appendToStream('account-1', [testEvent('AccountTouched')], { expectedVersion: 0, reservations: [alice] });
        // Another stream "releasing" alice changes nothing.
        await store.appendToStream('account-2', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', releases: [alice] });
        await expect(
          store.appendToStream('account-3', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] }),
        ).rejects.toBeInstanceOf(ReservationTakenError);
        expect(await store.readStream('account-3')).toEqual([]);

        // The owner renames: releases alice and takes alicia in the same append.
        await store.appendToStream('account-1', [testEvent('UsernameChanged')], {
          expectedVersion: 1,
          releases: [alice],
          reservations: [{ scope: 'username', value: 'alicia' }],
        });
        await store.appendToStream('account-3', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
        await expect(
          store.appendToStream('account-2', [testEvent('UsernameChanged')], {
            expectedVersion: 0,
            reservations: [{ scope: 'username', value: 'alicia' }],
          }),
        ).rejects.toBeInstanceOf(ReservationTakenError);
        // Scopes are independent.
        await store.appendToStream('org-1', [testEvent('OrganizationCreated')], {
          expectedVersion: 'no_stream',
          reservations: [{ scope: 'organization', value: 'alice' }],
        });
      });

      it('an append that fails leaves none of its reservations and releases nothing', async () => {
        await store.appendToStream('account-1', [testEvent('AccountCreated')], {
          expectedVersion: 'no_stream',
          reservations: [{ scope: 'username', value: 'taken' }],
        });
        // version conflict
        await expect(
          store.appendToStream('account-1', [testEvent('UsernameChanged')], {
            expectedVersion: 7,
            reservations: [{ scope: 'username', value: 'carol' }],
            releases: [{ scope: 'username', value: 'taken' }],
          }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        // one free and one taken value: the free one must not stay reserved
        await expect(
          store.appendToStream('account-2', [testEvent('AccountCreated')], {
            expectedVersion: 'no_stream',
            reservations: [{ scope: 'username', value: 'dave' }, { scope: 'username', value: 'taken' }],
          }),
        ).rejects.toBeInstanceOf(ReservationTakenError);

        await store.appendToStream('account-3', [testEvent('AccountCreated')], {
          expectedVersion: 'no_stream',
          reservations: [{ scope: 'username', value: 'carol' }, { scope: 'username', value: 'dave' }],
        });
        // 'taken' was not released by the failed append
        await expect(
          store.appendToStream('account-4', [testEvent('AccountCreated')], {
            expectedVersion: 'no_stream',
            reservations: [{ scope: 'username', value: 'taken' }],
          }),
        ).rejects.toBeInstanceOf(ReservationTakenError);
        expect((await readEverything(store)).map((e) => e.streamId)).toEqual(['account-1', 'account-3']);
      });
    });

    describe('multi-stream appends', () => {
      const alice = { scope: 'username', value: 'alice' };
      const acme = { scope: 'organization', value: 'acme' };
      const idsOf = (writes: StreamWrite[]) => writes.flatMap((write) => write.events.map((event) => event.metadata.eventId));

      it('appends to three streams in one call: results in the order of the writes, the events together and in order in $all', async () => {
        await store.appendToStream('org-1', [testEvent('OrganizationCreated')], { expectedVersion: 'no_stream' });
        await store.appendToStream('account-2', [testEvent('AccountCreated'), testEvent('AccountRenamed')], { expectedVersion: 'no_stream' });
        const writes: StreamWrite[] = [
          { streamId: 'org-1', events: [testEvent('OrganizationDeleted')], options: { expectedVersion: 0 } },
          { streamId: 'account-1', events: [testEvent('AccountCreated'), testEvent('AccountMoved')], options: { expectedVersion: 'no_stream' } },
          { streamId: 'account-2', events: [testEvent('AccountDeleted', { why: 'org' })], options: { expectedVersion: 'any' } },
        ];
        // Single appends race the call, issued before and after it: none of theirs may land between its events.
        const other = (i: number) =>
          store.appendToStream(`other-${i}`, [testEvent('Other', { i }), testEvent('Other', { i })], { expectedVersion: 'no_stream' });
        const before = Array.from({ length: 5 }, (_, i) => other(i));
        const multi = store.appendToStreams(writes);
        const after = Array.from({ length: 5 }, (_, i) => other(5 + i));
        const [results] = await Promise.all([multi, Promise.all([...before, ...after])]);

        expect(results.map((r) => r.nextExpectedVersion)).toEqual([1, 1, 2]);
        expect(results.map((r) => r.duplicate)).toEqual([false, false, false]);
        const log = await readEverything(store);
        expect(log).toHaveLength(3 + 4 + 20);
        expectStrictlyIncreasing(log.map((e) => e.position));
        const start = log.findIndex((e) => e.metadata.eventId === writes[0].events[0].metadata.eventId);
        const mine = log.slice(start, start + 4);
        expect(mine.map((e) => e.metadata.eventId)).toEqual(idsOf(writes));
        expect(mine.map((e) => [e.streamId, e.streamVersion, e.type])).toEqual([
          ['org-1', 1, 'OrganizationDeleted'],
          ['account-1', 0, 'AccountCreated'],
          ['account-1', 1, 'AccountMoved'],
          ['account-2', 2, 'AccountDeleted'],
        ]);
        expect(mine[3].data).toEqual({ why: 'org' });
        expect(mine[1].metadata).toEqual(writes[1].events[0].metadata);
        // each result is the position of its write's last event
        expect(results.map((r) => r.position)).toEqual([mine[0].position, mine[2].position, mine[3].position]);
        expect((await store.readStream('account-1')).map((e) => e.type)).toEqual(['AccountCreated', 'AccountMoved']);
        expect((await store.readStream('org-1')).map((e) => e.streamVersion)).toEqual([0, 1]);
      });

      it('a wrong expected version on the third stream appends nothing to the first two, and takes or releases nothing', async () => {
        await store.appendToStream('org-1', [testEvent('OrganizationCreated')], { expectedVersion: 'no_stream', reservations: [acme] });
        await store.appendToStream('account-3', [testEvent('AccountCreated'), testEvent('AccountLocked')], { expectedVersion: 'no_stream' });
        const head = await store.headPosition();
        const writes: StreamWrite[] = [
          { streamId: 'org-1', events: [testEvent('OrganizationDeleted')], options: { expectedVersion: 0, releases: [acme] } },
          { streamId: 'account-1', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [alice] } },
          { streamId: 'account-3', events: [testEvent('AccountDeleted')], options: { expectedVersion: 0 } },
        ];
        const attempt = store.appendToStreams(writes);
        await expect(attempt).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(attempt).rejects.toMatchObject({ streamId: 'account-3', expected: 0, actual: 1 });

        expect((await store.readStream('org-1')).map((e) => e.type)).toEqual(['OrganizationCreated']);
        expect(await store.readStream('account-1')).toEqual([]);
        expect((await store.readStream('account-3')).map((e) => e.type)).toEqual(['AccountCreated', 'AccountLocked']);
        expect(await store.headPosition()).toEqual(head);
        expect(await readEverything(store)).toHaveLength(3);
        // acme is still org-1's, alice still free
        await expect(
          store.appendToStream('org-2', [testEvent('OrganizationCreated')], { expectedVersion: 'no_stream', reservations: [acme] }),
        ).rejects.toBeInstanceOf(ReservationTakenError);
        // the same call with the right version goes through: the first two streams are where they were
        writes[2].options.expectedVersion = 1;
        const results = await store.appendToStreams(writes);
        expect(results.map((r) => r.nextExpectedVersion)).toEqual([1, 0, 2]);
        expect((await readEverything(store)).slice(3).map((e) => e.streamId)).toEqual(['org-1', 'account-1', 'account-3']);
      });

      it('a taken reservation on one write appends nothing anywhere and leaves the other writes\' values free', async () => {
        await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
        const head = await store.headPosition();
        const bob = { scope: 'username', value: 'bob' };
        const attempt = store.appendToStreams([
          { streamId: 'org-1', events: [testEvent('OrganizationCreated')], options: { expectedVersion: 'no_stream', reservations: [acme] } },
          { streamId: 'account-2', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [bob, alice] } },
        ]);
        await expect(attempt).rejects.toBeInstanceOf(ReservationTakenError);
        await expect(attempt).rejects.toMatchObject({ reservation: alice });

        expect(await store.readStream('org-1')).toEqual([]);
        expect(await store.readStream('account-2')).toEqual([]);
        expect(await store.headPosition()).toEqual(head);
        // acme and bob were given back with the failed call; both streams are still new
        await store.appendToStreams([
          { streamId: 'org-2', events: [testEvent('OrganizationCreated')], options: { expectedVersion: 'no_stream', reservations: [acme] } },
          { streamId: 'account-3', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [bob] } },
        ]);
        await store.appendToStream('org-1', [testEvent('OrganizationCreated')], { expectedVersion: 'no_stream' });
        expect((await readEverything(store)).map((e) => e.streamId)).toEqual(['account-1', 'org-2', 'account-3', 'org-1']);
      });

      it('one write takes a value another write of the same call releases, even when it comes first', async () => {
        await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
        const results = await store.appendToStreams([
          { streamId: 'account-2', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [alice] } },
          {
            streamId: 'account-1',
            events: [testEvent('UsernameChanged')],
            options: { expectedVersion: 0, releases: [alice], reservations: [{ scope: 'username', value: 'alice.old' }] },
          },
        ]);
        expect(results.map((r) => r.nextExpectedVersion)).toEqual([0, 1]);
        // alice is account-2's now: its owner may reserve it again, account-1 may not take it back
        await store.appendToStream('account-2', [testEvent('AccountTouched')], { expectedVersion: 0, reservations: [alice] });
        await expect(
          store.appendToStream('account-1', [testEvent('UsernameChanged')], { expectedVersion: 1, reservations: [alice] }),
        ).rejects.toBeInstanceOf(ReservationTakenError);
        // a release of a value the writing stream does not own frees nothing, in a call as alone
        await expect(
          store.appendToStreams([
            { streamId: 'account-3', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [alice] } },
            { streamId: 'account-1', events: [testEvent('UsernameChanged')], options: { expectedVersion: 1, releases: [alice] } },
          ]),
        ).rejects.toBeInstanceOf(ReservationTakenError);
      });

      it('two writes of one call cannot both take one value', async () => {
        const attempt = store.appendToStreams([
          { streamId: 'account-1', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [alice] } },
          { streamId: 'account-2', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [alice] } },
        ]);
        await expect(attempt).rejects.toBeInstanceOf(ReservationTakenError);
        expect(await readEverything(store)).toEqual([]);
      });

      it('single appends and a multi-stream append racing on one stream: exactly one wins, the loser appends nothing', async () => {
        // The multi-stream append is issued first in one round and among the single ones in the other.
        for (const [round, multiAt] of [[0, 0], [1, 5]] as const) {
          const org = `org-${round}`;
          const account = `account-${round}`;
          await store.appendToStream(org, [testEvent('OrganizationCreated')], { expectedVersion: 'no_stream' });
          const contenders: Array<Promise<unknown>> = Array.from({ length: 10 }, (_, i) =>
            store.appendToStream(org, [testEvent('OrganizationRenamed', { i })], { expectedVersion: 0 }),
          );
          contenders.splice(
            multiAt,
            0,
            store.appendToStreams([
              { streamId: account, events: [testEvent('AccountDeleted')], options: { expectedVersion: 'no_stream' } },
              { streamId: org, events: [testEvent('OrganizationDeleted')], options: { expectedVersion: 0 } },
            ]),
          );
          const results = await Promise.allSettled(contenders);
          expect(fulfilled(results), `round ${round}`).toHaveLength(1);
          for (const error of rejected(results)) {
            expect(error).toBeInstanceOf(WrongExpectedVersionError);
            expect(error).toMatchObject({ streamId: org, expected: 0, actual: 1 });
          }
          const multiWon = results[multiAt].status === 'fulfilled';
          const orgEvents = await store.readStream(org);
          expect(orgEvents.map((e) => e.streamVersion)).toEqual([0, 1]);
          expect(orgEvents[1].type).toBe(multiWon ? 'OrganizationDeleted' : 'OrganizationRenamed');
          expect(await store.readStream(account)).toHaveLength(multiWon ? 1 : 0);
        }
      });

      it('multi-stream appends over the same streams in opposite orders: one of 10 wins with versions, all 10 with `any`', async () => {
        const opposite = (i: number, expectedVersion: 'any' | 0): StreamWrite[] => {
          const writes: StreamWrite[] = ['a', 'b', 'c'].map((streamId) => ({
            streamId,
            events: [testEvent('Touched', { i })],
            options: { expectedVersion },
          }));
          return i % 2 === 0 ? writes : writes.reverse();
        };
        await store.appendToStreams(opposite(0, 'any'));
        const versioned = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.appendToStreams(opposite(i, 0))));
        expect(fulfilled(versioned)).toHaveLength(1);
        for (const error of rejected(versioned)) {
          expect(error).toBeInstanceOf(WrongExpectedVersionError);
          expect(error).toMatchObject({ expected: 0, actual: 1 });
        }
        // `any` never conflicts: every call lands whole, single appends in between
        await Promise.all([
          ...Array.from({ length: 10 }, (_, i) => store.appendToStreams(opposite(i, 'any'))),
          ...Array.from({ length: 10 }, (_, i) => store.appendToStream(['a', 'b', 'c'][i % 3], [testEvent('Single')], { expectedVersion: 'any' })),
        ]);
        const log = await readEverything(store);
        for (const streamId of ['a', 'b', 'c']) {
          const events = await store.readStream(streamId);
          expect(events.map((e) => e.streamVersion)).toEqual(Array.from({ length: events.length }, (_, v) => v));
        }
        expect(log).toHaveLength(3 + 3 + 30 + 10);
        // the three events of each call sit next to each other in $all
        const touched = log.filter((e) => e.type === 'Touched');
        for (let i = 0; i < touched.length; i += 3) {
          const index = log.indexOf(touched[i]);
          expect(log.slice(index, index + 3).map((e) => e.type)).toEqual(['Touched', 'Touched', 'Touched']);
          expect(new Set(log.slice(index, index + 3).map((e) => JSON.stringify(e.data))).size).toBe(1);
        }
      });

      it('a subscriber receives the whole multi-stream append in order, and never sees part of it alone', async () => {
        await store.appendToStream('before', [testEvent('Before')], { expectedVersion: 'no_stream' });
        const writes: StreamWrite[] = [
          { streamId: 'org-1', events: [testEvent('OrganizationDeleted'), testEvent('OrganizationArchived')], options: { expectedVersion: 'no_stream' } },
          { streamId: 'account-1', events: [testEvent('AccountDeleted')], options: { expectedVersion: 'no_stream' } },
          { streamId: 'account-2', events: [testEvent('AccountMoved'), testEvent('AccountLocked'), testEvent('AccountNoted')], options: { expectedVersion: 'no_stream' } },
        ];
        const ids = idsOf(writes);
        const received: StoredEvent[] = [];
        // how many of the call's events the log held each time the subscriber met one of them
        const visibleWhenMet: number[] = [];
        const subscription = store.subscribeToAll({
          from: START,
          batchSize: 2, // the call's six events arrive over several batches
          onEvents: async (events) => {
            received.push(...events);
            if (events.some((e) => ids.includes(e.metadata.eventId))) {
              visibleWhenMet.push((await readEverything(store)).filter((e) => ids.includes(e.metadata.eventId)).length);
            }
          },
        });
        await eventually(() => received.length >= 1, 'the first event');
        await Promise.all([
          store.appendToStreams(writes),
          store.appendToStream('during', [testEvent('During')], { expectedVersion: 'no_stream' }),
        ]);
        await store.appendToStream('after', [testEvent('After')], { expectedVersion: 'no_stream' });

        await eventually(() => received.length >= 9, 'all nine events');
        await sleep(150);
        await subscription.stop();
        expect(received.map((e) => e.position)).toEqual((await readEverything(store)).map((e) => e.position));
        const start = received.findIndex((e) => e.metadata.eventId === ids[0]);
        expect(received.slice(start, start + 6).map((e) => e.metadata.eventId)).toEqual(ids);
        expect(visibleWhenMet.length).toBeGreaterThanOrEqual(3);
        expect(visibleWhenMet.every((count) => count === 6)).toBe(true);
      });

      it('refuses an empty list, a stream named twice, a write without events and an idempotency key; appends nothing', async () => {
        const write = (streamId: string, idempotencyKey?: string): StreamWrite => ({
          streamId,
          events: [testEvent('E')],
          options: { expectedVersion: 'any', idempotencyKey },
        });
        const refused: Array<[StreamWrite[], RegExp]> = [
          [[], /at least one write/],
          [[write('a'), write('b'), write('a')], /a appears more than once/],
          [[write('a'), { streamId: 'b', events: [], options: { expectedVersion: 'any' } }], /b carries no events/],
          [[write('a'), write('b', 'key-1')], /idempotency/],
        ];
        for (const [writes, message] of refused) {
          const attempt = store.appendToStreams(writes);
          await expect(attempt).rejects.toThrow(message);
          await expect(attempt).rejects.not.toBeInstanceOf(WrongExpectedVersionError);
          await expect(attempt).rejects.not.toBeInstanceOf(EventStoreUnavailableError);
        }
        expect(await readEverything(store)).toEqual([]);
        // the key was not used up either
        expect(await store.appendToStream('a', [testEvent('E')], { expectedVersion: 'any', idempotencyKey: 'key-1' })).toMatchObject({
          duplicate: false,
        });
      });
    });

    // Appends issued in one turn of the event loop: an adapter that group-commits (SQLite, PostgreSQL)
    // writes them in one transaction, and one append's failure must still be its own.
    describe('appends issued together', () => {
      const eventIdsOf = (events: NewEvent[]) => events.map((event) => event.metadata.eventId);

      it('one wrong expected version fails that append alone; the others, one on the same stream, commit', async () => {
        await store.appendToStream('contested', [testEvent('Created')], { expectedVersion: 'no_stream' });
        const head = await store.headPosition();
        const before = [testEvent('Before')];
        const stale = [testEvent('Stale')];
        const multi = [testEvent('MultiA'), testEvent('MultiB')];
        const staleMulti = [testEvent('StaleMultiA')];
        const right = [testEvent('Right'), testEvent('RightAgain')];
        const after = [testEvent('After')];
        const results = await Promise.allSettled<unknown>([
          store.appendToStream('before', before, { expectedVersion: 'no_stream' }),
          store.appendToStream('contested', stale, { expectedVersion: 5, reservations: [{ scope: 'username', value: 'stale' }] }),
          store.appendToStreams([
            { streamId: 'multi-1', events: [multi[0]], options: { expectedVersion: 'no_stream' } },
            { streamId: 'multi-2', events: [multi[1]], options: { expectedVersion: 'any' } },
          ]),
          store.appendToStreams([
            { streamId: 'stale-multi', events: staleMulti, options: { expectedVersion: 'no_stream' } },
            { streamId: 'before', events: [testEvent('StaleMultiB')], options: { expectedVersion: 3 } },
          ]),
          store.appendToStream('contested', right, { expectedVersion: 0 }),
          store.appendToStream('after', after, { expectedVersion: 'no_stream' }),
        ]);

        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        const [, staleError, , staleMultiError] = results.map((r) => (r.status === 'rejected' ? (r.reason as unknown) : null));
        expect(staleError).toBeInstanceOf(WrongExpectedVersionError);
        expect(staleError).toMatchObject({ streamId: 'contested', expected: 5 });
        // a group commit judges the appends in order (the stream is at 0 then); an adapter that appends
        // them one by one (KurrentDB) may judge it after the right append landed (then at 2)
        expect([0, 2]).toContain((staleError as WrongExpectedVersionError).actual);
        expect(staleMultiError).toBeInstanceOf(WrongExpectedVersionError);
        expect(staleMultiError).toMatchObject({ streamId: 'before', expected: 3 });

        // exactly the events of the appends that succeeded, each result the position of its own last event
        const log = (await readEverything(store)).filter((e) => comparePositions(e.position, head) > 0);
        const landed = [before, multi, right, after].flatMap(eventIdsOf);
        expect(log.map((e) => e.metadata.eventId).sort()).toEqual([...landed].sort());
        expectStrictlyIncreasing(log.map((e) => e.position));
        const positionOf = (eventId: string) => log.find((e) => e.metadata.eventId === eventId)?.position;
        const value = <T>(index: number) => (results[index] as PromiseFulfilledResult<T>).value;
        expect(value<AppendResult>(0)).toEqual({ nextExpectedVersion: 0, position: positionOf(before[0].metadata.eventId), duplicate: false });
        expect(value<AppendResult[]>(2).map((r) => r.position)).toEqual(multi.map((e) => positionOf(e.metadata.eventId)));
        expect(value<AppendResult>(4)).toEqual({ nextExpectedVersion: 2, position: positionOf(right[1].metadata.eventId), duplicate: false });
        expect(value<AppendResult>(5).position).toEqual(positionOf(after[0].metadata.eventId));
        expect((await store.readStream('contested')).map((e) => e.type)).toEqual(['Created', 'Right', 'RightAgain']);
        expect(await store.readStream('stale-multi')).toEqual([]);
        // the failed appends took nothing: their value is free, their new stream still new
        await store.appendToStream('other', [testEvent('Other')], { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'stale' }] });
        await store.appendToStream('stale-multi', [testEvent('Again')], { expectedVersion: 'no_stream' });
      });

      it('one taken reservation fails that append alone; a value it would have taken goes to a later append of the group', async () => {
        const alice = { scope: 'username', value: 'alice' };
        const bob = { scope: 'username', value: 'bob' };
        await store.appendToStream('account-1', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [alice] });
        const results = await Promise.allSettled<unknown>([
          store.appendToStream('account-2', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [bob, alice] }),
          store.appendToStream('account-3', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'carol' }] }),
          store.appendToStream('account-4', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [bob] }),
          store.appendToStreams([
            { streamId: 'org-1', events: [testEvent('OrganizationCreated')], options: { expectedVersion: 'no_stream', reservations: [{ scope: 'organization', value: 'acme' }] } },
            { streamId: 'account-5', events: [testEvent('AccountCreated')], options: { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'dave' }] } },
          ]),
        ]);

        expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
        const [refused] = rejected(results);
        expect(refused).toBeInstanceOf(ReservationTakenError);
        expect((refused as ReservationTakenError).reservation).toEqual(alice);
        expect(await store.readStream('account-2')).toEqual([]);
        expect((await readEverything(store)).map((e) => e.streamId).sort()).toEqual(['account-1', 'account-3', 'account-4', 'account-5', 'org-1']);

        // bob is account-4's, alice still account-1's, the refused append's stream still new
        for (const value of [alice, bob]) {
          await expect(
            store.appendToStream('account-6', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [value] }),
          ).rejects.toBeInstanceOf(ReservationTakenError);
        }
        await store.appendToStream('account-4', [testEvent('AccountTouched')], { expectedVersion: 0, reservations: [bob] });
        await store.appendToStream('account-2', [testEvent('AccountCreated')], { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'erin' }] });
      });

      it('200 appends to 200 streams at once: all land, each caller gets the position of its own last event, increasing in $all', async () => {
        const appends = Array.from({ length: 200 }, (_, i) => ({
          streamId: `crowd-${i}`,
          events: Array.from({ length: 1 + (i % 3) }, (_, j) => testEvent('Crowded', { i, j })),
        }));
        const results = await Promise.all(appends.map(({ streamId, events }) => store.appendToStream(streamId, events, { expectedVersion: 'no_stream' })));

        const log = await readEverything(store);
        expect(log).toHaveLength(appends.reduce((sum, { events }) => sum + events.length, 0));
        expectStrictlyIncreasing(log.map((e) => e.position));
        appends.forEach(({ streamId, events }, i) => {
          const last = log.find((e) => e.metadata.eventId === events[events.length - 1].metadata.eventId);
          expect(results[i], streamId).toEqual({ nextExpectedVersion: events.length - 1, position: last?.position, duplicate: false });
          // an append's own events sit together and in order
          const first = log.findIndex((e) => e.metadata.eventId === events[0].metadata.eventId);
          expect(log.slice(first, first + events.length).map((e) => e.metadata.eventId), streamId).toEqual(eventIdsOf(events));
        });
        expect(new Set(results.map((r) => formatPosition(r.position))).size).toBe(200);
        expect(await store.headPosition()).toEqual(log[log.length - 1].position);
      });
    });

    describe('idempotency', () => {
      it('a repeated key appends nothing and returns the first result, marked duplicate', async () => {
        const first = await store.appendToStream('reader-1', [testEvent('ArrivalRecorded')], {
          expectedVersion: 'no_stream',
          idempotencyKey: 'reader-1:1',
        });
        expect(first.duplicate).toBe(false);
        // Even with an expectation that would now fail: the retry gets its first answer.
        const second = await store.appendToStream('reader-1', [testEvent('ArrivalRecorded')], {
          expectedVersion: 'no_stream',
          idempotencyKey: 'reader-1:1',
        });
        expect(second).toEqual({ ...first, duplicate: true });
        expect(await store.readStream('reader-1')).toHaveLength(1);
      });

      it('the same key sent 10 times in parallel appends once; all get the same result', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.appendToStream('reader-2', [testEvent('ArrivalRecorded'), testEvent('DoorOpened')], {
              expectedVersion: 'any',
              idempotencyKey: 'reader-2:42',
            }),
          ),
        );
        expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
        const original = results.find((r) => !r.duplicate);
        for (const result of results) expect({ ...result, duplicate: false }).toEqual(original);
        expect(await store.readStream('reader-2')).toHaveLength(2);
        expect(await readEverything(store)).toHaveLength(2);
      });

      it('a failed append does not use up its key', async () => {
        await store.appendToStream('reader-3', [testEvent('Registered')], { expectedVersion: 'no_stream' });
        await expect(
          store.appendToStream('reader-3', [testEvent('ArrivalRecorded')], { expectedVersion: 'no_stream', idempotencyKey: 'k' }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        const retry = await store.appendToStream('reader-3', [testEvent('ArrivalRecorded')], { expectedVersion: 0, idempotencyKey: 'k' });
        expect(retry).toMatchObject({ nextExpectedVersion: 1, duplicate: false });
      });
    });

    describe('close', () => {
      it('stops subscriptions and refuses further work with EventStoreUnavailableError', async () => {
        await store.appendToStream('s', [testEvent('A')], { expectedVersion: 'no_stream' });
        let delivered = 0;
        const subscription = store.subscribeToAll({ from: START, onEvents: (events) => void (delivered += events.length) });
        await eventually(() => delivered === 1, 'the first event');
        await store.close();
        await subscription.done; // ended by close, not by an error
        await store.close(); // closing twice is harmless
        await expect(store.appendToStream('s', [testEvent('B')], { expectedVersion: 'any' })).rejects.toBeInstanceOf(
          EventStoreUnavailableError,
        );
        await expect(
          store.appendToStreams([{ streamId: 's', events: [testEvent('B')], options: { expectedVersion: 'any' } }]),
        ).rejects.toBeInstanceOf(EventStoreUnavailableError);
        await expect(store.readAll(START, 10)).rejects.toBeInstanceOf(EventStoreUnavailableError);
      });
    });
  });
}
