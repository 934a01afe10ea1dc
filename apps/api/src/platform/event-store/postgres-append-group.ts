import {
  type AppendOptions,
  type AppendResult,
  type NewEvent,
  type Reservation,
  ReservationTakenError,
  WrongExpectedVersionError,
} from './event-store.port';

/**
 * The PostgreSQL adapter's group commit, the part that needs no database: what each append of a group
 * does, judged one after the other on the state the group's transaction read and locked, exactly as if
 * the appends had run one by one (the SQLite adapter's savepoints, without a savepoint per append:
 * more than 64 subtransactions in one transaction slow every snapshot of the server). The adapter then
 * writes what the plan says with one statement per table for the whole group
 * (docs/adr/0002-event-store-global-ordering.md).
 */

/** An event as the INSERT takes it: data and metadata already JSON, so a payload JSON cannot hold fails its caller. */
export interface SerializedEvent {
  type: string;
  data: string;
  metadata: string;
  schemaVersion: number;
}

/** One stream's share of an append. */
export interface GroupWrite {
  streamId: string;
  events: SerializedEvent[];
  options: AppendOptions;
}

/** One caller's append: one write for `appendToStream`, several for `appendToStreams`. */
export interface GroupAppend {
  writes: GroupWrite[];
  /** only a single write carries one (`appendToStreams` refuses keys) */
  idempotencyKey?: string;
}

export type StoredResult = Omit<AppendResult, 'duplicate'>;

/** What the group's transaction read, after locking the rows of the streams it writes. */
export interface StoredState {
  /** the version of each stream of the group that exists */
  versions: ReadonlyMap<string, number>;
  /** the owner of each value the group takes or gives up that is held, by `reservationKey` */
  owners: ReadonlyMap<string, string>;
  /** the results stored under the group's idempotency keys by appends already committed */
  storedResults: ReadonlyMap<string, StoredResult>;
}

export type Verdict =
  /** its events go in; `firstVersions[i]` is the version of the first event of write i */
  | { kind: 'appended'; firstVersions: number[] }
  /** the key was used by a committed append: nothing is written, its result is answered */
  | { kind: 'duplicate'; result: StoredResult }
  /** the key was used by an earlier append of this group: its result is answered */
  | { kind: 'duplicate-in-group'; of: number }
  | { kind: 'rejected'; error: WrongExpectedVersionError | ReservationTakenError };

export interface PlannedEvent {
  streamId: string;
  version: number;
  event: SerializedEvent;
}

export interface HeldReservation {
  scope: string;
  value: string;
  streamId: string;
}

/** What the group writes: the net effect of every append it accepts. */
export interface GroupPlan {
  verdicts: Verdict[];
  /** events in the order of the appends and their writes: the order their positions take */
  events: PlannedEvent[];
  /** streams created, with their version after the group */
  newStreams: Array<{ streamId: string; version: number }>;
  /** streams that existed and moved on */
  movedStreams: Array<{ streamId: string; version: number }>;
  /** held values given up, each by the stream that held it */
  freed: HeldReservation[];
  /** held values that went from one stream of the group to another */
  handedOver: Array<HeldReservation & { previousOwner: string }>;
  /** free values taken */
  taken: HeldReservation[];
  /** keys of accepted appends: the result to store is that of the event at `(streamId, version)` */
  keysToStore: Array<{ key: string; streamId: string; version: number }>;
  /** keys the transaction claimed for appends that were rejected: given back */
  keysToDrop: string[];
}

/** The text that names a reserved value in maps (PostgreSQL text cannot hold `\u0000`). */
export const reservationKey = ({ scope, value }: Reservation): string => `${scope}\u0000${value}`;

/**
 * Everything an append touches that another append could also touch: its streams, the values it
 * takes or gives up and its idempotency key. Two groups in flight at once never share one, so a group
 * never waits on a row another group of this process holds.
 */
export function touchedKeys(append: GroupAppend): string[] {
  const keys: string[] = [];
  for (const { streamId, options } of append.writes) {
    keys.push(`s\u0000${streamId}`);
    for (const reservation of [...(options.reservations ?? []), ...(options.releases ?? [])]) {
      keys.push(`r\u0000${reservationKey(reservation)}`);
    }
  }
  if (append.idempotencyKey !== undefined) keys.push(`k\u0000${append.idempotencyKey}`);
  return keys;
}

/** Turns events into what the group's INSERT takes; throws (in the caller's turn) on data JSON cannot hold. */
export function serializeEvents(streamId: string, events: readonly NewEvent[]): SerializedEvent[] {
  if (events.length === 0) throw new Error(`append to ${streamId} carries no events`);
  return events.map((event) => ({
    type: event.type,
    data: JSON.stringify(event.data ?? null),
    metadata: JSON.stringify(event.metadata),
    schemaVersion: event.schemaVersion ?? 1,
  }));
}

