import { START as KURRENT_START } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { comparePositions, type NewEvent } from './event-store.port';
import {
  idempotencyEvent,
  idempotencyMarker,
  KurrentDbStreamNames,
  METADATA_PROPERTY,
  type RecordedEventLike,
  reservationEvent,
  reservationOwner,
  SCHEMA_VERSION_PROPERTY,
  toEventData,
  toPosition,
  toReadPosition,
  toStoredEvent,
} from './kurrentdb-encoding';

const metadata = {
  eventId: 'not-a-uuid-1',
  actor: 'reader-7',
  actorKind: 'reader' as const,
  sourceIp: null,
  correlationId: 'c-1',
  causationId: null,
  occurredAt: '2026-11-25T06:00:00.000Z',
  deviceTime: '2026-11-25T05:59:58.000Z',
};

/** What the client hands back for an event written by multi-stream append: the server adds `$schema.*`. */
function recorded(event: NewEvent, overrides: Partial<RecordedEventLike> = {}): RecordedEventLike {
  const data = toEventData(event);
  return {
    type: data.type,
    revision: 4n,
    isJson: true,
    data: JSON.parse(JSON.stringify(data.data)) as RecordedEventLike['data'],
    metadata: { '$schema.format': 'Json', '$schema.name': data.type, ...(data.metadata as Record<string, string>) },
    position: { commit: 1_000n, prepare: 1_180n },
    ...overrides,
  };
}

describe('positions', () => {
  it('maps commit and prepare to commit and sequence, keeping the order of the log', () => {
    const first = toPosition({ commit: 1_000n, prepare: 1_000n });
    const second = toPosition({ commit: 1_000n, prepare: 1_180n });
    const nextTransaction = toPosition({ commit: 1_400n, prepare: 1_400n });
    expect(second).toEqual({ commit: 1_000, sequence: 1_180 });
    expect(comparePositions(first, second)).toBe(-1);
    expect(comparePositions(second, nextTransaction)).toBe(-1);
  });

  it('turns a position back into a read position, and START into the server start', () => {
    expect(toReadPosition({ commit: 1_000, sequence: 1_180 })).toEqual({ commit: 1_000n, prepare: 1_180n });
    expect(toReadPosition({ commit: 0, sequence: 0 })).toBe(KURRENT_START);
  });

  it('refuses a position that does not fit a number instead of rounding it', () => {
    expect(() => toPosition({ commit: 2n ** 53n + 1n, prepare: 0n })).toThrow(/commit position .* does not fit/);
    expect(() => toPosition({ commit: 0n, prepare: -1n })).toThrow(/prepare position/);
  });
});

describe('stream names', () => {
  const names = new KurrentDbStreamNames();
  const prefixed = new KurrentDbStreamNames('t42-run.1_');

  it('keeps our stream ids, behind the prefix, and maps them back', () => {
    expect(names.stream('account-1')).toBe('account-1');
    expect(prefixed.stream('account-1')).toBe('t42-run.1_account-1');
    expect(prefixed.streamIdOf('t42-run.1_account-1')).toBe('account-1');
    expect(names.streamIdOf('account-1')).toBe('account-1');
  });

  it("hides system streams, the adapter's own streams and other prefixes from $all", () => {
    for (const hidden of ['$all', '$$account-1', '$ce-account', '$et-ReservationTaken', names.reservation({ scope: 'username', value: 'alice' }), names.idempotency('reader-1:1')]) {
      expect(names.streamIdOf(hidden), hidden).toBeNull();
      expect(new RegExp(names.allFilterRegex).test(hidden), hidden).toBe(false);
    }
    for (const hidden of ['account-1', 't42-run.1', 't42-runX1_account-1', prefixed.reservation({ scope: 'u', value: 'x' }), prefixed.idempotency('k')]) {
      expect(prefixed.streamIdOf(hidden), hidden).toBeNull();
    }
    // the '.' of the prefix is a dot, not "any character", in the server's regular expression too
    expect(prefixed.allFilterRegex).toBe('^(?!\\$)t42-run\\.1_(?!rollcall:)');
  });

  it('refuses stream ids it could not tell from system or internal streams, and prefixes that need escaping', () => {
    expect(() => names.stream('$ce-account')).toThrow(/starts with '\$'/);
    expect(() => names.stream('rollcall:reservation:x')).toThrow(/rollcall:/);
    expect(() => names.stream('')).toThrow(/empty/);
    expect(() => new KurrentDbStreamNames('a(b')).toThrow(/invalid KurrentDB stream prefix/);
  });

  it('names one reservation stream per scope and value, hashing the value and keeping the scope apart', () => {
    const alice = names.reservation({ scope: 'username', value: 'alice' });
    expect(alice).toMatch(/^rollcall:reservation:username:[0-9a-f]{64}$/);
    expect(names.reservation({ scope: 'username', value: 'alice' })).toBe(alice);
    expect(names.reservation({ scope: 'username', value: 'Alice' })).not.toBe(alice);
    expect(names.reservation({ scope: 'email', value: 'alice' })).not.toBe(alice);
    // no scope/value split can produce another pair's name
    expect(names.reservation({ scope: 'a:b', value: 'c' })).not.toBe(names.reservation({ scope: 'a', value: 'b:c' }));
    expect(names.reservation({ scope: 'a:b', value: 'c' })).toMatch(/^rollcall:reservation:a%3Ab:/);
    expect(names.reservation({ scope: 'card', value: 'x'.repeat(10_000) }).length).toBeLessThan(100);
    expect(prefixed.reservation({ scope: 'username', value: 'alice' })).toBe(`t42-run.1_${alice}`);
  });

  it('names one idempotency stream per key', () => {
    const key = names.idempotency('reader-1:42');
    expect(key).toMatch(/^rollcall:idempotency:[0-9a-f]{64}$/);
    expect(names.idempotency('reader-1:42')).toBe(key);
    expect(names.idempotency('reader-1:43')).not.toBe(key);
    expect(names.idempotency('reader-1:42')).not.toBe(names.reservation({ scope: 'reader-1', value: '42' }));
  });
});

