import type { TAccountAttendance, TArrivalDeparture, TAttendanceStatistics, TPage } from '@rollcall/contracts';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';

type Client = ReturnType<typeof http>;

/**
 * An organization's time zone (REST v2 `organization/{id}/time-zone`, tRPC `organizations.timeZone`
 * and `setTimeZone`) and the rule it serves: an account's attendance days are drawn in its own
 * profile zone, else in the zone of its first organization (joining order) that has one, found on
 * the organization or its nearest ancestor, else in UTC. The instant used throughout is
 * 2026-01-31T23:30Z: 1 February 00:30 in Berlin (UTC+1), 31 January 18:30 in New York, 31 January in UTC.
 */
describe.each(storageKinds())('organization time zone (%s)', (kind) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const LATE_EVENING = '2026-01-31T23:30:00Z';
  let app: TestApp;
  let admin: Client;
  let reader: { client: Client; sequence: number };
  let cards = 0;

  const organization = async (title: string, parentId?: string) => {
    const created = await admin.post('/api/v2/organization', { title: `${title} ${tag}`, description: 'time zones', ...(parentId ? { parent_id: parentId } : {}) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };
  const zoneOf = async (organizationId: string, client = admin) => client.get(`/api/v2/organization/${organizationId}/time-zone`);
  const setZone = (organizationId: string, body: unknown, client = admin) => client.raw('PUT', `/api/v2/organization/${organizationId}/time-zone`, body);
  const zoned = async (organizationId: string, timeZone: string) => {
    const saved = await setZone(organizationId, { time_zone: timeZone });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };
  /** an account created in `organizationId` (joining the others after it, in order) holding a fresh card, in `zone` when given */
  const holder = async (organizationId: string, options: { zone?: string; alsoJoins?: string[] } = {}) => {
    const account = await createAccount(admin, { organization: organizationId });
    for (const other of options.alsoJoins ?? []) {
      const joined = await admin.post(`/api/v2/account/${account.id}/associate/organization`, { organization_id: other });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    }
    if (options.zone) {
      const saved = await admin.raw('PUT', `/api/v1/account/${account.id}`, { first_name: account.first_name, last_name: account.last_name, email: account.email, time_zone: options.zone });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const uid = `04${(0x20000000 + (cards += 1) * 7919 + Math.floor(Math.random() * 1_000_000)).toString(16).toUpperCase()}`;
    const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    return { id: account.id, uid };
  };
  const scan = async (uid: string, at: string) => {
    const body = { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: at }] };
    const response = await reader.client.post('/api/v2/reader/scans', body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.acks[0].status, JSON.stringify(response.body)).toBe('accepted');
    return response.body.acks[0].outcome as string;
  };
  /** the days of the account's slots around the instant, and the zone its Attendance tab reads them in */
  const daysOf = async (accountId: string) => {
    const days: string[] = [];
    let timeZone = '';
    for (const month of ['2026-01', '2026-02']) {
      const response = await admin.get(`/api/v1/account/${accountId}/attendance/monthly?date_at=${month}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const attendance = response.body as TAccountAttendance;
      days.push(...attendance.attendance.filter((row) => row.arrived !== null).map((row) => row.day));
      timeZone = attendance.time_zone;
    }
    return { days, timeZone };
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/readers', { name: `Zones ${tag}`, door: 'Main entrance', role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    reader = { client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('sets, reads and clears the zone; the same zone again is accepted and changes nothing', async () => {
    const id = await organization('Zoned');
    expect(await zoneOf(id)).toMatchObject({ status: 200, body: { data: { time_zone: null } } });
    const saved = await setZone(id, { time_zone: 'Europe/Berlin' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ data: { time_zone: 'Europe/Berlin' } });
    expect(saved.headers.get('x-rollcall-consistency')).toBe('consistent');
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: 'Europe/Berlin' } });
    // unprefixed as on v2; not on v1 (ours, not in the spec)
    expect((await admin.get(`/api/organization/${id}/time-zone`)).body).toEqual({ data: { time_zone: 'Europe/Berlin' } });
    expect((await admin.get(`/api/v1/organization/${id}/time-zone`)).status).toBe(404);
    expect((await setZone(id, { time_zone: 'Europe/Berlin' })).status).toBe(200);
    expect((await setZone(id, { time_zone: 'America/New_York' })).body).toEqual({ data: { time_zone: 'America/New_York' } });
    expect((await setZone(id, { time_zone: null })).body).toEqual({ data: { time_zone: null } });
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: null } });
    // empty text clears too
    await zoned(id, 'UTC');
    expect((await setZone(id, { time_zone: '' })).body).toEqual({ data: { time_zone: null } });
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: null } });
  });

  it('refuses an unknown zone on the field, a malformed body, and an unknown or deleted organization', async () => {
    const id = await organization('Refusing');
    const unknown = await setZone(id, { time_zone: 'Europe/Atlantis' });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(400);
    expect(unknown.body.error.code).toBe('organization.time_zone_invalid');
    expect(unknown.body.error.fields).toHaveProperty('time_zone');
    expect(unknown.body.error.message).toContain('Europe/Atlantis');
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: null } });

    const missing = await setZone(id, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('request.invalid');
    expect(missing.body.error.fields).toHaveProperty('time_zone');
    const extra = await setZone(id, { time_zone: 'UTC', zone: 'UTC' });
    expect(extra.status).toBe(400);
    expect((await setZone(id, { time_zone: 42 })).status).toBe(400);

    const nobody = '00000000-0000-4000-8000-000000000000';
    expect((await zoneOf(nobody)).status).toBe(404);
    const absent = await setZone(nobody, { time_zone: 'UTC' });
    expect([absent.status, absent.body.error.code]).toEqual([404, 'organization.not_found']);
    expect((await zoneOf('not-a-uuid')).status).toBe(400);

    const gone = await organization('Gone');
    await zoned(gone, 'Europe/Berlin');
    expect((await admin.raw('DELETE', `/api/v2/organization/${gone}`)).status).toBe(200);
    expect((await zoneOf(gone)).status).toBe(404);
    expect((await setZone(gone, { time_zone: 'UTC' })).body.error.code).toBe('organization.not_found');
  });

  it('reads with organizations:read and writes only with organizations:write: 403 for anyone else', async () => {
    const id = await organization('Guarded');
    await zoned(id, 'Europe/Berlin');
    const permission = await admin.post('/api/v2/permission', { organization_id: id, title: `organizations:read ${tag}`, slug: 'organizations:read', description: '' });
    expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
    const role = await admin.post(`/api/v2/organization/${id}/role`, { title: `Readers ${tag}`, slug: `readers-${tag}`, description: '', permissions: [permission.body.data.id] });
    expect(role.status, JSON.stringify(role.body)).toBeLessThan(300);
    const viewer = await createAccount(admin, { organization: id });
    expect((await admin.post(`/api/v2/organization/${id}/account-role`, { account_id: viewer.id, role_id: role.body.data.id })).status).toBe(200);
    const viewerClient = http(app.url, await signIn(app.url, { username: viewer.username, password: viewer.password }));
    const plain = await createAccount(admin);
    const plainClient = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));

    expect((await zoneOf(id, viewerClient)).body).toEqual({ data: { time_zone: 'Europe/Berlin' } });
    const refused = await setZone(id, { time_zone: 'UTC' }, viewerClient);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'auth.forbidden']);
    expect((await zoneOf(id, plainClient)).status).toBe(403);
    expect((await setZone(id, { time_zone: 'UTC' }, plainClient)).status).toBe(403);
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: 'Europe/Berlin' } });

    const viewerTrpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, { username: viewer.username, password: viewer.password })}` }) })] });
    expect(await viewerTrpc.organizations.timeZone.query({ id })).toEqual({ time_zone: 'Europe/Berlin' });
    const denied = (await viewerTrpc.organizations.setTimeZone.mutate({ id, time_zone: 'UTC' }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(denied).toBeInstanceOf(TRPCClientError);
    expect(denied.data?.httpStatus).toBe(403);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url)}` }) })] });
    const id = await organization('Over tRPC');
    expect(await client.organizations.setTimeZone.mutate({ id, time_zone: 'Asia/Tokyo' })).toEqual({ time_zone: 'Asia/Tokyo' });
    expect(await client.organizations.timeZone.query({ id })).toEqual({ time_zone: 'Asia/Tokyo' });
    expect((await zoneOf(id)).body).toEqual({ data: { time_zone: 'Asia/Tokyo' } });
    const refused = (await client.organizations.setTimeZone.mutate({ id, time_zone: 'Mars/Olympus' }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(400);
    expect(refused.message).toContain('Mars/Olympus');
    expect(await client.organizations.setTimeZone.mutate({ id, time_zone: null })).toEqual({ time_zone: null });
  });

  describe('the zone that draws attendance days', () => {
    const made = {} as Record<'berlin' | 'child' | 'grandchild' | 'newYork' | 'plain', string>;
    beforeAll(async () => {
      made.berlin = await organization('Berlin office');
      await zoned(made.berlin, 'Europe/Berlin');
      made.child = await organization('Berlin team', made.berlin);
      made.grandchild = await organization('Berlin squad', made.child);
      made.newYork = await organization('New York office');
      await zoned(made.newYork, 'America/New_York');
      made.plain = await organization('No zone');
    });

    it("lands a late-evening UTC scan of an account without a zone on its organization's next day", async () => {
      const member = await holder(made.berlin);
      expect(await scan(member.uid, LATE_EVENING)).toBe('arrival');
      expect(await daysOf(member.id)).toEqual({ days: ['2026-02-01'], timeZone: 'Europe/Berlin' });
      // and an organization without a zone (nor a parent with one) leaves UTC
      const utc = await holder(made.plain);
      await scan(utc.uid, LATE_EVENING);
      expect(await daysOf(utc.id)).toEqual({ days: ['2026-01-31'], timeZone: 'UTC' });
    });

    it('keeps the own zone of an account that has one, UTC included', async () => {
      const ownZone = await holder(made.berlin, { zone: 'America/New_York' });
      await scan(ownZone.uid, LATE_EVENING);
      expect(await daysOf(ownZone.id)).toEqual({ days: ['2026-01-31'], timeZone: 'America/New_York' });
      const ownUtc = await holder(made.berlin, { zone: 'UTC' });
      await scan(ownUtc.uid, LATE_EVENING);
      expect(await daysOf(ownUtc.id)).toEqual({ days: ['2026-01-31'], timeZone: 'UTC' });
    });

    it("lets a sub-organization without a zone inherit its nearest ancestor's, and its own zone win over it", async () => {
      const inChild = await holder(made.child);
      await scan(inChild.uid, LATE_EVENING);
      expect(await daysOf(inChild.id)).toEqual({ days: ['2026-02-01'], timeZone: 'Europe/Berlin' });
      const inGrandchild = await holder(made.grandchild);
      await scan(inGrandchild.uid, LATE_EVENING);
      expect(await daysOf(inGrandchild.id)).toEqual({ days: ['2026-02-01'], timeZone: 'Europe/Berlin' });

      const zonedChild = await organization('New York desk in Berlin', made.berlin);
      await zoned(zonedChild, 'America/New_York');
      const inZonedChild = await holder(zonedChild);
      await scan(inZonedChild.uid, LATE_EVENING);
      expect(await daysOf(inZonedChild.id)).toEqual({ days: ['2026-01-31'], timeZone: 'America/New_York' });
    });

    it('takes the first organization in joining order that has a zone', async () => {
      // no zone first, then New York, then Berlin: New York
      const viaNewYork = await holder(made.plain, { alsoJoins: [made.newYork, made.berlin] });
      await scan(viaNewYork.uid, LATE_EVENING);
      expect(await daysOf(viaNewYork.id)).toEqual({ days: ['2026-01-31'], timeZone: 'America/New_York' });
      // Berlin's sub-organization first (its zone through Berlin), then New York: Berlin
      const viaBerlin = await holder(made.child, { alsoJoins: [made.newYork] });
      await scan(viaBerlin.uid, LATE_EVENING);
      expect(await daysOf(viaBerlin.id)).toEqual({ days: ['2026-02-01'], timeZone: 'Europe/Berlin' });
    });

    it("reads statistics and checks corrections in the organization's zone too", async () => {
      const member = await holder(made.grandchild);
      await scan(member.uid, LATE_EVENING);
      await scan(member.uid, '2026-02-01T01:30:00Z');
      const statistics = await admin.get(`/api/v2/accounts/statistics/attendance?date_at=2026-02&organization_id=${made.grandchild}`);
      expect(statistics.status, JSON.stringify(statistics.body)).toBe(200);
      const row = (statistics.body.data as TAttendanceStatistics).data.find((entry) => entry.account_id === member.id);
      // 00:30 and 02:30 in Berlin, not 23:30 and 01:30 as in UTC
      expect(row).toMatchObject({ days_present: 1, average_arrival: '00:30:00', average_departure: '02:30:00' });

      const log = await admin.get(`/api/v2/logs/arrivals-departures?account_id=${member.id}`);
      expect(log.status, JSON.stringify(log.body)).toBe(200);
      const [slot] = (log.body.data as TPage<TArrivalDeparture>).data;
      expect(slot.day).toBe('2026-02-01');
      // 23:10 UTC on 31 January is still 1 February in Berlin: the correction keeps the slot's day
      const corrected = await admin.raw('PATCH', `/api/v2/logs/arrivals-departures/edit/${slot.id}`, { arrived_at: '2026-01-31T23:10:00Z', departed_at: '2026-02-01T01:30:00Z', reason: 'Came in earlier' });
      expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
      // 22:50 UTC is 23:50 on 31 January in Berlin: another day, refused on the field
      const refused = await admin.raw('PATCH', `/api/v2/logs/arrivals-departures/edit/${slot.id}`, { arrived_at: '2026-01-31T22:50:00Z', departed_at: '2026-02-01T01:30:00Z', reason: 'Too early' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error.field ?? Object.keys(refused.body.error.fields ?? {})[0]).toBe('arrived_at');
    });

    it('follows a change of the zone for days recorded after it, and a cleared zone falls back to the parent and then UTC', async () => {
      const parent = await organization('Tokyo office');
      await zoned(parent, 'Asia/Tokyo');
      const child = await organization('Tokyo desk', parent);
      await zoned(child, 'Europe/Berlin');
      const member = await holder(child);
      expect((await daysOf(member.id)).timeZone).toBe('Europe/Berlin');
      await zoned(child, 'America/New_York');
      expect((await daysOf(member.id)).timeZone).toBe('America/New_York');
      expect((await setZone(child, { time_zone: null })).status).toBe(200);
      expect((await daysOf(member.id)).timeZone).toBe('Asia/Tokyo');
      expect((await setZone(parent, { time_zone: null })).status).toBe(200);
      expect((await daysOf(member.id)).timeZone).toBe('UTC');
    });
  });
});
