/** The read tables of attendance-statuses (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
/** attendance_statuses_v1: one row per live attendance status; active 1 means selectable */
export interface AttendanceStatusTable { id: string; title: string; active: number; created_at: string; updated_at: string }

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    attendance_statuses_v1: AttendanceStatusTable;
  }
}
