import { describe, expect, it } from 'vitest';
import { fold } from '../shared';
import { sessionDecider, type SessionEvent } from './session';

const started: SessionEvent = {
  type: 'SessionStarted',
  data: { sessionId: 's1', accountId: 'a1', tokenHash: 'h', startedAt: '2026-11-22T08:00:00.000Z', expiresAt: '2026-11-22T20:00:00.000Z' },
};

describe('session decider', () => {
  it('ends an active session once; a second logout appends nothing', () => {
    const ended = sessionDecider.decide({ type: 'EndSession', data: { endedAt: 'x', reason: 'logout' } }, fold(sessionDecider, [started]));
    expect(ended).toEqual([{ type: 'SessionEnded', data: { sessionId: 's1', endedAt: 'x', reason: 'logout' } }]);
    expect(sessionDecider.decide({ type: 'EndSession', data: { endedAt: 'y', reason: 'logout' } }, fold(sessionDecider, [started, ...ended]))).toEqual([]);
  });

  it('refuses to end an unknown session', () => {
    expect(() => sessionDecider.decide({ type: 'EndSession', data: { endedAt: 'x', reason: 'logout' } }, fold(sessionDecider, []))).toThrow('Session not found');
  });
});
