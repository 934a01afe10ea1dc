import type { TAttendanceStatus } from '@rollcall/contracts';
import type { Selectable } from 'kysely';
import type { AttendanceStatusTable } from '../attendance-statuses.tables';

/** the spec's shape: Active as 0 or 1 */
export const toAttendanceStatus = (row: Selectable<AttendanceStatusTable>): TAttendanceStatus => ({ id: row.id, title: row.title, active: row.active ? 1 : 0 });
