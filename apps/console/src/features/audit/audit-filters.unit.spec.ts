import { describe, expect, it } from 'vitest';
import { exportQuery, fromLocalInput, readAuditFilters, toFilterInput, toLocalInput, writeAuditFilters } from './audit-filters';
import { toAuditEvents } from '../../paths';

describe('the Event log filters in the URL', () => {
  it('read what was written, and write only what is set', () => {
    const sales = { id: '01a2114c-a061-7783-8424-51e38fa37b63', title: 'Sales' };
    const filters = { stream: 'account-7', types: ['AccountCreated', 'RoleGrantedToAccount'], actor: 'a1', correlation: 'c-1', organization: sales, from: '2026-11-22T09:00:00.000Z', to: '' };
    const params = writeAuditFilters(filters);
    expect(params.toString()).toBe(`stream=account-7&type=AccountCreated%2CRoleGrantedToAccount&actor=a1&correlation=c-1&organization_id=${sales.id}&organization=Sales&from=2026-11-22T09%3A00%3A00.000Z`);
    expect(readAuditFilters(params)).toEqual(filters);
    expect(toAuditEvents()).toBe('/audit/events');
    expect(toAuditEvents({ stream: 'team-1' })).toBe('/audit/events?stream=team-1');
    // the link other screens build (paths.ts) is read back by the Event log's own filters
    const link = new URL(toAuditEvents({ stream: 'account-7 & co' }), 'http://console');
    expect(link.pathname).toBe('/audit/events');
    expect(readAuditFilters(link.searchParams).stream).toBe('account-7 & co');
  });

  it('leave out what the API would refuse instead of sending it', () => {
    expect(readAuditFilters(new URLSearchParams('type=AccountCreated,drop table,&from=yesterday&to=2026-11-22T10:00:00%2B01:00&organization_id=sales'))).toEqual({
      stream: '',
      types: ['AccountCreated'],
      actor: '',
      correlation: '',
      organization: null,
      from: '',
      to: '2026-11-22T09:00:00.000Z',
    });
  });

  it('send the stream as a prefix and the same filters to the export', () => {
    const filters = { stream: 'account-7', types: ['A', 'B'], actor: '', correlation: '', organization: { id: 'o-1', title: 'Sales' }, from: '', to: '2026-11-22T09:00:00.000Z' };
    expect(toFilterInput(filters)).toEqual({ stream_prefix: 'account-7', type: ['A', 'B'], organization: 'o-1', to: '2026-11-22T09:00:00.000Z' });
    expect(exportQuery(filters)).toBe('stream_prefix=account-7&type=A%2CB&organization=o-1&to=2026-11-22T09%3A00%3A00.000Z');
  });

  it('turn a datetime-local value into an instant and back', () => {
    const iso = fromLocalInput('2026-11-22T09:30');
    expect(iso).toMatch(/^2026-11-2\dT\d\d:30:00\.000Z$/);
    expect(toLocalInput(iso)).toBe('2026-11-22T09:30');
    expect(fromLocalInput('')).toBe('');
  });
});
