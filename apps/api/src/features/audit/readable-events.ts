import { readableEventData, readableEventMetadata, type TAuditEvent } from '@rollcall/contracts';
import type { Selectable } from 'kysely';
import { formatPosition, type EventMetadata, type StoredEvent } from '../../platform/event-store/event-store.port';
import type { EventLogTable } from './audit.tables';

/**
 * The one door through which stored events leave the server (docs/security.md, 'Credentials never
 * leave through events'). Every answer made of events goes through here: the event log page and its
 * NDJSON export (`auditEventOf`, over the log's rows), an entity's history and time travel
 * (`readableEvents`, over the stream they fold, so even the folded state never held a credential).
 * Each payload is cut to what its type declares readable in libs/contracts
 * (`EVENT_READ_DECLARATIONS`): secrets, undeclared keys and undeclared event types read as
 * '[redacted]'.
 */

/** a stored event as it may be shown: its payload and metadata redacted by the contracts' declarations */
export function readableEvent(event: StoredEvent): StoredEvent {
  return { ...event, data: readableEventData(event.type, event.data), metadata: readableEventMetadata(event.metadata) as unknown as EventMetadata };
}

export const readableEvents = (events: readonly StoredEvent[]): StoredEvent[] => events.map(readableEvent);

/** one row of the event log as the log answers it (page, export and each history entry) */
export function auditEventOf(row: Selectable<EventLogTable>): TAuditEvent {
  return {
    position: formatPosition({ commit: Number(row.position_commit), sequence: Number(row.position_sequence) }),
    stream_id: row.stream_id,
    stream_version: Number(row.stream_version),
    type: row.event_type,
    event_id: row.event_id,
    actor: row.actor,
    actor_kind: row.actor_kind,
    source_ip: row.source_ip,
    correlation_id: row.correlation_id,
    causation_id: row.causation_id,
    recorded_at: row.recorded_at,
    schema_version: Number(row.schema_version),
    data: readableEventData(row.event_type, JSON.parse(row.payload) as unknown),
    metadata: readableEventMetadata(JSON.parse(row.metadata) as unknown),
  };
}
