import { describe, expect, it } from 'vitest';
import { type AppendOptions, ReservationTakenError, WrongExpectedVersionError } from './event-store.port';
import { type GroupAppend, planGroup, reservationKey, type StoredState } from './postgres-append-group';

const write = (streamId: string, events: number, options: AppendOptions) => ({
  streamId,
  events: Array.from({ length: events }, (_, i) => ({ type: `E${i}`, data: 'null', metadata: '{}', schemaVersion: 1 })),
  options,
});
const single = (streamId: string, events: number, options: AppendOptions): GroupAppend => ({
  writes: [write(streamId, events, options)],
  idempotencyKey: options.idempotencyKey,
});
const nothingStored: StoredState = { versions: new Map(), owners: new Map(), storedResults: new Map() };
const alice = { scope: 'username', value: 'alice' };

describe('planGroup: the appends of a group judged in order, as if one by one', () => {
  it('chains appends to one stream: each sees the versions the earlier ones left, a stale one fails alone', () => {
    const plan = planGroup(
      [
        single('s', 2, { expectedVersion: 3 }),
        single('s', 1, { expectedVersion: 'any' }),
        single('s', 1, { expectedVersion: 3 }),
        single('s', 1, { expectedVersion: 6 }),
        single('t', 1, { expectedVersion: 'no_stream' }),
      ],
      { ...nothingStored, versions: new Map([['s', 3]]) },
    );
    expect(plan.verdicts).toEqual([
      { kind: 'appended', firstVersions: [4] },
      { kind: 'appended', firstVersions: [6] },
      { kind: 'rejected', error: new WrongExpectedVersionError('s', 3, 6) },
      { kind: 'appended', firstVersions: [7] },
      { kind: 'appended', firstVersions: [0] },
    ]);
    // in the order of the appends: the order the INSERT gives them their positions
    expect(plan.events.map(({ streamId, version, event }) => `${streamId}@${version}:${event.type}`)).toEqual(['s@4:E0', 's@5:E1', 's@6:E0', 's@7:E0', 't@0:E0']);
    expect(plan.movedStreams).toEqual([{ streamId: 's', version: 7 }]);
    expect(plan.newStreams).toEqual([{ streamId: 't', version: 0 }]);
  });

  it('a multi-stream append fails whole on its second stream and leaves nothing of its first', () => {
    const plan = planGroup(
      [
        { writes: [write('a', 1, { expectedVersion: 'no_stream', reservations: [alice] }), write('b', 1, { expectedVersion: 0 })] },
        single('a', 1, { expectedVersion: 'no_stream' }),
      ],
      nothingStored,
    );
    expect(plan.verdicts[0]).toEqual({ kind: 'rejected', error: new WrongExpectedVersionError('b', 0, 'no_stream') });
    expect(plan.verdicts[1]).toEqual({ kind: 'appended', firstVersions: [0] });
    expect(plan.newStreams).toEqual([{ streamId: 'a', version: 0 }]);
    expect(plan.taken).toEqual([]);
  });

  it('a value given up by one append is taken by a later one: one hand-over; a taken value fails its append alone', () => {
    const plan = planGroup(
      [
        single('account-2', 1, { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'bob' }, alice] }),
        single('account-1', 1, { expectedVersion: 0, releases: [alice], reservations: [{ scope: 'username', value: 'alice.old' }] }),
        single('account-3', 1, { expectedVersion: 'no_stream', reservations: [alice] }),
        single('account-4', 1, { expectedVersion: 'no_stream', reservations: [{ scope: 'username', value: 'bob' }] }),
      ],
      { ...nothingStored, versions: new Map([['account-1', 0]]), owners: new Map([[reservationKey(alice), 'account-1']]) },
    );
    expect(plan.verdicts.map((v) => v.kind)).toEqual(['rejected', 'appended', 'appended', 'appended']);
    expect(plan.verdicts[0]).toEqual({ kind: 'rejected', error: new ReservationTakenError(alice) });
    expect(plan.handedOver).toEqual([{ ...alice, streamId: 'account-3', previousOwner: 'account-1' }]);
    expect(plan.freed).toEqual([]);
    expect(plan.taken).toEqual([
      { scope: 'username', value: 'alice.old', streamId: 'account-1' },
      { scope: 'username', value: 'bob', streamId: 'account-4' },
    ]);
  });

  it('a release by its owner frees the value; a release by another stream changes nothing', () => {
    const plan = planGroup(
      [single('account-2', 1, { expectedVersion: 'any', releases: [alice] }), single('account-1', 1, { expectedVersion: 'any', releases: [alice] })],
      { ...nothingStored, owners: new Map([[reservationKey(alice), 'account-1']]) },
    );
    expect(plan.freed).toEqual([{ ...alice, streamId: 'account-1' }]);
    expect(plan.handedOver).toEqual([]);
  });

  it('keys: a stored result answers at once, a key repeated in the group answers the first result, a failed first leaves the key to the next', () => {
    const stored = { nextExpectedVersion: 0, position: { commit: 7, sequence: 9 } };
    const plan = planGroup(
      [
        single('r-1', 1, { expectedVersion: 'no_stream', idempotencyKey: 'done' }),
        single('r-2', 1, { expectedVersion: 4, idempotencyKey: 'k' }),
        single('r-2', 1, { expectedVersion: 'no_stream', idempotencyKey: 'k' }),
        single('r-2', 1, { expectedVersion: 'no_stream', idempotencyKey: 'k' }),
        single('r-3', 1, { expectedVersion: 2, idempotencyKey: 'lost' }),
      ],
      { ...nothingStored, storedResults: new Map([['done', stored]]) },
    );
    expect(plan.verdicts).toEqual([
      { kind: 'duplicate', result: stored },
      { kind: 'rejected', error: new WrongExpectedVersionError('r-2', 4, 'no_stream') },
      { kind: 'appended', firstVersions: [0] },
      { kind: 'duplicate-in-group', of: 2 },
      { kind: 'rejected', error: new WrongExpectedVersionError('r-3', 2, 'no_stream') },
    ]);
    expect(plan.keysToStore).toEqual([{ key: 'k', streamId: 'r-2', version: 0 }]);
    expect(plan.keysToDrop).toEqual(['lost']);
    expect(plan.events).toHaveLength(1);
  });
});
