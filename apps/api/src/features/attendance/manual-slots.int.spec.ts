import type { TAccountAttendance, TArrivalDeparture, TPage } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;
const DAY = 86_400_000;
/** a day some days ago, as YYYY-MM-DD (UTC: the accounts here have no zone of their own, or Tokyo's, named per test) */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

describe.each(storageKinds())('slots added by hand (%s)', (kind) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let app: TestApp;
  let admin: Client;
  const made = {} as { a: string; b: string; alice: string; bob: string; tokyo: string; orgAdmin: Client; plain: Client };

  const record = (body: unknown, client = admin) => client.post('/api/v2/logs/arrivals-departures', body);
  const log = async (query: Record<string, string>) => {
    const response = await admin.get(`/api/v2/logs/arrivals-departures?${new URLSearchParams({ limit: '100', ...query })}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as TPage<TArrivalDeparture>;
  };
  const organization = async (title: string) => {
    const created = await admin.post('/api/v2/organization', { title, description: 'manual slots' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    made.a = await organization(`Manual A ${tag}`);
    made.b = await organization(`Manual B ${tag}`);
    made.alice = (await createAccount(admin, { organization: made.a })).id;
    made.bob = (await createAccount(admin, { organization: made.b })).id;
    const tokyo = await createAccount(admin, { organization: made.a });
    made.tokyo = tokyo.id;
    const zoned = await admin.raw('PUT', `/api/v1/account/${tokyo.id}`, { first_name: tokyo.first_name, last_name: tokyo.last_name, email: tokyo.email, time_zone: 'Asia/Tokyo' });
    expect(zoned.status, JSON.stringify(zoned.body)).toBeLessThan(300);

    const permissions: string[] = [];
    for (const slug of ['attendance:read', 'attendance:write']) {
      const permission = await admin.post('/api/v2/permission', { organization_id: made.a, title: `${slug} ${tag}`, slug, description: '' });
      permissions.push(permission.body.data.id);
    }
    const role = await admin.post(`/api/v2/organization/${made.a}/role`, { title: `Attendance ${tag}`, slug: `attendance-${tag}`, description: '', permissions });
    const orgAdmin = await createAccount(admin, { organization: made.a });
    expect((await admin.post(`/api/v2/organization/${made.a}/account-role`, { account_id: orgAdmin.id, role_id: role.body.data.id })).status).toBe(200);
    made.orgAdmin = http(app.url, await signIn(app.url, { username: orgAdmin.username, password: orgAdmin.password }));
    const plain = await createAccount(admin);
    made.plain = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('adds a slot with its reason; the log and the Attendance tab show it as added by hand', async () => {
    const day = daysAgo(3);
    const added = await record({ account_id: made.alice, arrived_at: `${day}T08:00`, departed_at: `${day}T12:15`, reason: 'Reader at the side door was down' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ account_id: made.alice, day, arrived_at: `${day}T08:00:00.000Z`, departed_at: `${day}T12:15:00.000Z` });

    const rows = (await log({ account_id: made.alice })).data;
    const row = rows.find((candidate) => candidate.id === added.body.data.id);
    expect(row).toMatchObject({ day, arrival: null, departure: null, flags: ['manual'], corrected: false, manual: { reason: 'Reader at the side door was down', recorded_by_name: expect.any(String) as string } });

    const tab = await admin.get(`/api/v2/account/${made.alice}/attendance/daily?date_at=${day}`);
    expect(tab.status, JSON.stringify(tab.body)).toBe(200);
    const entry = (tab.body.data as TAccountAttendance).attendance.find((candidate) => candidate.arrived !== null);
    expect(entry).toMatchObject({ time_logged: 4 * 3600 + 15 * 60, manual: { reason: 'Reader at the side door was down' } });
  });

  it('reads times without a zone in the account\'s zone, which draws the day', async () => {
    const day = daysAgo(3);
    const added = await record({ account_id: made.tokyo, arrived_at: `${day}T00:30`, departed_at: null, reason: 'Came in before the reader was set up' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ day, arrived_at: new Date(Date.parse(`${day}T00:30:00+09:00`)).toISOString(), departed_at: null });
  });

  it('refuses an overlap, the future, a missing reason and a malformed time, naming the field', async () => {
    const day = daysAgo(4);
    expect((await record({ account_id: made.alice, arrived_at: `${day}T09:00`, departed_at: `${day}T17:00`, reason: 'first' })).status).toBe(201);
    const overlap = await record({ account_id: made.alice, arrived_at: `${day}T16:00`, departed_at: `${day}T18:00`, reason: 'second' });
    expect(overlap.status).toBe(400);
    expect(overlap.body.error).toMatchObject({ code: 'attendance.manual_slot_invalid', fields: { arrived_at: [expect.stringContaining('overlap')] } });

    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const future = await record({ account_id: made.alice, arrived_at: `${tomorrow}T09:00`, reason: 'not yet' });
    expect(future.status).toBe(400);
    expect(future.body.error.fields).toEqual({ arrived_at: ['The arrival cannot be in the future'] });

    const noReason = await record({ account_id: made.alice, arrived_at: `${daysAgo(5)}T09:00`, reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(Object.keys(noReason.body.error.fields as object)).toEqual(['reason']);

    const malformed = await record({ account_id: made.alice, arrived_at: '09:00', reason: 'x' });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.error.fields as object)).toEqual(['arrived_at']);
  });

  it('shows absences (attendance statuses in the calendar) per day in the Attendance tab and counted per status in the statistics and its download', async () => {
    const status = await admin.post('/api/v2/states/attendance/', { title: `Vacation ${tag}`, active: 1 });
    expect(status.status, JSON.stringify(status.body)).toBe(201);
    const statusId = status.body.data.id as string;
    // bob, two days of vacation this month (or last month's end when the month is young): an account with absences only
    const end = daysAgo(1);
    const start = end.slice(8) === '01' ? end : daysAgo(2);
    const group = await admin.post(`/api/v2/account/${made.bob}/tracking-status/`, {
      event_group_title: 'Summer holiday', status_id: statusId, start_date: start, end_date: end, start_time: '00:00:00', end_time: '23:59:59', description: '', single: false, account_id: made.bob,
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);

    const tab = await admin.get(`/api/v2/account/${made.bob}/attendance/daily?date_at=${end}`);
    expect(tab.status, JSON.stringify(tab.body)).toBe(200);
    expect((tab.body.data as TAccountAttendance).attendance).toEqual([expect.objectContaining({ day: end, arrived: null, absences: [{ day: end, status_id: statusId, status: `Vacation ${tag}`, title: 'Summer holiday' }] })]);

    const month = end.slice(0, 7);
    const days = start.slice(0, 7) === month ? 2 : 1;
    const statistics = await admin.get(`/api/v2/accounts/statistics/attendance?date_at=${month}&organization_id=${made.b}`);
    expect(statistics.status, JSON.stringify(statistics.body)).toBe(200);
    expect(statistics.body.data.statuses).toEqual([{ status_id: statusId, status: `Vacation ${tag}` }]);
    expect(statistics.body.data.data).toEqual([expect.objectContaining({ account_id: made.bob, days_present: 0, absences: [{ status_id: statusId, status: `Vacation ${tag}`, days }] })]);

    const csv = await admin.get(`/api/v2/accounts/statistics/attendance/download?date_at=${month}&organization_id=${made.b}&format=csv`);
    expect(csv.status).toBe(200);
    const [header, line] = String(csv.body).split('\r\n');
    expect(header.split(',').at(-1)).toBe(`Days: Vacation ${tag}`);
    expect(line.split(',').at(-1)).toBe(String(days));
  });

  it('is attendance:write on the account: an organization administrator inside the subtree only; an account out of reach is not found', async () => {
    const day = daysAgo(6);
    const inside = await record({ account_id: made.alice, arrived_at: `${day}T08:00`, departed_at: `${day}T09:00`, reason: 'org admin' }, made.orgAdmin);
    expect(inside.status, JSON.stringify(inside.body)).toBe(201);
    const outside = await record({ account_id: made.bob, arrived_at: `${day}T08:00`, departed_at: `${day}T09:00`, reason: 'org admin' }, made.orgAdmin);
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe('account.not_found');
    const plain = await record({ account_id: made.alice, arrived_at: `${day}T10:00`, departed_at: `${day}T11:00`, reason: 'plain' }, made.plain);
    expect(plain.status).toBe(403);
  });
});
