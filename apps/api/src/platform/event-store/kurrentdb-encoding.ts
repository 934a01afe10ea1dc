import { createHash, randomUUID } from 'node:crypto';
import {
  type AllStreamRecordedEvent,
  type EventData,
  jsonEvent,
  type JSONType,
  type Position as KurrentPosition,
  type ReadPosition,
  START as KURRENT_START,
} from '@kurrent/kurrentdb-client';
import { type EventMetadata, type NewEvent, type Position, type Reservation, type StoredEvent } from './event-store.port';

/**
 * The pure half of the KurrentDB adapter: stream names, positions and the event encoding
 * (docs/adr/0016-kurrentdb-adapter.md). Nothing here talks to the server, so it is unit tested alone.
 */

/** Streams the adapter keeps for itself (reservations, idempotency keys) start with this, after the prefix. */
export const INTERNAL_MARK = 'rollcall:';

/** Event metadata properties. Multi-stream append takes metadata only as a flat object of strings. */
export const METADATA_PROPERTY = 'rollcall.metadata';
export const SCHEMA_VERSION_PROPERTY = 'rollcall.schema-version';

export const RESERVATION_TAKEN = 'ReservationTaken';
export const RESERVATION_RELEASED = 'ReservationReleased';
export const IDEMPOTENCY_KEY_USED = 'IdempotencyKeyUsed';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Maps our stream ids to KurrentDB stream names and back. The prefix puts one store's streams apart
 * from another's on a shared server (tests use one per store, as the PostgreSQL tests use a schema).
 */
export class KurrentDbStreamNames {
  /** .NET regular expression for the server-side `$all` filter: our own streams, no system, no internal ones */
  readonly allFilterRegex: string;
  private readonly userStream: RegExp;

  constructor(readonly prefix = '') {
    // A plain prefix keeps the filter's regular expression trivial to get right.
    if (!/^[A-Za-z0-9_.-]*$/.test(prefix)) {
      throw new Error(`invalid KurrentDB stream prefix '${prefix}' (letters, digits, '_', '.' and '-')`);
    }
    const escaped = prefix.replace(/[.]/g, '\\.');
    this.allFilterRegex = `^(?!\\$)${escaped}(?!${INTERNAL_MARK})`;
    // eslint-disable-next-line security/detect-non-literal-regexp -- built from the prefix checked above (letters, digits, '_', '.', '-'), dots escaped
    this.userStream = new RegExp(this.allFilterRegex);
  }

  /** The server's name of one of our streams. Refuses ids the adapter could not tell from its own or the server's streams. */
  stream(streamId: string): string {
    if (streamId.length === 0 || streamId.startsWith('$') || streamId.startsWith(INTERNAL_MARK)) {
      throw new Error(`stream id '${streamId}' cannot be stored in KurrentDB: empty, or starts with '$' or '${INTERNAL_MARK}'`);
    }
    return this.prefix + streamId;
  }

  /** Our stream id for a server stream name, or null for system, internal and other prefixes' streams. */
  streamIdOf(streamName: string): string | null {
    return this.userStream.test(streamName) ? streamName.slice(this.prefix.length) : null;
  }

  /**
   * One stream per reserved value. The value is hashed: it may be an e-mail address (kept out of stream
   * names, which show up in the server's UI and logs) and of any length. The scope is kept readable.
   */
  reservation({ scope, value }: Reservation): string {
    return `${this.prefix}${INTERNAL_MARK}reservation:${encodeURIComponent(scope)}:${sha256(value)}`;
  }

  /** One stream per used idempotency key; its first event records which append the key named. */
  idempotency(key: string): string {
    return `${this.prefix}${INTERNAL_MARK}idempotency:${sha256(key)}`;
  }
}

/** KurrentDB's (commit, prepare) log positions as ours: commit orders transactions, prepare the events inside. */
export function toPosition(position: KurrentPosition): Position {
  return { commit: toSafeNumber(position.commit, 'commit'), sequence: toSafeNumber(position.prepare, 'prepare') };
}

/** Where to start reading `$all` to get the events after `position`: START stays the server's START. */
export function toReadPosition(position: Position): ReadPosition {
  if (position.commit === 0 && position.sequence === 0) return KURRENT_START;
  return { commit: BigInt(position.commit), prepare: BigInt(position.sequence) };
}

function toSafeNumber(value: bigint, what: string): number {
  const number = Number(value);
  // Log positions are byte offsets in the transaction file: 2^53 bytes is 9 PiB, far past any deployment.
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`KurrentDB ${what} position ${value} does not fit a number`);
  return number;
}

