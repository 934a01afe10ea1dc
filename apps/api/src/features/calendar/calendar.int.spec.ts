import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';

type CalendarEvent = {
  id: string;
  account_id: string;
  event_group_id: string;
  attendance_status_id: string;
  status_title: string | null;
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  start_event: string;
  end_event: string;
};
type Client = ReturnType<typeof http>;
type Answer = { status: number; body: { error: { code: string; message: string; fields?: Record<string, string[]> } } };

let counter = 0;
const unique = (base: string) => `${base} ${Date.now().toString(36)}${(counter += 1)}`;

const PREFIXES = [
  ['/api/v1', (body: { data?: unknown }) => body],
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

describe.each(storageKinds())('calendar tracking events over REST and tRPC (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let vacation: string;
  let sick: string;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    vacation = (await admin.post('/api/v2/states/attendance/', { title: unique('Vacation'), active: 1 })).body.data.id;
    sick = (await admin.post('/api/v2/states/attendance/', { title: unique('Sick leave'), active: 1 })).body.data.id;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const put = (path: string, body: unknown) => admin.raw('PUT', path, body);
  const del = (path: string, body?: unknown) => admin.raw('DELETE', path, body);
  const calendar = async (accountId: string, month: string) => {
    const response = await admin.get(`/api/v1/account/${accountId}/calendar?date=${month}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as CalendarEvent[];
  };
  /** the dialog's create payload for a range, the spec's field names */
  const createBody = (accountId: string, overrides: Record<string, unknown> = {}) => ({
    event_group_title: 'Summer holiday',
    status_id: vacation,
    start_date: '2026-07-06',
    end_date: '2026-07-08',
    start_time: '00:00:00',
    end_time: '23:59:59',
    description: 'Lake Garda',
    single: false,
    account_id: accountId,
    ...overrides,
  });
  const createGroup = async (accountId: string, overrides: Record<string, unknown> = {}) => {
    const created = await admin.post(`/api/v2/account/${accountId}/tracking-status/`, createBody(accountId, overrides));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.event_group_id as string;
  };
  const expectError = (response: Answer, status: number, code: string, fields?: Record<string, string | RegExp>) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error.code, JSON.stringify(response.body)).toBe(code);
    for (const [field, message] of Object.entries(fields ?? {})) {
      expect(response.body.error.fields?.[field], `${field}: ${JSON.stringify(response.body)}`).toBeDefined();
      if (typeof message === 'string') expect(response.body.error.fields?.[field]).toContain(message);
      else expect(response.body.error.fields?.[field]?.join(' ')).toMatch(message);
    }
  };

  it('creates a group with one event per day of the range on v1, v2 and unprefixed, and lists it by month', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const account = await createAccount(admin);
      const created = await admin.post(`${prefix}/account/${account.id}/tracking-status/`, createBody(account.id, { start_time: '08:00', end_time: '16:30' }));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const { message, event_group_id: groupId } = unwrap(created.body) as { message: string; event_group_id: string };
      expect(message).toBe('Event created successfully');
      const listed = await admin.get(`${prefix}/account/${account.id}/calendar?date=2026-07`);
      expect(listed.status).toBe(200);
      const events = unwrap(listed.body) as CalendarEvent[];
      expect(events.map((e) => [e.start_date, e.end_date])).toEqual([
        ['2026-07-06 08:00:00', '2026-07-06 16:30:00'],
        ['2026-07-07 08:00:00', '2026-07-07 16:30:00'],
        ['2026-07-08 08:00:00', '2026-07-08 16:30:00'],
      ]);
      expect(new Set(events.map((e) => e.id)).size).toBe(3);
      expect(events[0]).toMatchObject({
        account_id: account.id,
        event_group_id: groupId,
        attendance_status_id: vacation,
        status_title: expect.stringContaining('Vacation'),
        title: 'Summer holiday',
        description: 'Lake Garda',
        start_event: '2026-07-06 08:00:00',
        end_event: '2026-07-08 16:30:00',
      });
      expect(unwrap((await admin.get(`${prefix}/account/${account.id}/calendar?date=2026-06`)).body)).toEqual([]);
    }
  });

  it("keeps a group across a month's end in both months, and 'Edit only selected day' makes a one-day group", async () => {
    const account = await createAccount(admin);
    await createGroup(account.id, { start_date: '2026-01-30', end_date: '2026-02-02' });
    expect((await calendar(account.id, '2026-01')).map((e) => e.start_date.slice(0, 10))).toEqual(['2026-01-30', '2026-01-31']);
    expect((await calendar(account.id, '2026-02')).map((e) => e.start_date.slice(0, 10))).toEqual(['2026-02-01', '2026-02-02']);
    await createGroup(account.id, { start_date: '2026-03-10', end_date: '2026-03-10', single: 'true', start_time: '09:00', end_time: '10:00' });
    expect((await calendar(account.id, '2026-03')).map((e) => [e.start_date, e.end_date, e.start_event, e.end_event])).toEqual([
      ['2026-03-10 09:00:00', '2026-03-10 10:00:00', '2026-03-10 09:00:00', '2026-03-10 10:00:00'],
    ]);
  });

  it('enforces every rule of the event dialog on create, each under its field, and writes nothing', async () => {
    const account = await createAccount(admin);
    const inactive = (await admin.post('/api/v2/states/attendance/', { title: unique('Retired status'), active: 0 })).body.data.id;
    const cases: Array<[string, Record<string, unknown>, number, string, Record<string, string | RegExp>]> = [
      ['no start time', { start_time: '' }, 400, 'request.invalid', { start_time: 'This field is required' }],
      ['no end time', { end_time: undefined }, 400, 'request.invalid', { end_time: 'This field is required' }],
      ['no times at all', { start_time: null, end_time: '' }, 400, 'request.invalid', { start_time: 'This field is required', end_time: 'This field is required' }],
      ['a time that is no time', { start_time: '25:00' }, 400, 'request.invalid', { start_time: /HH:mm/ }],
      ['an end time before the start time', { start_time: '10:00', end_time: '09:00' }, 400, 'request.invalid', { end_time: /after the start time/ }],
      ['an end time equal to the start time', { start_time: '10:00', end_time: '10:00:00' }, 400, 'request.invalid', { end_time: /after the start time/ }],
      ['a range ending before it starts', { start_date: '2026-07-08', end_date: '2026-07-06' }, 400, 'request.invalid', { end_date: /cannot be before/ }],
      ['a single day over two dates', { single: true, start_date: '2026-07-08', end_date: '2026-07-09' }, 400, 'request.invalid', { end_date: /Edit only selected day/ }],
      ['a range over 366 days', { start_date: '2026-01-01', end_date: '2027-01-02' }, 400, 'request.invalid', { end_date: /366/ }],
      ['an impossible date', { start_date: '2026-02-30' }, 400, 'request.invalid', { start_date: /YYYY-MM-DD/ }],
      ['no title', { event_group_title: '  ' }, 400, 'request.invalid', { event_group_title: 'Title is required' }],
      ['a title of 256 characters', { event_group_title: 'x'.repeat(256) }, 400, 'request.invalid', { event_group_title: /255/ }],
      ['a description of 2001 characters', { description: 'd'.repeat(2001) }, 400, 'request.invalid', { description: /2000/ }],
      ['no status', { status_id: undefined }, 400, 'request.invalid', { status_id: 'Pick an attendance status' }],
      ['an unknown status', { status_id: randomUUID() }, 404, 'attendance_status.not_found', { status_id: 'Pick an attendance status' }],
      ['an inactive status', { status_id: inactive }, 400, 'attendance_status.inactive', { status_id: 'This status is not active' }],
      ['another account in the body', { account_id: randomUUID() }, 400, 'request.invalid', { account_id: /account of the path/ }],
    ];
    for (const [label, overrides, status, code, fields] of cases) {
      const response = await admin.post(`/api/v1/account/${account.id}/tracking-status`, createBody(account.id, overrides));
      expect(response.status, label).toBe(status);
      expectError(response, status, code, fields);
    }
    // every broken rule at once: one answer lists them all
    const many = await admin.post(`/api/v2/account/${account.id}/tracking-status/`, createBody(account.id, { event_group_title: '', start_time: '', end_date: '2026-07-01' }));
    expect(Object.keys(many.body.error.fields).sort()).toEqual(['end_date', 'event_group_title', 'start_time']);
    expect(await calendar(account.id, '2026-07')).toEqual([]);
    expect(await calendar(account.id, '2026-01')).toEqual([]);
    const nobody = randomUUID();
    expectError(await admin.post(`/api/v2/account/${nobody}/tracking-status/`, createBody(nobody)), 404, 'account.not_found');
    expectError(await admin.post('/api/v2/account/not-a-uuid/tracking-status/', createBody(account.id)), 400, 'request.invalid', { id: /UUID/ });
    expectError(await admin.get(`/api/v2/account/${account.id}/calendar?date=2026-13`), 400, 'request.invalid', { date: /YYYY-MM/ });
  });

  it("changes one day alone with 'Edit only selected day', the others stay; a day may not take a date its group uses", async () => {
    const account = await createAccount(admin);
    const groupId = await createGroup(account.id);
    const [monday, tuesday, wednesday] = await calendar(account.id, '2026-07');
    const single = { event_id: tuesday.id, event_group_id: groupId, title: 'Dentist', description: '', status_id: sick, start_date: '2026-07-07 10:00:00', end_date: '2026-07-07 12:00:00', single: true, account_id: account.id };
    const saved = await put(`/api/v2/account/${account.id}/tracking-status/`, single);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.message).toBe('Event created successfully');
    const after = await calendar(account.id, '2026-07');
    expect(after.find((e) => e.id === tuesday.id)).toMatchObject({ title: 'Dentist', attendance_status_id: sick, start_date: '2026-07-07 10:00:00', end_date: '2026-07-07 12:00:00', start_event: monday.start_event });
    expect(after.find((e) => e.id === monday.id)).toEqual(monday);
    expect(after.find((e) => e.id === wednesday.id)).toEqual(wednesday);

    const before = await calendar(account.id, '2026-07');
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, end_date: '2026-07-08 12:00:00' }), 400, 'request.invalid', { end_date: /Edit only selected day/ });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, start_date: '2026-07-07', end_date: '2026-07-07' }), 400, 'request.invalid', { start_time: 'This field is required', end_time: 'This field is required' });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, start_date: '2026-07-08 10:00:00', end_date: '2026-07-08 12:00:00' }), 409, 'calendar.date_taken', { start_date: /2026-07-08/ });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, title: '' }), 400, 'request.invalid', { title: 'Title is required' });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, event_id: randomUUID() }), 404, 'calendar.event_not_found');
    expectError(await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, event_group_id: randomUUID() }), 404, 'calendar.group_not_found');
    expect(await calendar(account.id, '2026-07')).toEqual(before);

    // a day may move to a date the group does not use
    expect((await put(`/api/v1/account/${account.id}/tracking-status`, { ...single, start_date: '2026-07-10 10:00:00', end_date: '2026-07-10 12:00:00' })).status).toBe(200);
    expect((await calendar(account.id, '2026-07')).map((e) => e.start_date.slice(0, 10))).toEqual(['2026-07-06', '2026-07-08', '2026-07-10']);
  });

  it('changes the whole group: new values and range for every day, days that stay keep their ids, a day edited alone keeps its changes', async () => {
    const account = await createAccount(admin);
    const groupId = await createGroup(account.id);
    const [monday, tuesday] = await calendar(account.id, '2026-07');
    await put(`/api/v2/account/${account.id}/tracking-status/`, { event_id: tuesday.id, event_group_id: groupId, title: 'Alone', description: '', status_id: sick, start_date: '2026-07-07 10:00', end_date: '2026-07-07 11:00', single: false, account_id: account.id });
    const shrunk = await calendar(account.id, '2026-07');
    expect(shrunk.map((e) => [e.id, e.title, e.start_date])).toEqual([[tuesday.id, 'Alone', '2026-07-07 10:00:00']]);

    const group = { event_id: tuesday.id, event_group_id: groupId, title: 'Longer holiday', description: 'Two weeks', status_id: vacation, start_date: '2026-07-06 00:00:00', end_date: '2026-07-17 23:59:59', single: false, account_id: account.id };
    const saved = await put(`/api/v1/account/${account.id}/tracking-status/`, group);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ message: 'Event created successfully', event_group_id: groupId });
    const events = await calendar(account.id, '2026-07');
    expect(events).toHaveLength(12);
    expect(events.find((e) => e.start_date.startsWith('2026-07-07'))?.id).toBe(tuesday.id);
    expect(events.find((e) => e.start_date.startsWith('2026-07-06'))?.id).not.toBe(monday.id);
    expect(events.every((e) => e.title === 'Longer holiday' && e.attendance_status_id === vacation && e.start_event === '2026-07-06 00:00:00' && e.end_event === '2026-07-17 23:59:59')).toBe(true);

    // a day edited alone keeps its changes through the next change of the group
    await put(`/api/v1/account/${account.id}/tracking-status/`, { ...group, event_id: events[2].id, title: 'Alone again', start_date: '2026-07-08 08:00', end_date: '2026-07-08 09:00', single: true });
    expect((await calendar(account.id, '2026-07'))[2].title).toBe('Alone again');
    await put(`/api/v1/account/${account.id}/tracking-status/`, { ...group, description: 'Changed' });
    const kept = await calendar(account.id, '2026-07');
    expect(kept[2]).toMatchObject({ title: 'Alone again', description: 'Two weeks', start_date: '2026-07-08 08:00:00' });
    expect(kept.filter((e) => e.id !== events[2].id).every((e) => e.title === 'Longer holiday' && e.description === 'Changed')).toBe(true);

    const before = await calendar(account.id, '2026-07');
    expectError(await put(`/api/v1/account/${account.id}/tracking-status/`, { ...group, start_date: '2026-07-17 00:00', end_date: '2026-07-06 23:00' }), 400, 'request.invalid', { end_date: /cannot be before/ });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status/`, { ...group, start_date: '2026-07-06 10:00', end_date: '2026-07-17 09:00' }), 400, 'request.invalid', { end_time: /after the start time/ });
    expectError(await put(`/api/v1/account/${account.id}/tracking-status/`, { ...group, status_id: randomUUID() }), 404, 'attendance_status.not_found', { status_id: 'Pick an attendance status' });
    expect(await calendar(account.id, '2026-07')).toEqual(before);
  });

  it('keeps a day changed alone when the whole group is renamed, names it, and resets it only when asked', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const account = await createAccount(admin);
    const groupId = await createGroup(account.id, { event_group_title: 'Conference', start_date: '2026-11-16', end_date: '2026-11-20', start_time: '09:00', end_time: '17:00' });
    const days = await calendar(account.id, '2026-11');
    const the18th = days.find((e) => e.start_date.startsWith('2026-11-18'))!;
    expect(await client.calendar.daysChangedAlone.query({ account_id: account.id, event_group_id: groupId })).toEqual({ changed_alone: [], group: { title: 'Conference', description: 'Lake Garda', status_id: vacation } });
    const alone = await put(`/api/v1/account/${account.id}/tracking-status/`, { event_id: the18th.id, event_group_id: groupId, title: 'Travel day', description: 'Train', status_id: sick, start_date: '2026-11-18 12:00', end_date: '2026-11-18 15:00', single: true, account_id: account.id });
    expect(alone.status, JSON.stringify(alone.body)).toBe(200);
    expect(await client.calendar.daysChangedAlone.query({ account_id: account.id, event_group_id: groupId })).toMatchObject({ changed_alone: [{ event_id: the18th.id, date: '2026-11-18' }], group: { title: 'Conference' } });

    // the whole group renamed, named through another day: the 18th keeps its own values
    const whole = { event_id: days[0].id, event_group_id: groupId, title: 'Summit', description: 'Berlin', status_id: vacation, start_date: '2026-11-16 08:00', end_date: '2026-11-20 16:00', single: false, account_id: account.id };
    expect((await put(`/api/v1/account/${account.id}/tracking-status/`, whole)).status).toBe(200);
    const renamed = await calendar(account.id, '2026-11');
    expect(renamed.map((e) => [e.start_date, e.title, e.attendance_status_id])).toEqual([
      ['2026-11-16 08:00:00', 'Summit', vacation],
      ['2026-11-17 08:00:00', 'Summit', vacation],
      ['2026-11-18 12:00:00', 'Travel day', sick],
      ['2026-11-19 08:00:00', 'Summit', vacation],
      ['2026-11-20 08:00:00', 'Summit', vacation],
    ]);
    expect(renamed[2]).toMatchObject({ id: the18th.id, description: 'Train', end_date: '2026-11-18 15:00:00', start_event: '2026-11-16 08:00:00' });
    expect(await client.calendar.daysChangedAlone.query({ account_id: account.id, event_group_id: groupId })).toEqual({ changed_alone: [{ event_id: the18th.id, date: '2026-11-18' }], group: { title: 'Summit', description: 'Berlin', status_id: vacation } });
    // the same change again records nothing new: the 18th still keeps its values
    expect((await put(`/api/v2/account/${account.id}/tracking-status/`, whole)).status).toBe(200);
    expect(await calendar(account.id, '2026-11')).toEqual(renamed);

    // not a boolean: named, nothing written
    expectError(await put(`/api/v1/account/${account.id}/tracking-status/`, { ...whole, reset_changed_days: 'maybe' }), 400, 'request.invalid', { reset_changed_days: /./ });
    expect(await calendar(account.id, '2026-11')).toEqual(renamed);

    // asked to reset: the 18th takes the group's values, and is no longer changed alone
    expect((await put(`/api/v2/account/${account.id}/tracking-status/`, { ...whole, reset_changed_days: true })).status).toBe(200);
    const reset = await calendar(account.id, '2026-11');
    expect(reset.every((e) => e.title === 'Summit' && e.description === 'Berlin' && e.attendance_status_id === vacation && e.end_date.endsWith('16:00:00'))).toBe(true);
    expect(reset.find((e) => e.start_date.startsWith('2026-11-18'))?.id).toBe(the18th.id);
    expect((await client.calendar.daysChangedAlone.query({ account_id: account.id, event_group_id: groupId })).changed_alone).toEqual([]);

    // another account's group is not found, as for writes
    const other = await createAccount(admin);
    const refused = (await client.calendar.daysChangedAlone.query({ account_id: other.id, event_group_id: groupId }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(refused.data?.httpStatus).toBe(404);
  });

  it('lets an event keep a status made inactive since, but refuses it newly picked; a status in use cannot be deleted', async () => {
    const account = await createAccount(admin);
    const title = unique('Seasonal');
    const seasonal = (await admin.post('/api/v2/states/attendance/', { title, active: 1 })).body.data.id as string;
    const groupId = await createGroup(account.id, { status_id: seasonal });
    const other = await createGroup(account.id, { start_date: '2026-07-20', end_date: '2026-07-20' });
    expect((await admin.raw('PATCH', `/api/v2/states/attendance/${seasonal}`, { title, active: 0 })).status).toBe(200);
    const [first] = await calendar(account.id, '2026-07');
    const changed = await put(`/api/v2/account/${account.id}/tracking-status/`, { event_id: first.id, event_group_id: groupId, title: 'Renamed', description: '', status_id: seasonal, start_date: '2026-07-06 00:00', end_date: '2026-07-08 23:59', single: false });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const otherEvent = (await calendar(account.id, '2026-07')).find((e) => e.event_group_id === other)!;
    expectError(
      await put(`/api/v2/account/${account.id}/tracking-status/`, { event_id: otherEvent.id, event_group_id: other, title: 'x', description: '', status_id: seasonal, start_date: '2026-07-20 00:00', end_date: '2026-07-20 23:59', single: false }),
      400,
      'attendance_status.inactive',
      { status_id: 'This status is not active' },
    );
    expectError(await admin.raw('DELETE', `/api/v2/states/attendance/${seasonal}`), 409, 'attendance_status.in_use');
    expect((await calendar(account.id, '2026-07')).filter((e) => e.attendance_status_id === seasonal)).toHaveLength(3);
  });

  it("removes one day (single 'true') or the whole group (single 'false'); the last day takes its group along", async () => {
    const account = await createAccount(admin);
    const groupId = await createGroup(account.id);
    const [monday, tuesday, wednesday] = await calendar(account.id, '2026-07');
    const removed = await del(`/api/v2/account/${account.id}/tracking-status?event_id=${tuesday.id}&event_group_id=${groupId}&single=true&account_id=${account.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toEqual({ data: { message: 'Event removed successfully' } });
    expect((await calendar(account.id, '2026-07')).map((e) => e.id)).toEqual([monday.id, wednesday.id]);
    expectError(await del(`/api/v1/account/${account.id}/tracking-status`, { event_id: tuesday.id, event_group_id: groupId, single: 'true' }), 404, 'calendar.event_not_found');
    // a change of the group leaves a day removed alone removed
    await put(`/api/v1/account/${account.id}/tracking-status/`, { event_id: monday.id, event_group_id: groupId, title: 'Again', description: '', status_id: vacation, start_date: '2026-07-06 00:00', end_date: '2026-07-08 23:59', single: false });
    expect((await calendar(account.id, '2026-07')).map((e) => e.id)).toEqual([monday.id, wednesday.id]);

    expect((await del(`/api/v1/account/${account.id}/tracking-status`, { event_id: monday.id, event_group_id: groupId, single: 'true' })).status).toBe(200);
    expect((await del(`/api/v1/account/${account.id}/tracking-status`, { event_id: wednesday.id, event_group_id: groupId, single: 'true' })).status).toBe(200);
    expect(await calendar(account.id, '2026-07')).toEqual([]);
    expectError(await put(`/api/v1/account/${account.id}/tracking-status/`, { event_id: monday.id, event_group_id: groupId, title: 'Gone', description: '', status_id: vacation, start_date: '2026-07-06 00:00', end_date: '2026-07-08 23:59', single: false }), 404, 'calendar.group_not_found');

    const whole = await createGroup(account.id, { start_date: '2026-07-20', end_date: '2026-07-24' });
    const [day] = await calendar(account.id, '2026-07');
    expectError(await del(`/api/v1/account/${account.id}/tracking-status?event_id=${day.id}&event_group_id=${whole}`), 400, 'request.invalid', { single: /./ });
    expect((await del(`/api/v1/account/${account.id}/tracking-status?event_id=${day.id}&event_group_id=${whole}&single=false`)).status).toBe(200);
    expect(await calendar(account.id, '2026-07')).toEqual([]);
  });

  it("refuses another account's group (404) and keeps each account's calendar to itself", async () => {
    const ada = await createAccount(admin);
    const alan = await createAccount(admin);
    const groupId = await createGroup(ada.id);
    const [event] = await calendar(ada.id, '2026-07');
    expect(await calendar(alan.id, '2026-07')).toEqual([]);
    const before = await calendar(ada.id, '2026-07');
    expectError(await put(`/api/v1/account/${alan.id}/tracking-status/`, { event_id: event.id, event_group_id: groupId, title: 'Stolen', description: '', status_id: vacation, start_date: '2026-07-06 00:00', end_date: '2026-07-08 23:59', single: false }), 404, 'calendar.group_not_found');
    expectError(await del(`/api/v1/account/${alan.id}/tracking-status`, { event_id: event.id, event_group_id: groupId, single: 'false' }), 404, 'calendar.group_not_found');
    expect(await calendar(ada.id, '2026-07')).toEqual(before);
  });

  it('lets attendance:read look but not write, and refuses an account without attendance permissions', async () => {
    const account = await createAccount(admin);
    await createGroup(account.id);
    const adminId = (await admin.get('/api/v1/account/current')).body.id;
    const issued = await admin.post('/api/v1/token', { title: 'Calendar reader', forever: true, permissions: ['attendance:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    expect((await reader.get(`/api/v2/account/${account.id}/calendar?date=2026-07`)).body.data).toHaveLength(3);
    expect((await reader.post(`/api/v2/account/${account.id}/tracking-status/`, createBody(account.id))).status).toBe(403);
    const plain = await createAccount(admin);
    const session = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    expect([403, 404]).toContain((await session.get(`/api/v2/account/${account.id}/calendar?date=2026-07`)).status);
    expect([403, 404]).toContain((await session.post(`/api/v2/account/${account.id}/tracking-status/`, createBody(account.id))).status);
    expect(await calendar(account.id, '2026-07')).toHaveLength(3);
  });

  it('serves the console through tRPC: a week across two months, create, update and remove', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const account = await createAccount(admin);
    const created = await client.calendar.create.mutate(createBody(account.id, { start_date: '2026-08-30', end_date: '2026-09-02' }));
    expect(created.message).toBe('Event created successfully');
    const week = await client.calendar.events.query({ account_id: account.id, from: '2026-08-31', to: '2026-09-06' });
    expect(week.map((e) => e.start_date.slice(0, 10))).toEqual(['2026-08-31', '2026-09-01', '2026-09-02']);
    const updated = await client.calendar.update.mutate({ account_id: account.id, event_id: week[0].id, event_group_id: created.event_group_id, title: 'One day', description: '', status_id: sick, start_date: '2026-08-31 09:00', end_date: '2026-08-31 17:00', single: true });
    expect(updated.message).toBe('Event created successfully');
    const required = (await client.calendar.create.mutate(createBody(account.id, { start_time: '', end_time: '' })).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(required).toBeInstanceOf(TRPCClientError);
    expect(required.data?.httpStatus).toBe(400);
    expect(required.data?.apiError.fields).toMatchObject({ start_time: ['This field is required'], end_time: ['This field is required'] });
    const tooLong = (await client.calendar.events.query({ account_id: account.id, from: '2026-01-01', to: '2026-12-31' }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(tooLong.data?.httpStatus).toBe(400);
    expect(await client.calendar.remove.mutate({ account_id: account.id, event_id: week[0].id, event_group_id: created.event_group_id, single: 'false' })).toEqual({ message: 'Event removed successfully' });
    expect(await client.calendar.events.query({ account_id: account.id, from: '2026-08-01', to: '2026-09-30' })).toEqual([]);
  });
});
