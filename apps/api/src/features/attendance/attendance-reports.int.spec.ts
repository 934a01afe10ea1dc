import type { TAccountAttendance, TAttendanceStatistics } from '@rollcall/contracts';
import { Workbook } from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/**
 * The Attendance tab and the statistics over HTTP, with slots made by door scans at chosen device
 * times in February 2026 (past, so every day of a window counts). Berlin is UTC+1 then: a scan at
 * 2026-01-31T23:30Z is 1 February 00:30 there, and January for an account without a zone (UTC).
 */
describe.each(storageKinds())('attendance tab and statistics (%s)', (kind) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let app: TestApp;
  let admin: Client;
  let adminToken: string;
  let reader: { client: Client; sequence: number };
  /** the server's log: a date it accepts must never end as a logged error */
  const logLines: string[] = [];
  const made = {} as { a: string; b: string; berlin: string; utc: string; other: string; orgAdmin: Client; orgAdminToken: string; plain: Client };

  const scan = async (uid: string, at: string) => {
    const body = { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: at }] };
    const response = await reader.client.post('/api/v2/reader/scans', body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.acks[0].status, JSON.stringify(response.body)).toBe('accepted');
    return response.body.acks[0].outcome as string;
  };
  const organization = async (title: string) => {
    const created = await admin.post('/api/v2/organization', { title, description: 'attendance reports' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };
  let cards = 0;
  /** an account of the organization holding a fresh card, in `zone` when given */
  const holder = async (organizationId: string, zone?: string, names: Record<string, string> = {}) => {
    const account = await createAccount(admin, { organization: organizationId, ...names });
    if (zone) {
      const saved = await admin.raw('PUT', `/api/v1/account/${account.id}`, { first_name: account.first_name, last_name: account.last_name, email: account.email, time_zone: zone });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const uid = `04${(0x10000000 + (cards += 1) * 7919 + Math.floor(Math.random() * 1_000_000)).toString(16).toUpperCase()}`;
    const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    return { id: account.id, uid };
  };
  const attendance = async (accountId: string, selected: string, dateAt?: string, client = admin) => {
    const response = await client.get(`/api/v1/account/${accountId}/attendance/${selected}${dateAt ? `?date_at=${dateAt}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as TAccountAttendance;
  };
  const statistics = async (query: Record<string, string>, client = admin) => {
    const response = await client.get(`/api/v2/accounts/statistics/attendance?${new URLSearchParams(query)}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as TAttendanceStatistics;
  };
  const download = (query: Record<string, string>, token = adminToken, prefix = '/api/v1') =>
    fetch(`${app.url}${prefix}/accounts/statistics/attendance/download?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    app = await startTestApp(kind, {}, undefined, { write: (line: string) => void logLines.push(line) });
    adminToken = await signIn(app.url);
    admin = http(app.url, adminToken);
    const created = await admin.post('/api/v2/readers', { name: `Reports ${tag}`, door: 'Main entrance', role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    reader = { client: http(app.url, issued.body.data.token), sequence: 0 };
    made.a = await organization(`Reports A ${tag}`);
    made.b = await organization(`Reports B ${tag}`);

    const berlin = await holder(made.a, 'Europe/Berlin');
    const utc = await holder(made.a);
    const other = await holder(made.b, undefined, { first_name: '=Eve' });
    Object.assign(made, { berlin: berlin.id, utc: utc.id, other: other.id });

    // Berlin (UTC+1): Sun 1 Feb 00:30-02:30; Mon 2 Feb 08:00-12:00 and 13:00-17:00; Wed 4 Feb 09:00-18:00; Sun 8 Feb in at 10:00, never out
    for (const at of ['2026-01-31T23:30:00Z', '2026-02-01T01:30:00Z', '2026-02-02T07:00:00Z', '2026-02-02T11:00:00Z', '2026-02-02T12:00:00Z', '2026-02-02T16:00:00Z', '2026-02-04T08:00:00Z', '2026-02-04T17:00:00Z', '2026-02-08T09:00:00Z']) await scan(berlin.uid, at);
    // the same instants of 31 January for an account in UTC
    expect(await scan(utc.uid, '2026-01-31T23:30:00Z')).toBe('arrival');
    expect(await scan(utc.uid, '2026-02-01T01:30:00Z')).toBe('departure');
    // another organization's account: Tue 3 Feb 07:00-15:00 UTC
    await scan(other.uid, '2026-02-03T07:00:00Z');
    await scan(other.uid, '2026-02-03T15:00:00Z');

    // an administrator of A: attendance:read through a role of A only
    const permission = await admin.post('/api/v2/permission', { organization_id: made.a, title: `attendance:read ${tag}`, slug: 'attendance:read', description: '' });
    expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
    const role = await admin.post(`/api/v2/organization/${made.a}/role`, { title: `Reports ${tag}`, slug: `reports-${tag}`, description: '', permissions: [permission.body.data.id] });
    expect(role.status, JSON.stringify(role.body)).toBeLessThan(300);
    const orgAdmin = await createAccount(admin, { organization: made.a });
    expect((await admin.post(`/api/v2/organization/${made.a}/account-role`, { account_id: orgAdmin.id, role_id: role.body.data.id })).status).toBe(200);
    made.orgAdminToken = await signIn(app.url, { username: orgAdmin.username, password: orgAdmin.password });
    made.orgAdmin = http(app.url, made.orgAdminToken);
    const plain = await createAccount(admin);
    made.plain = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  describe('the Attendance tab', () => {
    it('shows a week from Monday to Sunday: slots, days without data, the time logged and the averages in the account zone', async () => {
      const week = await attendance(made.berlin, 'weekly', '2026-02-04');
      expect({ from: week.from, to: week.to, time_zone: week.time_zone, selected: week.selected }).toEqual({ from: '2026-02-02', to: '2026-02-08', time_zone: 'Europe/Berlin', selected: 'weekly' });
      expect(week.attendance.map((row) => [row.day, row.arrived?.created_at ?? null, row.departed?.created_at ?? null, row.time_logged])).toEqual([
        ['2026-02-02', '2026-02-02T07:00:00.000Z', '2026-02-02T11:00:00.000Z', 4 * 3600],
        ['2026-02-02', '2026-02-02T12:00:00.000Z', '2026-02-02T16:00:00.000Z', 4 * 3600],
        ['2026-02-03', null, null, 0],
        ['2026-02-04', '2026-02-04T08:00:00.000Z', '2026-02-04T17:00:00.000Z', 9 * 3600],
        ['2026-02-05', null, null, 0],
        ['2026-02-06', null, null, 0],
        ['2026-02-07', null, null, 0],
        ['2026-02-08', '2026-02-08T09:00:00.000Z', null, 0],
      ]);
      expect(week.total_time_logged).toBe(17 * 3600);
      // first arrivals 08:00, 09:00, 10:00 local; last departures 17:00, 18:00; 17 h over the two days that logged time
      expect(week.extra).toEqual([{ average_arrival: '09:00:00', average_departure: '17:30:00', average_working_hours: 8.5 * 3600 }]);
      // a Sunday and a Monday name the same week (weeks start on Monday)
      expect((await attendance(made.berlin, 'weekly', '2026-02-08')).from).toBe('2026-02-02');
      expect((await attendance(made.berlin, 'weekly', '2026-02-02')).to).toBe('2026-02-08');
      expect((await attendance(made.berlin, 'weekly', '2026-02-01')).from).toBe('2026-01-26');
    });

    it('shows a day, and a day without data as one row with averages absent', async () => {
      const day = await attendance(made.berlin, 'daily', '2026-02-02');
      expect(day.attendance).toHaveLength(2);
      expect(day.total_time_logged).toBe(8 * 3600);
      expect(day.extra[0]).toEqual({ average_arrival: '08:00:00', average_departure: '17:00:00', average_working_hours: 8 * 3600 });
      const empty = await attendance(made.berlin, 'daily', '2026-02-03');
      expect(empty.attendance).toEqual([{ day: '2026-02-03', arrived: null, departed: null, time_logged: 0 }]);
      expect(empty.total_time_logged).toBe(0);
      expect(empty.extra).toEqual([{ average_arrival: null, average_departure: null, average_working_hours: null }]);
    });

    it("draws month boundaries in the account's zone: 00:30 on 1 February in Berlin is 31 January in UTC", async () => {
      const february = await attendance(made.berlin, 'monthly', '2026-02');
      expect([february.from, february.to]).toEqual(['2026-02-01', '2026-02-28']);
      expect(february.attendance[0]).toEqual({ day: '2026-02-01', arrived: { created_at: '2026-01-31T23:30:00.000Z' }, departed: { created_at: '2026-02-01T01:30:00.000Z' }, time_logged: 7200 });
      // 5 slots and 24 days without one
      expect(february.attendance).toHaveLength(29);
      expect(february.total_time_logged).toBe(19 * 3600);
      expect(february.extra[0]).toEqual({ average_arrival: '06:52:30', average_departure: '12:30:00', average_working_hours: 22_800 });
      // a day names its month; January in Berlin holds nothing
      const january = await attendance(made.berlin, 'monthly', '2026-01-15');
      expect([january.from, january.to, january.attendance.length, january.total_time_logged]).toEqual(['2026-01-01', '2026-01-31', 31, 0]);
      expect(january.attendance.every((row) => row.arrived === null)).toBe(true);

      // the same instants for the account in UTC belong to 31 January, on v2 and unprefixed too
      const utcJanuary = await admin.get(`/api/v2/account/${made.utc}/attendance/monthly?date_at=2026-01`);
      expect(utcJanuary.status).toBe(200);
      expect(utcJanuary.body.data.time_zone).toBe('UTC');
      expect(utcJanuary.body.data.attendance.filter((row: { arrived: unknown }) => row.arrived !== null)).toEqual([{ day: '2026-01-31', arrived: { created_at: '2026-01-31T23:30:00.000Z' }, departed: { created_at: '2026-02-01T01:30:00.000Z' }, time_logged: 7200 }]);
      expect(utcJanuary.body.data.extra[0]).toEqual({ average_arrival: '23:30:00', average_departure: '01:30:00', average_working_hours: 7200 });
      const unprefixed = await admin.get(`/api/account/${made.utc}/attendance/monthly?date_at=2026-02`);
      expect(unprefixed.body.data.total_time_logged).toBe(0);
    });

    it('reads today in the account zone when date_at is left out, and answers on tRPC', async () => {
      const today = await attendance(made.berlin, 'daily');
      expect(today.from).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()));
      const trpc = await admin.get(`/trpc/attendanceReports.ofAccount?input=${encodeURIComponent(JSON.stringify({ account_id: made.berlin, selected: 'weekly', date_at: '2026-02-04' }))}`);
      expect(trpc.status, JSON.stringify(trpc.body)).toBe(200);
      expect(trpc.body.result.data.total_time_logged).toBe(17 * 3600);
    });

    it('refuses a bad view or date with a 400 naming the field, an unknown account with 404, and readers without attendance:read', async () => {
      const bad = async (path: string, field: string) => {
        const response = await admin.get(path);
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(400);
        expect(Object.keys(response.body.error.fields ?? {}), path).toEqual([field]);
        return response.body.error;
      };
      expect((await bad(`/api/v1/account/${made.berlin}/attendance/yearly`, 'selected')).fields.selected[0]).toContain('daily, weekly, monthly');
      await bad(`/api/v2/account/${made.berlin}/attendance/daily?date_at=2026-02-30`, 'date_at');
      await bad(`/api/v2/account/${made.berlin}/attendance/daily?date_at=yesterday`, 'date_at');
      expect((await bad(`/api/v1/account/${made.berlin}/attendance/weekly?date_at=2026-02`, 'date_at')).fields.date_at[0]).toContain('needs a day');
      expect((await admin.get('/api/v1/account/00000000-0000-4000-8000-000000000000/attendance/daily')).status).toBe(404);
      expect((await made.plain.get(`/api/v1/account/${made.berlin}/attendance/daily`)).status).toBe(403);
      // an administrator of A reads A's account, not B's
      expect((await made.orgAdmin.get(`/api/v2/account/${made.berlin}/attendance/daily?date_at=2026-02-02`)).status).toBe(200);
      expect([403, 404]).toContain((await made.orgAdmin.get(`/api/v2/account/${made.other}/attendance/daily?date_at=2026-02-03`)).status);
    });
  });

  describe('the statistics', () => {
    it('sums each account of the month: days present, time logged and averages, with the month summary and its days', async () => {
      const february = await statistics({ date_at: '2026-02' });
      expect(february.month).toBe('2026-02');
      const berlin = february.data.find((row) => row.account_id === made.berlin);
      expect(berlin).toMatchObject({ days_present: 4, total_time_logged: 19 * 3600, average_arrival: '06:52:30', average_departure: '12:30:00', average_working_hours: 22_800 });
      const other = february.data.find((row) => row.account_id === made.other);
      expect(other).toMatchObject({ first_name: '=Eve', days_present: 1, total_time_logged: 8 * 3600, average_arrival: '07:00:00', average_departure: '15:00:00', average_working_hours: 8 * 3600 });
      // the UTC account's slot is January's
      expect(february.data.map((row) => row.account_id).sort()).toEqual([made.berlin, made.other].sort());
      expect(february.summary).toMatchObject({ accounts: 2, days_present: 5, total_time_logged: 27 * 3600 });
      expect(february.days).toEqual([
        { day: '2026-02-01', present: 1, total_time_logged: 7200 },
        { day: '2026-02-02', present: 1, total_time_logged: 8 * 3600 },
        { day: '2026-02-03', present: 1, total_time_logged: 8 * 3600 },
        { day: '2026-02-04', present: 1, total_time_logged: 9 * 3600 },
        { day: '2026-02-08', present: 1, total_time_logged: 0 },
      ]);
      const january = await statistics({ date_at: '2026-01-20' });
      expect(january.data.map((row) => [row.account_id, row.total_time_logged])).toEqual([[made.utc, 7200]]);
    });

    it('pages by name and filters by organization', async () => {
      const first = await statistics({ date_at: '2026-02', limit: '1' });
      const second = await statistics({ date_at: '2026-02', limit: '1', page: '2' });
      expect([first.total, first.last_page, first.data.length, second.data.length]).toEqual([2, 2, 1, 1]);
      expect(first.data[0].account_id).not.toBe(second.data[0].account_id);
      expect(first.summary.accounts).toBe(2);
      expect((await statistics({ date_at: '2026-02', organization_id: made.b })).data.map((row) => row.account_id)).toEqual([made.other]);
      const v1 = await admin.get('/api/v1/accounts/statistics/attendance?date_at=2026-02');
      expect(v1.body.total).toBe(2);
    });

    it("keeps an organization administrator to their organizations' accounts, on the screen and in the files", async () => {
      const seen = await statistics({ date_at: '2026-02' }, made.orgAdmin);
      expect(seen.data.map((row) => row.account_id)).toEqual([made.berlin]);
      expect(seen.summary.accounts).toBe(1);
      const csv = Papa.parse<string[]>(await (await download({ date_at: '2026-02' }, made.orgAdminToken)).text(), { skipEmptyLines: true }).data;
      expect(csv.slice(1).map((row) => row[9])).toEqual([made.berlin]);
      expect((await made.plain.get('/api/v2/accounts/statistics/attendance')).status).toBe(403);
      expect((await fetch(`${app.url}/api/v2/accounts/statistics/attendance/download`)).status).toBe(401);
    });

    it('downloads the month as CSV (the default), with its file name, and guards cells a spreadsheet would run', async () => {
      const response = await download({ date_at: '2026-02' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="attendance-statistics-2026-02.csv"');
      const parsed = Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true });
      expect(parsed.errors).toEqual([]);
      expect(parsed.meta.fields).toEqual(['Account', 'Username', 'Month', 'Days present', 'Total time', 'Total seconds', 'Average arrival', 'Average departure', 'Average working hours', 'Account ID']);
      const berlin = parsed.data.find((row) => row['Account ID'] === made.berlin);
      expect(berlin).toMatchObject({ Month: '2026-02', 'Days present': '4', 'Total time': '19:00:00', 'Total seconds': '68400', 'Average arrival': '06:52:30', 'Average departure': '12:30:00', 'Average working hours': '06:20:00' });
      const other = parsed.data.find((row) => row['Account ID'] === made.other);
      expect(other?.Account.startsWith("'=Eve")).toBe(true);
      // v2 and unprefixed serve the same file
      expect((await download({ date_at: '2026-02', format: 'csv' }, adminToken, '/api')).headers.get('content-type')).toBe('text/csv; charset=utf-8');
    });

    it('downloads the month as an XLSX workbook that reads back', async () => {
      const response = await download({ date_at: '2026-02', format: 'xlsx' }, adminToken, '/api/v2');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="attendance-statistics-2026-02.xlsx"');
      const workbook = new Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const sheet = workbook.worksheets[0];
      expect(sheet.name).toBe('Attendance 2026-02');
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Account', 'Username', 'Month', 'Days present', 'Total time', 'Total seconds', 'Average arrival', 'Average departure', 'Average working hours', 'Account ID']);
      const rows = Array.from({ length: sheet.rowCount - 1 }, (_, index) => sheet.getRow(index + 2));
      const berlin = rows.find((row) => row.getCell(10).value === made.berlin);
      // a time-formatted cell reads back as a Date counted from Excel's day zero, 1899-12-30
      const seconds = (value: unknown) => (value instanceof Date ? Math.round((value.getTime() - Date.UTC(1899, 11, 30)) / 1000) : Number.NaN);
      expect(berlin?.getCell(4).value).toBe(4);
      expect(berlin?.getCell(6).value).toBe(68_400);
      expect(seconds(berlin?.getCell(5).value)).toBe(68_400);
      expect(berlin?.getCell(5).numFmt).toBe('[h]:mm:ss');
      expect(seconds(berlin?.getCell(7).value)).toBe(24_750);
      expect(rows).toHaveLength(2);
    });

    it('refuses a bad month or format with a 400 naming the field', async () => {
      for (const [query, field] of [
        [{ date_at: '2026-13' }, 'date_at'],
        [{ date_at: '2026-02', format: 'pdf' }, 'format'],
      ] as const) {
        const response = await download(query);
        expect(response.status).toBe(400);
        expect(Object.keys(((await response.json()) as { error: { fields: Record<string, string[]> } }).error.fields)).toEqual([field]);
      }
      const list = await admin.get('/api/v2/accounts/statistics/attendance?date_at=february');
      expect(list.status).toBe(400);
      expect(Object.keys(list.body.error.fields)).toEqual(['date_at']);
    });
  });

  /**
   * Every date the API accepts is handled: the calendar runs from 0001-01-01 to 9999-12-31. Date.UTC
   * once read the year 0099 as 1999 and the domain answered 500 with 'not a date' for 0099-06-15,
   * 0001-02 and a tracking status on 0001-01-01; the week of 9999-12-31 ran into a year 10000.
   */
  describe('dates at the ends of the calendar', () => {
    const errorsLogged = () => logLines.filter((line) => /"level":\s*(50|60)/.test(line));
    const trpcGet = (path: string, input: unknown) => admin.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
    /** view, date_at, the window it draws, or null when it is refused with 400 under date_at */
    const cases: [string, string, { from: string; to: string } | null][] = [
      ['daily', '0001-01-01', { from: '0001-01-01', to: '0001-01-01' }],
      ['weekly', '0001-01-01', { from: '0001-01-01', to: '0001-01-07' }],
      ['monthly', '0001-02', { from: '0001-02-01', to: '0001-02-28' }],
      ['daily', '0099-06-15', { from: '0099-06-15', to: '0099-06-15' }],
      ['weekly', '0099-06-15', { from: '0099-06-15', to: '0099-06-21' }],
      ['monthly', '0099-06-15', { from: '0099-06-01', to: '0099-06-30' }],
      ['weekly', '0100-02-28', { from: '0100-02-22', to: '0100-02-28' }],
      ['daily', '9999-12-31', { from: '9999-12-31', to: '9999-12-31' }],
      // the week of 9999-12-31 (a Friday) ends with the calendar, not on 10000-01-02
      ['weekly', '9999-12-31', { from: '9999-12-27', to: '9999-12-31' }],
      ['monthly', '9999-12', { from: '9999-12-01', to: '9999-12-31' }],
      ['daily', '10000-01-01', null],
      ['weekly', '10000-01-01', null],
      ['monthly', '10000-01', null],
      ['daily', '0000-06-15', null],
      ['monthly', '0000-06', null],
    ];

    it('draws the Attendance tab of years 1, 99, 100 and 9999 on REST v1, v2, /api and tRPC, refuses years 0 and 10000 under date_at', async () => {
      for (const [selected, dateAt, window] of cases) {
        for (const prefix of ['/api/v1', '/api/v2', '/api']) {
          const response = await admin.get(`${prefix}/account/${made.utc}/attendance/${selected}?date_at=${dateAt}`);
          const label = `${prefix} ${selected} ${dateAt}: ${JSON.stringify(response.body).slice(0, 300)}`;
          if (!window) {
            expect(response.status, label).toBe(400);
            expect(Object.keys(response.body.error.fields), label).toEqual(['date_at']);
            continue;
          }
          expect(response.status, label).toBe(200);
          const body = (prefix === '/api/v1' ? response.body : response.body.data) as TAccountAttendance;
          expect({ from: body.from, to: body.to }, label).toEqual(window);
        }
        const trpc = await trpcGet('attendanceReports.ofAccount', { account_id: made.utc, selected, date_at: dateAt });
        const label = `tRPC ${selected} ${dateAt}: ${JSON.stringify(trpc.body).slice(0, 300)}`;
        expect(trpc.status, label).toBe(window ? 200 : 400);
        if (window) expect({ from: trpc.body.result.data.from, to: trpc.body.result.data.to }, label).toEqual(window);
      }
      // a past month of year 1 lists its days without data, each a date of year 1
      const february = await attendance(made.utc, 'monthly', '0001-02');
      expect(february.attendance.map((row) => row.day)).toEqual(Array.from({ length: 28 }, (_, index) => `0001-02-${String(index + 1).padStart(2, '0')}`));
      expect(errorsLogged()).toEqual([]);
    });

    it('stores tracking statuses in years 1, 99-100 and 9999 on REST v1, v2 and tRPC, refuses years 0 and 10000 under the field', async () => {
      const status = await admin.post('/api/v2/states/attendance/', { title: `Calendar ends ${tag}`, active: 1 });
      expect(status.status, JSON.stringify(status.body)).toBe(201);
      const body = (start_date: string, end_date: string) => ({ event_group_title: 'Far away', status_id: status.body.data.id, start_date, end_date, start_time: '09:00', end_time: '10:00', account_id: made.utc });
      const ranges: [string, string, string | null][] = [
        ['0001-01-01', '0001-01-01', null],
        ['0099-12-31', '0100-01-01', null],
        ['9999-12-31', '9999-12-31', null],
        ['0000-12-31', '0001-01-01', 'start_date'],
        ['9999-12-31', '10000-01-01', 'end_date'],
      ];
      for (const [start, end, refused] of ranges) {
        for (const prefix of ['/api/v1', '/api/v2']) {
          const response = await admin.post(`${prefix}/account/${made.utc}/tracking-status/`, body(start, end));
          const label = `${prefix} ${start}..${end}: ${JSON.stringify(response.body).slice(0, 300)}`;
          expect(response.status, label).toBe(refused ? 400 : 201);
          if (refused) expect(Object.keys(response.body.error.fields), label).toEqual([refused]);
        }
        const trpc = await admin.post('/trpc/calendar.create', body(start, end));
        expect(trpc.status, `tRPC ${start}..${end}: ${JSON.stringify(trpc.body).slice(0, 300)}`).toBe(refused ? 400 : 200);
      }
      // the days are the years' own: 0001-01-01 and the turn of 99 to 100, not 1901 or 1999
      const year1 = await trpcGet('calendar.events', { account_id: made.utc, from: '0001-01-01', to: '0001-01-31' });
      expect(year1.status, JSON.stringify(year1.body)).toBe(200);
      expect((year1.body.result.data as { start_date: string }[]).map((event) => event.start_date)).toEqual(Array(3).fill('0001-01-01 09:00:00'));
      const turn = await admin.get(`/api/v2/account/${made.utc}/calendar?date=0100-01`);
      expect(turn.status, JSON.stringify(turn.body)).toBe(200);
      expect((turn.body.data as { start_date: string }[]).map((event) => event.start_date)).toEqual(Array(3).fill('0100-01-01 09:00:00'));
      expect(errorsLogged()).toEqual([]);
    });
  });
});
