import type { TScanFlag, TScanOutcome } from '../readers/reader-protocol-schemas';

/**
 * What the live channel pushes to consoles about attendance, as scans land (to be joined to
 * `TLiveMessage` when the API publishes them). `position` is the event's place in `$all`, so a
 * console can ignore what it already has after a reload.
 */
export type TAttendanceLiveMessage =
  /** a scan at a door or an enrollment reader and what it became; `account_id` null for an unknown card */
  | { kind: 'attendance.scan'; outcome: TScanOutcome; account_id: string | null; slot_id: string | null; reader_id: string; door: string; at: string; flags: TScanFlag[]; position: string }
  /** an unknown card an administrator can assign */
  | { kind: 'attendance.unknown_card'; card_uid: string; reader_id: string; door: string; at: string; position: string }
  /** the 'Add a smartcard' dialog closes when register mode ends; `card_uid` when a card ended it */
  | { kind: 'scanner.register_mode'; state: 'started' | 'ended'; account_id: string; reader_id: string; reason: string | null; card_uid: string | null; expires_at: string | null; position: string }
  /**
   * a card at an enrollment reader armed for `account_id` that another account holds: nothing was
   * registered and the reader stays armed; the dialog says so (who holds it is asked with
   * `readers.cardHolder`, which answers only what the caller may see: docs/adr/0011)
   */
  | { kind: 'scanner.card_taken'; account_id: string; reader_id: string; card_uid: string; at: string; position: string }
  /** the presence board: who is in right now */
  | { kind: 'presence.changed'; account_id: string; present: boolean; at: string; position: string }
  /** an administrator corrected a slot: consoles showing it refetch */
  | { kind: 'attendance.corrected'; account_id: string; slot_id: string; position: string };
