import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZArrivalsDeparturesQuery, ZAttendanceByViewInput, ZCorrectSlotInput, ZStatisticsDownloadQuery, ZStatisticsQuery } from './attendance-schemas';
import { ZAttendanceStatusInput } from './attendance-status-schemas';
import { ZAssignCardInput, ZListSmartCardsInput } from './smart-card-schemas';
import { ZCreateTrackingStatusInput, ZRemoveTrackingStatusInput, ZUpdateTrackingStatusInput } from './tracking-status-schemas';

function fieldsOf(result: z.ZodSafeParseResult<unknown>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (fields[issue.path.join('.')] ??= []).push(issue.message);
  return fields;
}

const statusId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000020';
const accountId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000001';
const eventId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000030';
const groupId = '0b9a3c64-1f2e-4c1d-9a51-7d1f00000040';

describe('tracking-status (calendar) inputs', () => {
  const create = { event_group_title: ' Vacation ', status_id: statusId, start_date: '2026-11-23', end_date: '2026-11-27', start_time: '09:00', end_time: '17:00', description: null, single: 'false', account_id: accountId };

  it('takes the create payload with times in their own fields', () =>
    expect(ZCreateTrackingStatusInput.parse(create)).toEqual({
      title: 'Vacation',
      status_id: statusId,
      description: '',
      account_id: accountId,
      start_date: '2026-11-23',
      end_date: '2026-11-27',
      start_time: '09:00:00',
      end_time: '17:00:00',
      single: false,
    }));

  it("requires the times with the spec's message, along with the title and status errors in one answer", () =>
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, event_group_title: '', status_id: undefined, start_time: '', end_time: undefined }))).toEqual({
      event_group_title: ['Title is required'],
      status_id: ['Pick an attendance status'],
      start_time: ['This field is required'],
      end_time: ['This field is required'],
    }));

  it('follows the end date rules: single mode keeps one day, range mode never ends before it starts', () => {
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, single: true }))).toEqual({ end_date: ["With 'Edit only selected day' the end date must be the start date"] });
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, end_date: '2026-11-22' }))).toEqual({ end_date: ['The end date cannot be before the start date'] });
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, end_date: '2027-11-24' }))).toEqual({ end_date: ['An event group may span at most 366 days'] });
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, start_date: '2026-02-30' }))).toEqual({ start_date: ['start_date must be a date as YYYY-MM-DD (optionally with HH:mm:ss)'] });
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse({ ...create, end_time: '08:00' }))).toEqual({ end_time: ['The end time must be after the start time'] });
  });

  it('takes the update payload with the times inside the dates, as the spec sends it', () =>
    expect(
      ZUpdateTrackingStatusInput.parse({ event_id: eventId, event_group_id: groupId, title: 'Half day', status_id: statusId, description: '', start_date: '2026-11-25 13:00:00', end_date: '2026-11-25 17:00', single: true, account_id: accountId }),
    ).toMatchObject({ event_id: eventId, start_date: '2026-11-25', end_date: '2026-11-25', start_time: '13:00:00', end_time: '17:00:00', single: true }));

  it("reads the remove call's single flag as text", () => {
    expect(ZRemoveTrackingStatusInput.parse({ event_id: eventId, event_group_id: groupId, single: 'true', account_id: accountId }).single).toBe(true);
    expect(ZRemoveTrackingStatusInput.parse({ event_id: eventId, event_group_id: groupId, single: 'false', account_id: accountId }).single).toBe(false);
  });
});

describe('attendance statuses and smart cards', () => {
  it('takes Active as 1/0 or true/false, active by default', () => {
    expect(ZAttendanceStatusInput.parse({ title: ' Sick leave ', active: 0 })).toEqual({ title: 'Sick leave', active: false });
    expect(ZAttendanceStatusInput.parse({ title: 'Sick leave', active: '1' })).toEqual({ title: 'Sick leave', active: true });
    expect(ZAttendanceStatusInput.parse({ title: 'Sick leave', active: 1 })).toEqual({ title: 'Sick leave', active: true });
    expect(ZAttendanceStatusInput.parse({ title: 'Sick leave', active: false })).toEqual({ title: 'Sick leave', active: false });
    expect(ZAttendanceStatusInput.parse({ title: 'Sick leave' })).toEqual({ title: 'Sick leave', active: true });
    expect(fieldsOf(ZAttendanceStatusInput.safeParse({ title: '', active: 2 }))).toEqual({ title: ['Title is required'], active: ['active must be 1 or 0'] });
  });

  it('lists 10 cards per page, newest first, by default', () => expect(ZListSmartCardsInput.parse({})).toEqual({ page: 1, limit: 10, sortBy: 'created_at', desc: true }));

  it('assigns an unknown card by its normalised UID', () => {
    expect(ZAssignCardInput.parse({ card_uid: '04-a1-b2-c3', account_id: accountId })).toEqual({ card_uid: '04A1B2C3', account_id: accountId });
    expect(fieldsOf(ZAssignCardInput.safeParse({ card_uid: '04A1', account_id: accountId }))).toEqual({ card_uid: ['Card UID must be 4 to 16 bytes (8 to 32 hex digits)'] });
  });
});

