import { DomainError, type Decider, type DomainEvent } from '../shared';

/**
 * An attendance status (vacation, sick leave, ...: console-directory.md 'Attendance statuses'): a
 * title and whether it is offered for new calendar events ('Active'; 1 means selectable). One stream
 * each; titles are unique, case-insensitively, because the calendar's status select shows titles only.
 */
export const ATTENDANCE_STATUS_TITLE_MAX = 255;

export interface AttendanceStatusDetails {
  title: string;
  active: boolean;
}

export type AttendanceStatusCreated = DomainEvent<'AttendanceStatusCreated', AttendanceStatusDetails & { statusId: string; createdAt: string }>;
export type AttendanceStatusUpdated = DomainEvent<'AttendanceStatusUpdated', AttendanceStatusDetails & { statusId: string; updatedAt: string }>;
export type AttendanceStatusDeleted = DomainEvent<'AttendanceStatusDeleted', { statusId: string; title: string; deletedAt: string }>;
export type AttendanceStatusEvent = AttendanceStatusCreated | AttendanceStatusUpdated | AttendanceStatusDeleted;
export const ATTENDANCE_STATUS_EVENT_TYPES: AttendanceStatusEvent['type'][] = ['AttendanceStatusCreated', 'AttendanceStatusUpdated', 'AttendanceStatusDeleted'];

export type CreateAttendanceStatus = { type: 'CreateAttendanceStatus'; data: AttendanceStatusDetails & { statusId: string; createdAt: string } };
export type UpdateAttendanceStatus = { type: 'UpdateAttendanceStatus'; data: AttendanceStatusDetails & { updatedAt: string } };
/**
 * Calendar events keep their status id and show the title the read model kept, so deleting a status
 * in use loses nothing; the API may still refuse it (`attendance_status.in_use`) the way policies do.
 */
export type DeleteAttendanceStatus = { type: 'DeleteAttendanceStatus'; data: { deletedAt: string } };
export type AttendanceStatusCommand = CreateAttendanceStatus | UpdateAttendanceStatus | DeleteAttendanceStatus;

export type AttendanceStatusState =
  | { status: 'none' }
  | { status: 'active'; statusId: string; title: string; active: boolean }
  | { status: 'deleted'; statusId: string };

const notFound = () => new DomainError('attendance_status.not_found', 'Attendance status not found');

function validTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw new DomainError('attendance_status.title_invalid', 'Title is required', 'title', { title: ['Title is required'] });
  if ([...trimmed].length > ATTENDANCE_STATUS_TITLE_MAX) {
    const message = `Title may be at most ${ATTENDANCE_STATUS_TITLE_MAX} characters`;
    throw new DomainError('attendance_status.title_invalid', message, 'title', { title: [message] });
  }
  return trimmed;
}

export const attendanceStatusDecider: Decider<AttendanceStatusCommand, AttendanceStatusEvent, AttendanceStatusState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'AttendanceStatusCreated':
        return { status: 'active', statusId: event.data.statusId, title: event.data.title, active: event.data.active };
      case 'AttendanceStatusUpdated':
        return state.status === 'active' ? { ...state, title: event.data.title, active: event.data.active } : state;
      case 'AttendanceStatusDeleted':
        return { status: 'deleted', statusId: event.data.statusId };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateAttendanceStatus':
        if (state.status !== 'none') throw new DomainError('attendance_status.exists', 'This attendance status already exists');
        return [{ type: 'AttendanceStatusCreated', data: { ...command.data, title: validTitle(command.data.title) } }];
      case 'UpdateAttendanceStatus': {
        if (state.status !== 'active') throw notFound();
        const title = validTitle(command.data.title);
        // saving an unchanged dialog records nothing
        if (title === state.title && command.data.active === state.active) return [];
        return [{ type: 'AttendanceStatusUpdated', data: { statusId: state.statusId, title, active: command.data.active, updatedAt: command.data.updatedAt } }];
      }
      case 'DeleteAttendanceStatus':
        if (state.status !== 'active') throw notFound();
        return [{ type: 'AttendanceStatusDeleted', data: { statusId: state.statusId, title: state.title, deletedAt: command.data.deletedAt } }];
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

export const attendanceStatusStream = (statusId: string) => `attendance-status-${statusId}`;
export const attendanceStatusTitleReservation = (title: string) => ({ scope: 'attendance_status.title', value: title.trim().toLowerCase() });
