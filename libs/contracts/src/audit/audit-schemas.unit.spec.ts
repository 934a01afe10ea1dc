import { describe, expect, it } from 'vitest';
import { ZAuditEventFilter, ZAuditEventsInput } from './audit-schemas';

const fieldsOf = (input: unknown) => {
  const result = ZAuditEventsInput.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('the event log inputs', () => {
  it('default to the newest 50 and drop empty filters', () =>
    expect(ZAuditEventsInput.parse({ stream: '', actor: '', type: '' })).toEqual({ limit: 50 }));

  it('take event types as a list or comma-separated, and instants in any zone as UTC', () =>
    expect(ZAuditEventsInput.parse({ type: 'AccountCreated, TeamCreated', from: '2026-11-22T10:00:00+01:00', to: '2026-11-22T10:00:00Z', before: '12.34', limit: '100' })).toEqual({
      type: ['AccountCreated', 'TeamCreated'],
      from: '2026-11-22T09:00:00.000Z',
      to: '2026-11-22T10:00:00.000Z',
      before: '12.34',
      limit: 100,
    }));

  it('name the field of each bad filter', () => {
    expect(fieldsOf({ limit: 101 })).toEqual(['limit']);
    expect(fieldsOf({ before: '12' })).toEqual(['before']);
    expect(fieldsOf({ type: ['AccountCreated', 'not a type'] })).toEqual(['type']);
    expect(fieldsOf({ from: 'yesterday' })).toEqual(['from']);
    expect(fieldsOf({ from: '2026-11-22T10:00:00Z', to: '2026-11-22T10:00:00Z' })).toEqual(['to']);
    expect(fieldsOf({ correlation_id: 'a b' })).toEqual(['correlation_id']);
  });

  it('leave paging out of the export filter', () => expect(ZAuditEventFilter.parse({ limit: 5, before: '1.1', actor: 'system' })).toEqual({ actor: 'system' }));
});
