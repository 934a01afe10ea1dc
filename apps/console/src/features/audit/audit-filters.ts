import type { TAuditEventFilterInput } from '@rollcall/contracts';

/** The Event log's filters as they live in the URL, like every list's state. */
export interface AuditFilters {
  /** a stream id or its start: `account-<id>` shows the account's stream and its day streams */
  stream: string;
  types: string[];
  actor: string;
  correlation: string;
  /** its events and those of everything in it (the URL keeps the title to show it without a lookup) */
  organization: { id: string; title: string } | null;
  /** ISO-8601 instants (UTC), or '' */
  from: string;
  to: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EVENT_TYPE = /^[A-Z][A-Za-z0-9]*$/;

/** reads the filters; what is not an instant or an event type name is left out rather than sent */
export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const instant = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : '');
  return {
    stream: params.get('stream')?.trim() ?? '',
    types: (params.get('type') ?? '')
      .split(',')
      .map((type) => type.trim())
      .filter((type) => EVENT_TYPE.test(type)),
    actor: params.get('actor')?.trim() ?? '',
    correlation: params.get('correlation')?.trim() ?? '',
    organization: UUID.test(params.get('organization_id') ?? '') ? { id: params.get('organization_id') as string, title: params.get('organization') || (params.get('organization_id') as string) } : null,
    from: instant(params.get('from')),
    to: instant(params.get('to')),
  };
}

/** writes only the filters that are set, so a plain /audit/events stays plain */
export function writeAuditFilters(filters: AuditFilters, params = new URLSearchParams()): URLSearchParams {
  if (filters.stream) params.set('stream', filters.stream);
  if (filters.types.length) params.set('type', filters.types.join(','));
  if (filters.actor) params.set('actor', filters.actor);
  if (filters.correlation) params.set('correlation', filters.correlation);
  if (filters.organization) {
    params.set('organization_id', filters.organization.id);
    params.set('organization', filters.organization.title);
  }
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

/** the API's filter input: the stream field matches by prefix (an entity and the streams named after it) */
export function toFilterInput(filters: AuditFilters): TAuditEventFilterInput {
  return {
    ...(filters.stream ? { stream_prefix: filters.stream } : {}),
    ...(filters.types.length ? { type: filters.types } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.correlation ? { correlation_id: filters.correlation } : {}),
    ...(filters.organization ? { organization: filters.organization.id } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
}

/** the export's query string for the same filters */
export function exportQuery(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toFilterInput(filters))) params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  return params.toString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** an ISO instant as the value of a `datetime-local` input, in the browser's zone */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** a `datetime-local` value (browser's zone) as an ISO instant; '' when incomplete */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
