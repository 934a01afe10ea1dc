import type { Kysely, Selectable } from 'kysely';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import type { EventMetadata, StoredEvent } from '../../../platform/event-store/event-store.port';
import type { EventLogTable } from '../audit.tables';

/** the event types of other streams that are about one person: their cards and their calendar */
const ABOUT_AN_ACCOUNT = ['SmartCardRegistered', 'SmartCardRemoved', 'CalendarEventGroupCreated', 'CalendarEventGroupChanged', 'CalendarEventChanged', 'CalendarEventRemoved', 'CalendarEventGroupRemoved'];

/**
 * An auditor follows a person, not a stream: besides the account's own stream, its history holds
 * the days of its attendance (`attendance-{id}-{day}`: arrivals, departures, uncounted scans,
 * corrections, flags), its cards' registrations and removals, its calendar (attendance
 * statuses) and its second factors (`second-factors-{id}`), read from the event log's copy of every event. The caller passes them through the
 * one door (readable-events.ts) like every other event it shows.
 */
export async function eventsAboutAccount(db: Kysely<ReadDatabase>, accountId: string): Promise<StoredEvent[]> {
  const dayStreams = `attendance-${accountId}-`;
  const rows = await db
    .selectFrom('event_log_v1')
    .selectAll()
    .where((eb) =>
      eb.or([
        // one index range: '.' sorts right after '-' (the log compares stream ids byte-wise)
        eb.and([eb('stream_id', '>=', dayStreams), eb('stream_id', '<', `attendance-${accountId}.`)]),
        eb.and([eb('event_type', 'in', ABOUT_AN_ACCOUNT), eb('payload', 'like', `%"accountId":"${accountId}"%`)]),
        // its second factors' enrolments, uses and removals (docs/adr/0025, 0029), redacted like every event shown
        eb('stream_id', '=', `second-factors-${accountId}`),
      ]),
    )
    .orderBy('position_commit')
    .orderBy('position_sequence')
    .execute();
  return rows.map(storedEventOf);
}

function storedEventOf(row: Selectable<EventLogTable>): StoredEvent {
  return {
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    position: { commit: Number(row.position_commit), sequence: Number(row.position_sequence) },
    type: row.event_type,
    data: JSON.parse(row.payload) as unknown,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    schemaVersion: Number(row.schema_version),
  };
}
