export const attendanceStatusesRoute = '/attendance-statuses';

export const toAttendanceStatuses = (): string => attendanceStatusesRoute;
