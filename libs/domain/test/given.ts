import { expect } from 'vitest';
import { DomainError, fold, type Decider, type DomainEvent } from '../src/shared';

/**
 * Decider tests read as given (past events) / when (a command) / then (new events, or the error's
 * code and, when named, the field it is shown under).
 */
export function givenFor<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>) {
  return (events: Event[]) => {
    const state = fold(decider, events);
    return {
      when: (command: Command) => ({
        then: (expected: Event[]) => expect(decider.decide(command, state)).toEqual(expected),
        thenThrows: (code: string, field?: string) => {
          let thrown: unknown = null;
          try {
            decider.decide(command, state);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `expected ${code}, but the command was accepted`).toBeInstanceOf(DomainError);
          expect((thrown as DomainError).code).toBe(code);
          if (field) {
            expect((thrown as DomainError).field).toBe(field);
            expect((thrown as DomainError).fields?.[field]?.length ?? 1).toBe(1);
          }
        },
      }),
    };
  };
}
