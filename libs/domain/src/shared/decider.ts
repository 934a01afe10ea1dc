/** An event as deciders see it: a type and its payload. Metadata is added by the application layer. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** The pure pair every aggregate exports. No clock, no ids, no I/O: those arrive in commands. */
export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

export function fold<Event extends DomainEvent, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}
