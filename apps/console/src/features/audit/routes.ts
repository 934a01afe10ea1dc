import { writeAuditFilters, type AuditFilters } from './audit-filters';

export const auditEventsRoute = '/audit/events';
export const projectionsRoute = '/audit/projections';

/** the Event log, optionally filtered (e.g. one entity's streams: `{ stream: 'account-<id>' }`) */
export const toAuditEvents = (filters: Partial<AuditFilters> = {}): string => {
  const params = writeAuditFilters({ stream: '', types: [], actor: '', correlation: '', organization: null, from: '', to: '', ...filters });
  const query = params.toString();
  return query ? `${auditEventsRoute}?${query}` : auditEventsRoute;
};