describe('reading and correcting attendance', () => {
  it('needs a day for the daily and weekly views, a month will do for the monthly one', () => {
    expect(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected: 'monthly', date_at: '2026-11' }).success).toBe(true);
    expect(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected: 'weekly', date_at: '2026-11-23' }).success).toBe(true);
    expect(fieldsOf(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected: 'daily', date_at: '2026-11' }))).toEqual({ date_at: ['The daily view needs a day (YYYY-MM-DD)'] });
    expect(fieldsOf(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected: 'yearly', date_at: '2026-11' }))).toEqual({ selected: ['selected must be one of daily, weekly, monthly'] });
  });

  it('takes days and months of years 0001 to 9999 and refuses year 0000 and five-digit years under the field', () => {
    for (const [selected, date_at] of [['daily', '0001-01-01'], ['weekly', '0099-06-15'], ['monthly', '0001-02'], ['weekly', '9999-12-31'], ['monthly', '9999-12']])
      expect(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected, date_at }).success).toBe(true);
    for (const date_at of ['0000-06-15', '0000-06', '10000-01-01', '10000-01'])
      expect(Object.keys(fieldsOf(ZAttendanceByViewInput.safeParse({ account_id: accountId, selected: 'monthly', date_at })))).toEqual(['date_at']);
    const create = { event_group_title: 'Vacation', status_id: statusId, start_date: '0000-12-31', end_date: '0001-01-01', start_time: '09:00', end_time: '17:00', account_id: accountId };
    expect(fieldsOf(ZCreateTrackingStatusInput.safeParse(create)).start_date).toEqual(['start_date must be a date from 0001-01-01 to 9999-12-31']);
    expect(ZCreateTrackingStatusInput.safeParse({ ...create, start_date: '0001-01-01' }).success).toBe(true);
  });

  it('reads the statistics month from a month or a day, and downloads CSV unless XLSX is asked for', () => {
    expect(ZStatisticsQuery.parse({ date_at: '2026-11-23' })).toEqual({ date_at: '2026-11' });
    expect(ZStatisticsDownloadQuery.parse({ date_at: '2026-11' })).toEqual({ date_at: '2026-11', format: 'csv' });
    expect(ZStatisticsDownloadQuery.safeParse({ date_at: '2026-11', format: 'pdf' }).success).toBe(false);
  });

  it('filters the log by a sensible date range', () => {
    expect(ZArrivalsDeparturesQuery.parse({ date_from: '2026-11-01', date_to: '2026-11-30', reader_id: eventId })).toMatchObject({ page: 1, limit: 10, sortBy: 'arrived_at', desc: true });
    expect(fieldsOf(ZArrivalsDeparturesQuery.safeParse({ date_from: '2026-11-30', date_to: '2026-11-01' }))).toEqual({ date_to: ['date_to cannot be before date_from'] });
  });

  it('corrects a slot with a reason; how the times relate is left to the domain (attendance.correction_invalid, compat.md)', () => {
    expect(ZCorrectSlotInput.parse({ arrived_at: '2026-11-23T08:00:00+01:00', departed_at: null, reason: ' forgot the badge ' })).toEqual({ arrived_at: '2026-11-23T08:00:00+01:00', departed_at: null, reason: 'forgot the badge' });
    expect(fieldsOf(ZCorrectSlotInput.safeParse({ arrived_at: '2026-11-23T08:00:00+01:00', departed_at: '2026-11-23T07:00:00Z', reason: '' }))).toEqual({ reason: ['Say why the slot is corrected'] });
    // a departure before the arrival is well-formed input: the domain refuses it with its own code
    expect(ZCorrectSlotInput.safeParse({ arrived_at: '2026-11-23T08:00:00+01:00', departed_at: '2026-11-23T07:00:00Z', reason: 'late' }).success).toBe(true);
  });
});
