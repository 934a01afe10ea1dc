/** What REST and tRPC answer alike for attendance statuses (shaped once, here). */

export const attendanceStatusDeletedMessage = (title: string) => `Attendance status "${title}" deleted`;
