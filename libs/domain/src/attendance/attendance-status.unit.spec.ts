import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { attendanceStatusDecider, attendanceStatusTitleReservation, type AttendanceStatusEvent } from './attendance-status';

const at = '2026-11-23T07:00:00.000Z';
const status = givenFor(attendanceStatusDecider);
const created: AttendanceStatusEvent = { type: 'AttendanceStatusCreated', data: { statusId: 'S', title: 'Vacation', active: true, createdAt: at } };
const deleted: AttendanceStatusEvent = { type: 'AttendanceStatusDeleted', data: { statusId: 'S', title: 'Vacation', deletedAt: at } };
const update = (title: string, active: boolean) => ({ type: 'UpdateAttendanceStatus' as const, data: { title, active, updatedAt: at } });

describe('attendance status decider', () => {
  it('creates a status with its title trimmed', () =>
    status([]).when({ type: 'CreateAttendanceStatus', data: { statusId: 'S', title: ' Vacation ', active: true, createdAt: at } }).then([created]));

  it('refuses an empty or long title under title, and a second creation', () => {
    status([]).when({ type: 'CreateAttendanceStatus', data: { statusId: 'S', title: ' ', active: true, createdAt: at } }).thenThrows('attendance_status.title_invalid', 'title');
    status([]).when({ type: 'CreateAttendanceStatus', data: { statusId: 'S', title: 'x'.repeat(256), active: true, createdAt: at } }).thenThrows('attendance_status.title_invalid', 'title');
    status([created]).when({ type: 'CreateAttendanceStatus', data: { statusId: 'S', title: 'Vacation', active: true, createdAt: at } }).thenThrows('attendance_status.exists');
  });

  it('updates title and Active, and records nothing for an unchanged dialog', () => {
    status([created]).when(update('Vacation', false)).then([{ type: 'AttendanceStatusUpdated', data: { statusId: 'S', title: 'Vacation', active: false, updatedAt: at } }]);
    status([created]).when(update(' Holiday', true)).then([{ type: 'AttendanceStatusUpdated', data: { statusId: 'S', title: 'Holiday', active: true, updatedAt: at } }]);
    status([created]).when(update('Vacation ', true)).then([]);
  });

  it('deletes, and knows nothing of the status afterwards', () => {
    status([created]).when({ type: 'DeleteAttendanceStatus', data: { deletedAt: at } }).then([deleted]);
    status([created, deleted]).when(update('Vacation', true)).thenThrows('attendance_status.not_found');
    status([created, deleted]).when({ type: 'DeleteAttendanceStatus', data: { deletedAt: at } }).thenThrows('attendance_status.not_found');
  });

  it('reserves titles case-insensitively', () => {
    expect(attendanceStatusTitleReservation(' Sick Leave ')).toEqual(attendanceStatusTitleReservation('sick leave'));
    expect(attendanceStatusTitleReservation('Sick leave').value).not.toBe(attendanceStatusTitleReservation('Vacation').value);
  });
});