/**
 * Our event as KurrentDB event data. The payload is the JSON of `data` (null included); metadata and
 * schema version travel as two string properties, because multi-stream append refuses any metadata
 * that is not a flat object of strings (our metadata holds nulls). The server's event id is a fresh
 * UUID: `metadata.eventId` need not be one.
 */
export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: randomUUID(),
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: {
      [METADATA_PROPERTY]: JSON.stringify(event.metadata),
      [SCHEMA_VERSION_PROPERTY]: String(event.schemaVersion ?? 1),
    },
  });
}

/** A recorded event, as the client hands it out from reads of a stream or of `$all`. */
export type RecordedEventLike = Pick<AllStreamRecordedEvent, 'type' | 'revision' | 'isJson' | 'data' | 'metadata'> & {
  position?: KurrentPosition;
};

/** Back to our shape; `streamId` is ours (without the prefix). */
export function toStoredEvent(recorded: RecordedEventLike, streamId: string): StoredEvent {
  if (!recorded.position) throw new Error(`KurrentDB returned event ${streamId}@${recorded.revision} without a position (server older than 22.6?)`);
  const properties = metadataProperties(recorded.metadata);
  const metadata = properties[METADATA_PROPERTY];
  if (typeof metadata !== 'string') throw new Error(`event ${streamId}@${recorded.revision} carries no ${METADATA_PROPERTY} metadata: not written by Rollcall`);
  const schemaVersion = Number(properties[SCHEMA_VERSION_PROPERTY] ?? 1);
  return {
    streamId,
    streamVersion: toSafeNumber(recorded.revision, 'revision'),
    position: toPosition(recorded.position),
    type: recorded.type,
    data: recorded.isJson ? (recorded.data ?? null) : parseBytes(recorded.data as Uint8Array),
    metadata: JSON.parse(metadata) as EventMetadata,
    schemaVersion: Number.isInteger(schemaVersion) && schemaVersion > 0 ? schemaVersion : 1,
  };
}

/**
 * The client parses metadata as JSON when it can and hands out the bytes otherwise. Events written by
 * multi-stream append come back with the server's own `$schema.*` properties next to ours.
 */
function metadataProperties(metadata: unknown): Record<string, unknown> {
  const parsed = metadata instanceof Uint8Array ? parseBytes(metadata) : metadata;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function parseBytes(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes).toString('utf8');
  return text.length === 0 ? null : JSON.parse(text);
}

/**
 * The last event of a reservation stream says who owns the value now (`owner` null: free). The value
 * itself is not stored: events cannot be deleted, and a released e-mail address must not stay in the
 * log in clear (the stream name holds only its hash).
 */
export interface ReservationEventData {
  scope: string;
  owner: string | null;
}

export function reservationEvent(reservation: Reservation, owner: string | null): EventData {
  const data: ReservationEventData = { scope: reservation.scope, owner };
  return jsonEvent({ type: owner === null ? RESERVATION_RELEASED : RESERVATION_TAKEN, data: { ...data } });
}

export function reservationOwner(recorded: Pick<RecordedEventLike, 'type' | 'data'>): string | null {
  if (recorded.type === RESERVATION_RELEASED) return null;
  const owner = (recorded.data as Partial<ReservationEventData> | null)?.owner;
  if (recorded.type !== RESERVATION_TAKEN || typeof owner !== 'string') throw new Error(`unexpected ${recorded.type} in a reservation stream`);
  return owner;
}

/**
 * What an idempotency key stands for: the stream and the version its append ended at. The result
 * (version and position) is read back from that event, so the first caller and every repeat compute
 * it the same way.
 */
export interface IdempotencyMarker {
  key: string;
  streamId: string;
  lastVersion: number;
}

export function idempotencyEvent(marker: IdempotencyMarker): EventData {
  return jsonEvent({ type: IDEMPOTENCY_KEY_USED, data: { ...marker } });
}

export function idempotencyMarker(recorded: Pick<RecordedEventLike, 'type' | 'data'>): IdempotencyMarker {
  const data = recorded.data as Partial<IdempotencyMarker> | null;
  if (recorded.type !== IDEMPOTENCY_KEY_USED || typeof data?.streamId !== 'string' || typeof data.lastVersion !== 'number') {
    throw new Error(`unexpected ${recorded.type} in an idempotency stream`);
  }
  return { key: String(data.key), streamId: data.streamId, lastVersion: data.lastVersion };
}