describe('events', () => {
  it('encodes metadata as flat string properties, as multi-stream append requires, with a fresh UUID as event id', () => {
    const data = toEventData({ type: 'ArrivalRecorded', data: { card: '04A1' }, metadata, schemaVersion: 2 });
    expect(data.contentType).toBe('application/json');
    expect(data.type).toBe('ArrivalRecorded');
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(toEventData({ type: 'A', data: null, metadata }).id).not.toBe(data.id);
    expect(data.metadata).toEqual({ [METADATA_PROPERTY]: JSON.stringify(metadata), [SCHEMA_VERSION_PROPERTY]: '2' });
    expect(Object.values(data.metadata as object).every((value) => typeof value === 'string')).toBe(true);
  });

  it('round-trips type, data, metadata (nulls and optional fields) and schema version; the version defaults to 1', () => {
    const event: NewEvent = { type: 'AccountCreated', data: { username: 'alice', tags: ['a'], nested: { n: 1.5, none: null } }, metadata };
    const stored = toStoredEvent(recorded(event), 'account-1');
    expect(stored).toEqual({
      streamId: 'account-1',
      streamVersion: 4,
      position: { commit: 1_000, sequence: 1_180 },
      type: 'AccountCreated',
      data: event.data,
      metadata,
      schemaVersion: 1,
    });
    const withoutDeviceTime = { ...metadata, deviceTime: undefined };
    delete withoutDeviceTime.deviceTime;
    expect(toStoredEvent(recorded({ ...event, metadata: withoutDeviceTime, schemaVersion: 3 }), 'a').metadata).toEqual(withoutDeviceTime);
    expect(toStoredEvent(recorded({ ...event, schemaVersion: 3 }), 'a').schemaVersion).toBe(3);
  });

  it('round-trips null and scalar payloads', () => {
    for (const data of [null, 'text', 42, true, []]) {
      expect(toStoredEvent(recorded({ type: 'E', data, metadata }), 's').data).toEqual(data);
    }
    expect(toStoredEvent(recorded({ type: 'E', data: undefined, metadata }), 's').data).toBeNull();
  });

  it('reads metadata and data the client handed out as bytes', () => {
    const event: NewEvent = { type: 'E', data: { a: 1 }, metadata, schemaVersion: 2 };
    const asBytes = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value), 'utf8'));
    const written = toEventData(event);
    const stored = toStoredEvent(recorded(event, { isJson: false, data: asBytes(event.data), metadata: asBytes(written.metadata) }), 's');
    expect(stored.data).toEqual({ a: 1 });
    expect(stored.metadata).toEqual(metadata);
    expect(stored.schemaVersion).toBe(2);
  });

  it('refuses an event without our metadata or without a position', () => {
    const event: NewEvent = { type: 'E', data: {}, metadata };
    expect(() => toStoredEvent(recorded(event, { metadata: { '$schema.name': 'E' } }), 's')).toThrow(/not written by Rollcall/);
    expect(() => toStoredEvent(recorded(event, { position: undefined }), 's')).toThrow(/without a position/);
  });
});

describe('reservation and idempotency records', () => {
  const alice = { scope: 'username', value: 'alice' };

  it('a reservation stream says who owns the value: the owner taking it, nobody after a release', () => {
    const taken = reservationEvent(alice, 'account-1');
    expect(taken.type).toBe('ReservationTaken');
    // the value is only hashed into the stream name, never stored in clear
    expect(taken.data).toEqual({ scope: 'username', owner: 'account-1' });
    expect(reservationOwner(taken)).toBe('account-1');
    const released = reservationEvent(alice, null);
    expect(released.type).toBe('ReservationReleased');
    expect(released.data).toEqual({ scope: 'username', owner: null });
    expect(reservationOwner(released)).toBeNull();
    expect(() => reservationOwner({ type: 'Other', data: {} })).toThrow(/unexpected Other/);
  });

  it('an idempotency stream records the stream and the version its append ended at', () => {
    const event = idempotencyEvent({ key: 'reader-1:1', streamId: 'reader-1', lastVersion: 6 });
    expect(event.type).toBe('IdempotencyKeyUsed');
    expect(idempotencyMarker(event)).toEqual({ key: 'reader-1:1', streamId: 'reader-1', lastVersion: 6 });
    expect(() => idempotencyMarker({ type: 'IdempotencyKeyUsed', data: { streamId: 'x' } })).toThrow(/unexpected/);
  });
});
