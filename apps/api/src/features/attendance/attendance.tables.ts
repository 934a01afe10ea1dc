/** Read tables of smart cards and attendance (docs/adr/0013). */

/** smart_cards_v1: current registrations, owned by SmartCardsProjection */
export interface SmartCardTable {
  id: string;
  card_uid: string;
  account_id: string;
  via: string;
  created_at: string;
}

/** attendance_slots_v1: one row per arrival and its departure, owned by AttendanceSlotsProjection */
export interface AttendanceSlotTable {
  id: string;
  account_id: string;
  day: string;
  arrived_at: string;
  departed_at: string | null;
  arrival_reader_id: string;
  arrival_door: string;
  departure_reader_id: string | null;
  departure_door: string | null;
  /** JSON array of the flags of its scans (clock_skew, two_doors, open_day) */
  flags: string;
  corrected: number;
  /** uncounted scans (duplicates, out of order) seen while it was the account's latest slot */
  uncounted_scans: number;
}

/** unknown_cards_v1: cards no account holds, newest scan per card and reader; owned by UnknownCardsProjection */
export interface UnknownCardTable {
  card_uid: string;
  reader_id: string;
  door: string;
  scanned_at: string;
  scans: number;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    smart_cards_v1: SmartCardTable;
    attendance_slots_v1: AttendanceSlotTable;
    unknown_cards_v1: UnknownCardTable;
  }
}
