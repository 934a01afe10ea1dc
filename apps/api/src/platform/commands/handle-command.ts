import { fold, type Decider, type DomainEvent } from '@rollcall/domain';
import { WrongExpectedVersionError, type AppendResult, type EventStore, type Reservation } from '../event-store/event-store.port';
import type { Clock } from '../runtime/clock';
import { eventMetadata, type RequestContext } from './request-context';

export interface HandleOptions {
  reservations?: Reservation[];
  releases?: Reservation[];
  idempotencyKey?: string;
}

/**
 * The one write path: read the stream, fold it, decide, append with the version we read. A
 * concurrent writer makes the append fail with a version conflict instead of overwriting.
 * `options` may be a function of the state the decision was taken on and the events it produced
 * (a rename releases the old title, which only the folded state knows).
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  clock: Clock,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command,
  context: RequestContext,
  options: HandleOptions | ((state: State, events: Event[]) => HandleOptions) = {},
): Promise<AppendResult & { events: Event[] }> {
  const stored = await store.readStream(streamId);
  const state = fold(decider, stored.map((e) => ({ type: e.type, data: e.data }) as Event));
  const events = decider.decide(command, state);
  if (events.length === 0) {
    const last = stored[stored.length - 1];
    return { events, nextExpectedVersion: last ? last.streamVersion : -1, position: last ? last.position : { commit: 0, sequence: 0 }, duplicate: false };
  }
  const occurredAt = clock.now().toISOString();
  const result = await store.appendToStream(
    streamId,
    events.map((event) => ({ type: event.type, data: event.data, metadata: eventMetadata(context, occurredAt) })),
    { expectedVersion: stored.length === 0 ? 'no_stream' : stored[stored.length - 1].streamVersion, ...(typeof options === 'function' ? options(state, events) : options) },
  );
  return { ...result, events };
}

/** The folded state of a stream, for handlers that must look before they decide (a history check). */
export async function loadState<Command, Event extends DomainEvent, State>(store: EventStore, decider: Decider<Command, Event, State>, streamId: string): Promise<State> {
  const stored = await store.readStream(streamId);
  return fold(decider, stored.map((e) => ({ type: e.type, data: e.data }) as Event));
}

/**
 * `handleCommand` that decides again on a version conflict, for commands whose every attempt must
 * count (failed sign-ins under parallel attempts): each retry re-reads the stream, so the decision is
 * always taken on the latest state and nothing is counted twice or lost.
 */
export function handleCommandRetrying<Command, Event extends DomainEvent, State>(
  store: EventStore,
  clock: Clock,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command,
  context: RequestContext,
  maxAttempts = 100,
): Promise<AppendResult & { events: Event[] }> {
  return retryingOnConflict(() => handleCommand(store, clock, decider, streamId, command, context), maxAttempts);
}

/**
 * Runs a whole decision again (re-reading what it decided on) when a stream it read changed before
 * the append, so the loser of a race decides again on fresh state instead of failing (or is refused
 * by it).
 */
export async function retryingOnConflict<T>(decision: () => Promise<T>, maxAttempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await decision();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
      // a little jitter spreads the next round of a crowd of writers
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, attempt * 5)));
    }
  }
}
