import type { TAttendanceLiveMessage } from '../attendance/attendance-live-messages';

/** What the live channel pushes to consoles: account changes, projection lag, and attendance as scans land. */
export type TLiveMessage =
  | { kind: 'account.changed'; accountId: string; position: string }
  | { kind: 'projection.lag'; projection: string; lag: number }
  | TAttendanceLiveMessage;
