import { DomainError, type Decider, type DomainEvent } from '../shared';

/**
 * A sign-in session. Only the SHA-256 of the session token is ever stored; the token itself is
 * handed to the client once.
 */
export type SessionStarted = DomainEvent<'SessionStarted', { sessionId: string; accountId: string; tokenHash: string; startedAt: string; expiresAt: string }>;
export type SessionEnded = DomainEvent<'SessionEnded', { sessionId: string; endedAt: string; reason: 'logout' | 'revoked' }>;
export type SessionEvent = SessionStarted | SessionEnded;
export const SESSION_EVENT_TYPES: SessionEvent['type'][] = ['SessionStarted', 'SessionEnded'];

export type StartSession = { type: 'StartSession'; data: SessionStarted['data'] };
export type EndSession = { type: 'EndSession'; data: { endedAt: string; reason: 'logout' | 'revoked' } };
export type SessionCommand = StartSession | EndSession;

export type SessionState = { status: 'none' } | { status: 'active' | 'ended'; sessionId: string; accountId: string };

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'SessionStarted':
        return { status: 'active', sessionId: event.data.sessionId, accountId: event.data.accountId };
      case 'SessionEnded':
        return state.status === 'none' ? state : { ...state, status: 'ended' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartSession':
        if (state.status !== 'none') throw new DomainError('session.exists', 'Session already started');
        return [{ type: 'SessionStarted', data: command.data }];
      case 'EndSession':
        if (state.status === 'none') throw new DomainError('session.not_found', 'Session not found');
        if (state.status === 'ended') return []; // logging out twice is harmless
        return [{ type: 'SessionEnded', data: { sessionId: state.sessionId, ...command.data } }];
    }
  },
};

export const sessionStream = (sessionId: string) => `session-${sessionId}`;
