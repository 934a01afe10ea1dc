import { ZAuditEventsInput } from '@rollcall/contracts';
import { describe, expect, it } from 'vitest';
import { mapError } from '../../platform/errors/api-error';

/**
 * The event log's filters name their own rules (issue 21, review 6a), so a console can say them in
 * its language: a malformed actor `actor_id`, a To not after From `after` with the other field.
 */
const rulesOf = (input: unknown) => {
  const parsed = ZAuditEventsInput.safeParse(input);
  if (parsed.success) throw new Error('expected bad input');
  return mapError(parsed.error).body.error.rules;
};

describe('the event log filters’ rules', () => {
  it('names a malformed actor actor_id, with its label', () => {
    expect(rulesOf({ actor: 'bernd' })).toEqual([{ field: 'actor', code: 'actor_id', params: { label: 'Actor' }, message: 'actor must be an account, access token or door reader id (a UUID), or system' }]);
  });

  it('names a To not after From after, with the other field', () => {
    expect(rulesOf({ from: '2026-11-26T10:00:00Z', to: '2026-11-26T09:00:00Z' })).toEqual([{ field: 'to', code: 'after', params: { label: 'To', other: 'From' }, message: 'to must be after from' }]);
  });
});