/**
 * Judges the appends in order on `stored`, each seeing what the earlier ones of the group did: a
 * version conflict or a taken value rejects that append alone (all of its writes), like a savepoint
 * rolled back. Within one append every version is checked first (in the order of its writes), then all
 * of its releases apply before any of its reservations, as the port says.
 */
export function planGroup(appends: readonly GroupAppend[], stored: StoredState): GroupPlan {
  const versions = new Map(stored.versions);
  const owners = new Map<string, string | null>(stored.owners);
  const keysInGroup = new Map<string, number>();
  const claimedKeys = new Set<string>();
  const verdicts: Verdict[] = [];
  const events: PlannedEvent[] = [];
  const keysToStore: GroupPlan['keysToStore'] = [];
  const touchedValues = new Map<string, Reservation>();

  appends.forEach((append, index) => {
    const key = append.idempotencyKey;
    if (key !== undefined) {
      const result = stored.storedResults.get(key);
      if (result) return verdicts.push({ kind: 'duplicate', result });
      const first = keysInGroup.get(key);
      if (first !== undefined) return verdicts.push({ kind: 'duplicate-in-group', of: first });
      claimedKeys.add(key);
    }

    const verdict = judgeAppend(append, versions, owners, touchedValues);
    verdicts.push(verdict);
    if (verdict.kind !== 'appended') return;
    append.writes.forEach(({ streamId, events: serialized }, writeIndex) => {
      const first = verdict.firstVersions[writeIndex];
      serialized.forEach((event, offset) => events.push({ streamId, version: first + offset, event }));
      versions.set(streamId, first + serialized.length - 1);
    });
    if (key !== undefined) {
      keysInGroup.set(key, index);
      const [write] = append.writes;
      keysToStore.push({ key, streamId: write.streamId, version: verdict.firstVersions[0] + write.events.length - 1 });
    }
  });

  const newStreams: GroupPlan['newStreams'] = [];
  const movedStreams: GroupPlan['movedStreams'] = [];
  for (const [streamId, version] of versions) {
    const before = stored.versions.get(streamId);
    if (before === undefined) newStreams.push({ streamId, version });
    else if (before !== version) movedStreams.push({ streamId, version });
  }

  const freed: GroupPlan['freed'] = [];
  const handedOver: GroupPlan['handedOver'] = [];
  const taken: GroupPlan['taken'] = [];
  for (const [name, { scope, value }] of touchedValues) {
    const before = stored.owners.get(name) ?? null;
    const after = owners.get(name) ?? null;
    if (before === after) continue;
    if (after === null) freed.push({ scope, value, streamId: before as string });
    else if (before === null) taken.push({ scope, value, streamId: after });
    else handedOver.push({ scope, value, streamId: after, previousOwner: before });
  }

  const keysToDrop = [...claimedKeys].filter((key) => !keysInGroup.has(key));
  return { verdicts, events, newStreams, movedStreams, freed, handedOver, taken, keysToStore, keysToDrop };
}

/**
 * One append on the group's state so far. Changes `owners` (and records the values it touched) only
 * when it is accepted; the caller moves the versions on.
 */
function judgeAppend(
  { writes }: GroupAppend,
  versions: ReadonlyMap<string, number>,
  owners: Map<string, string | null>,
  touchedValues: Map<string, Reservation>,
): Verdict {
  const firstVersions: number[] = [];
  for (const { streamId, options } of writes) {
    const current = versions.get(streamId);
    const expected = options.expectedVersion;
    if ((expected === 'no_stream' && current !== undefined) || (typeof expected === 'number' && current !== expected)) {
      return { kind: 'rejected', error: new WrongExpectedVersionError(streamId, expected, current ?? 'no_stream') };
    }
    firstVersions.push((current ?? -1) + 1);
  }

  // The append's own view of the values: applied to `owners` only if it is accepted.
  const changes = new Map<string, string | null>();
  const ownerOf = (name: string) => (changes.has(name) ? (changes.get(name) as string | null) : (owners.get(name) ?? null));
  for (const { streamId, options } of writes) {
    for (const reservation of options.releases ?? []) {
      const name = reservationKey(reservation);
      // only the owner gives a value up; a release of someone else's value changes nothing
      if (ownerOf(name) === streamId) changes.set(name, null);
    }
  }
  for (const { streamId, options } of writes) {
    for (const reservation of options.reservations ?? []) {
      const name = reservationKey(reservation);
      const owner = ownerOf(name);
      if (owner !== null && owner !== streamId) {
        return { kind: 'rejected', error: new ReservationTakenError({ scope: reservation.scope, value: reservation.value }) };
      }
      changes.set(name, streamId);
    }
  }
  for (const { options } of writes) {
    for (const reservation of [...(options.releases ?? []), ...(options.reservations ?? [])]) {
      touchedValues.set(reservationKey(reservation), { scope: reservation.scope, value: reservation.value });
    }
  }
  for (const [name, owner] of changes) owners.set(name, owner);
  return { kind: 'appended', firstVersions };
}
