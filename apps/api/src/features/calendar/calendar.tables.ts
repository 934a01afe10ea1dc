/** The read tables of calendar (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** calendar_events_v1: one row per live day of a calendar event group; dates YYYY-MM-DD, times HH:mm:ss, local to the account */
export interface CalendarEventTable { id: string; account_id: string; event_group_id: string; attendance_status_id: string; title: string; description: string; date: string; start_time: string; end_time: string; group_start_date: string; group_end_date: string; group_start_time: string; group_end_time: string }

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    calendar_events_v1: CalendarEventTable;
  }
}
