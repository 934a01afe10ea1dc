import { fold, type Decider, type DomainEvent } from '@rollcall/domain';
import { comparePositions, START, type EventStore, type Position, type Reservation, type StoredEvent, type StreamWrite } from '../event-store/event-store.port';
import type { Clock } from '../runtime/clock';

import { eventMetadata, type RequestContext } from './request-context';

/**
 * Decisions over several streams (docs/adr/0009): each stream is read and folded with the version it
 * was read at, the deciders run on those states, and everything they decided is appended in one
 * `appendToStreams`, each stream with its expected version. A refusal anywhere throws before anything
 * is written; a concurrent change to any stream read fails the whole append.
 */
export interface LoadedStream<State> {
  streamId: string;
  state: State;
  /** the version the decision is taken on */
  expectedVersion: number | 'no_stream';
  /** position of the stream's last event (null for a new stream) */
  lastPosition: Position | null;
}

export function foldStream<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>, streamId: string, stored: readonly Pick<StoredEvent, 'streamVersion' | 'position' | 'type' | 'data'>[]): LoadedStream<State> {
  const last = stored[stored.length - 1];
  return {
    streamId,
    state: fold(decider, stored.map((e) => ({ type: e.type, data: e.data }) as Event)),
    expectedVersion: last ? last.streamVersion : 'no_stream',
    lastPosition: last ? last.position : null,
  };
}

export async function loadStream<Command, Event extends DomainEvent, State>(store: EventStore, decider: Decider<Command, Event, State>, streamId: string): Promise<LoadedStream<State>> {
  return foldStream(decider, streamId, await store.readStream(streamId));
}

/**
 * Several commands to one aggregate in one decision (an account leaves two organizations, then joins
 * a third): each is decided on the state the previous ones left, as if appended one by one.
 */
export function decideInTurn<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>, state: State, commands: readonly Command[]): { events: Event[]; state: State } {
  const events: Event[] = [];
  let current = state;
  for (const command of commands) {
    const decided = decider.decide(command, current);
    for (const event of decided) current = decider.evolve(current, event);
    events.push(...decided);
  }
  return { events, state: current };
}

/** What one stream contributes to a decision. A write without events is left out of the append. */
export interface PlannedWrite {
  stream: LoadedStream<unknown>;
  events: readonly DomainEvent[];
  reservations?: Reservation[];
  releases?: Reservation[];
}

/** The port's writes for a decision: every event gets its own metadata, all with one occurred-at. */
export function toStreamWrites(writes: readonly PlannedWrite[], context: RequestContext, occurredAt: string): StreamWrite[] {
  return writes
    .filter((write) => write.events.length > 0)
    .map(({ stream, events, reservations, releases }) => ({
      streamId: stream.streamId,
      events: events.map((event) => ({ type: event.type, data: event.data, metadata: eventMetadata(context, occurredAt) })),
      options: { expectedVersion: stream.expectedVersion, ...(reservations?.length ? { reservations } : {}), ...(releases?.length ? { releases } : {}) },
    }));
}

/** the latest of some positions (START when there are none) */
export function latestPosition(positions: ReadonlyArray<Position | null>): Position {
  let latest = START;
  for (const position of positions) if (position && comparePositions(position, latest) > 0) latest = position;
  return latest;
}

/**
 * Appends a decision and returns the position of its last event. When nothing was decided, the
 * position of the newest stream read: the caller's read-your-writes wait then returns at once.
 */
export async function appendDecision(store: EventStore, clock: Clock, context: RequestContext, writes: readonly PlannedWrite[]): Promise<Position> {
  const streamWrites = toStreamWrites(writes, context, clock.now().toISOString());
  if (streamWrites.length === 0) return latestPosition(writes.map((write) => write.stream.lastPosition));
  const results = await store.appendToStreams(streamWrites);
  return latestPosition(results.map((result) => result.position));
}
