import type { TArrivalDeparture, TLiveMessage, TPage, TPresence } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { LiveFeed } from '../../platform/live/live-feed';
import { ATTENDANCE_BATCH } from './attendance.live';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;
interface Reader {
  id: string;
  client: Client;
  sequence: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
/** two days ago (UTC, the zone of accounts without one) at a time of day */
const twoDaysAgoAt = (hours: number, minutes = 0) => {
  const day = new Date(Date.now() - 2 * 24 * HOUR);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
};

describe.each(storageKinds())('arrivals / departures log, corrections and presence (%s)', (kind) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let app: TestApp;
  let admin: Client;
  let adminId: string;
  let lobby: Reader;
  let garage: Reader;
  let live: TLiveMessage[] = [];
  /** alice in A1 (a sub-organization of A), bob in B; an administrator of A and a plain account */
  const made = {} as { a: string; a1: string; b: string; alice: string; bob: string; aliceUid: string; bobUid: string; orgAdmin: Client; plain: Client; teamId: string };

  async function registerReader(name: string, door: string): Promise<Reader> {
    const created = await admin.post('/api/v2/readers', { name, door, role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    return { id: created.body.data.id, client: http(app.url, issued.body.data.token), sequence: 0 };
  }
  /** posts one door scan as the reader, made at `at`, sent now */
  const scan = async (reader: Reader, uid: string, at: number) => {
    const body = { sent_at: iso(Date.now()), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: iso(at) }] };
    const response = await reader.client.post('/api/v2/reader/scans', body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.acks[0].outcome as string;
  };
  const organization = async (title: string, parentId?: string) => {
    const created = await admin.post('/api/v2/organization', { title, description: 'arrivals and departures', ...(parentId ? { parent_id: parentId } : {}) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };
  const holder = async (organizationId: string, uid: string) => {
    const account = await createAccount(admin, { organization: organizationId });
    const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    return account.id;
  };
  const log = async (query: Record<string, string> = {}, client = admin) => {
    const response = await client.get(`/api/v2/logs/arrivals-departures?${new URLSearchParams({ limit: '100', ...query })}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as TPage<TArrivalDeparture>;
  };
  const presence = async (client = admin, query: Record<string, string> = {}) => {
    const response = await client.get(`/api/v2/logs/arrivals-departures/presence?${new URLSearchParams(query)}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as TPresence;
  };
  const correct = (id: string, body: unknown, client = admin) => client.raw('PATCH', `/api/v2/logs/arrivals-departures/edit/${id}`, body);

  const times = { arrived: 0, departed: 0, aliceIn: 0, bobIn: 0 };
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
    app.app.get(LiveFeed).emitter.on(ATTENDANCE_BATCH, (messages: TLiveMessage[]) => live.push(...messages));
    lobby = await registerReader(`Lobby ${tag}`, 'Main entrance');
    garage = await registerReader(`Garage ${tag}`, 'Garage door');
    made.a = await organization(`Arrivals A ${tag}`);
    made.a1 = await organization(`Arrivals A1 ${tag}`, made.a);
    made.b = await organization(`Arrivals B ${tag}`);
    const hex = (n: number) => `04${(0x10000000 + n * 7919 + Math.floor(Math.random() * 100000)).toString(16).toUpperCase()}`;
    made.aliceUid = hex(1);
    made.bobUid = hex(2);
    made.alice = await holder(made.a1, made.aliceUid);
    made.bob = await holder(made.b, made.bobUid);
    const team = await admin.post('/api/v2/team', { title: `Night shift ${tag}`, interorg: true, accounts: [made.alice] });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    made.teamId = team.body.data.id;

    // an administrator of A: attendance read and write held through a role of A only
    const permissions: string[] = [];
    for (const slug of ['attendance:read', 'attendance:write']) {
      const permission = await admin.post('/api/v2/permission', { organization_id: made.a, title: `${slug} ${tag}`, slug, description: '' });
      expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
      permissions.push(permission.body.data.id);
    }
    const role = await admin.post(`/api/v2/organization/${made.a}/role`, { title: `Attendance ${tag}`, slug: `attendance-${tag}`, description: '', permissions });
    expect(role.status, JSON.stringify(role.body)).toBeLessThan(300);
    const orgAdmin = await createAccount(admin, { organization: made.a });
    expect((await admin.post(`/api/v2/organization/${made.a}/account-role`, { account_id: orgAdmin.id, role_id: role.body.data.id })).status).toBe(200);
    made.orgAdmin = http(app.url, await signIn(app.url, { username: orgAdmin.username, password: orgAdmin.password }));
    const plain = await createAccount(admin);
    made.plain = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));

    // alice: a day two days ago (in at the lobby, out at the garage), in again half an hour ago; bob in twenty minutes ago
    times.arrived = twoDaysAgoAt(9);
    times.departed = twoDaysAgoAt(17);
    times.aliceIn = Date.now() - 30 * MINUTE;
    times.bobIn = Date.now() - 20 * MINUTE;
    expect(await scan(lobby, made.aliceUid, times.arrived)).toBe('arrival');
    expect(await scan(garage, made.aliceUid, times.departed)).toBe('departure');
    expect(await scan(lobby, made.aliceUid, times.aliceIn)).toBe('arrival');
    expect(await scan(garage, made.bobUid, times.bobIn)).toBe('arrival');
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const aliceDay = () => new Date(times.arrived).toISOString().slice(0, 10);
  const slotOf = async (accountId: string, at: number) => {
    const row = (await log({ account_id: accountId })).data.find((entry) => entry.arrived_at === iso(at));
    if (!row) throw new Error(`no slot of ${accountId} arriving at ${iso(at)}`);
    return row;
  };

  it('lists the slots newest first with their doors and readers, server paged', async () => {
    const page = await log({ account_id: made.alice });
    expect(page.total).toBe(2);
    expect(page.data.map((row) => row.arrived_at)).toEqual([iso(times.aliceIn), iso(times.arrived)]);
    expect(page.data[1]).toMatchObject({
      account_id: made.alice,
      day: aliceDay(),
      departed_at: iso(times.departed),
      arrival: { reader_id: lobby.id, reader_name: `Lobby ${tag}`, door: 'Main entrance' },
      departure: { reader_id: garage.id, door: 'Garage door' },
      corrected: false,
      corrections: [],
    });
    expect(page.data[0]).toMatchObject({ departed_at: null, departure: null });
    const first = await log({ account_id: made.alice, limit: '1' });
    expect(first).toMatchObject({ total: 2, per_page: 1, last_page: 2, from: 1, to: 1 });
    expect((await log({ account_id: made.alice, limit: '1', page: '2' })).data[0].arrived_at).toBe(iso(times.arrived));
    // tRPC: the same handler
    const trpc = await admin.get(`/trpc/arrivalsDepartures.list?input=${encodeURIComponent(JSON.stringify({ account_id: made.alice }))}`);
    expect(trpc.status, JSON.stringify(trpc.body)).toBe(200);
    expect(trpc.body.result.data.total).toBe(2);
  });

  it('filters by date range, organization (its subtree), account and reader, and refuses a reversed range', async () => {
    const day = aliceDay();
    expect((await log({ account_id: made.alice, date_from: day, date_to: day })).data.map((row) => row.arrived_at)).toEqual([iso(times.arrived)]);
    const dayAfter = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    expect((await log({ account_id: made.alice, date_from: dayAfter })).data.map((row) => row.arrived_at)).toEqual([iso(times.aliceIn)]);
    expect((await log({ account_id: made.alice, date_to: day })).total).toBe(1);

    const inA = await log({ organization_id: made.a });
    expect(new Set(inA.data.map((row) => row.account_id))).toEqual(new Set([made.alice]));
    expect(inA.total).toBe(2);
    expect(new Set((await log({ organization_id: made.b })).data.map((row) => row.account_id))).toEqual(new Set([made.bob]));

    const atGarage = await log({ reader_id: garage.id });
    expect(atGarage.data.map((row) => row.id).sort()).toEqual([(await slotOf(made.alice, times.arrived)).id, (await slotOf(made.bob, times.bobIn)).id].sort());
    const atLobby = await log({ reader_id: lobby.id });
    expect(new Set(atLobby.data.map((row) => row.account_id))).toEqual(new Set([made.alice]));
    expect(atLobby.total).toBe(2);

    const reversed = await admin.get(`/api/v2/logs/arrivals-departures?date_from=${day}&date_to=2000-01-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.fields.date_to).toBeDefined();
  });

  it('records a correction as an event with actor and reason: the log shows the new times and the correction, the scans stay', async () => {
    const slot = await slotOf(made.alice, times.arrived);
    const arrivedAt = twoDaysAgoAt(8, 55);
    const departedAt = twoDaysAgoAt(17, 10);
    live = [];
    const corrected = await correct(slot.id, { id: slot.id, arrived_at: iso(arrivedAt), departed_at: iso(departedAt), reason: 'Forgot the badge in the morning' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    // other consoles learn of it at once
    expect(live).toContainEqual(expect.objectContaining({ kind: 'attendance.corrected', account_id: made.alice, slot_id: slot.id }));
    expect(corrected.body.data).toMatchObject({ id: slot.id, arrived_at: iso(arrivedAt), departed_at: iso(departedAt), corrected: true });

    const row = (await log({ account_id: made.alice, date_to: aliceDay() })).data[0];
    expect(row).toMatchObject({ id: slot.id, arrived_at: iso(arrivedAt), departed_at: iso(departedAt), corrected: true });
    expect(row.corrections).toEqual([
      {
        arrived_at: iso(arrivedAt),
        departed_at: iso(departedAt),
        previous: { arrived_at: iso(times.arrived), departed_at: iso(times.departed) },
        reason: 'Forgot the badge in the morning',
        corrected_by: adminId,
        corrected_by_name: expect.any(String),
        corrected_at: expect.any(String),
      },
    ]);
    // never an edit in place: the day's stream still holds the scans as they came, and the correction on top
    const stream = await app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${made.alice}-${aliceDay()}`);
    expect(stream.map((event) => event.type)).toEqual(['ArrivalRecorded', 'DepartureRecorded', 'AttendanceSlotCorrected']);
    expect((stream[0].data as { scan: { at: string } }).scan.at).toBe(iso(times.arrived));
    expect(stream[2].metadata.actor).toBe(adminId);

    // the same times again record nothing
    expect((await correct(slot.id, { arrived_at: iso(arrivedAt), departed_at: iso(departedAt), reason: 'again' })).body.data.corrected).toBe(false);
    expect(await app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${made.alice}-${aliceDay()}`)).toHaveLength(3);
  });

  it('needs a reason (400 naming the field), refuses broken times under their field, and answers 404 for an unknown slot', async () => {
    const slot = await slotOf(made.bob, times.bobIn);
    const body = { arrived_at: iso(times.bobIn - MINUTE), departed_at: null };
    for (const reason of [undefined, '', '   ']) {
      const refused = await correct(slot.id, { ...body, reason });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('request.invalid');
      expect(Object.keys(refused.body.error.fields)).toEqual(['reason']);
    }
    // the domain's code, as compat.md says (the schema answered request.invalid before)
    const backwards = await correct(slot.id, { arrived_at: iso(times.bobIn), departed_at: iso(times.bobIn - MINUTE), reason: 'typo' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatchObject({ code: 'attendance.correction_invalid', fields: { departed_at: ['The departure must be after the arrival'] } });
    const future = await correct(slot.id, { arrived_at: iso(times.bobIn), departed_at: iso(Date.now() + HOUR), reason: 'left late' });
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({ code: 'attendance.correction_invalid', fields: { departed_at: ['The departure cannot be in the future'] } });
    const unknown = await correct('0193a9c4-0000-7000-8000-000000000000', { ...body, reason: 'who?' });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    expect(unknown.body.error.code).toBe('attendance.slot_not_found');
    expect((await correct('not-a-slot', { ...body, reason: 'who?' })).status).toBe(400);
    // nothing was recorded for bob
    expect((await slotOf(made.bob, times.bobIn)).corrected).toBe(false);
  });

  it('shows who is in now per organization and team, and drops them after a departure, live', async () => {
    const board = await presence();
    const alice = board.present.find((person) => person.account_id === made.alice);
    expect(alice).toMatchObject({ arrived_at: iso(times.aliceIn), door: 'Main entrance', reader_name: `Lobby ${tag}` });
    expect(alice?.organizations).toEqual([{ id: made.a1, title: `Arrivals A1 ${tag}` }]);
    expect(alice?.teams).toEqual([{ id: made.teamId, title: `Night shift ${tag}` }]);
    expect(board.present.find((person) => person.account_id === made.bob)?.organizations).toEqual([{ id: made.b, title: `Arrivals B ${tag}` }]);
    expect((await presence(admin, { organization_id: made.a })).present.map((person) => person.account_id)).toEqual([made.alice]);
    expect((await presence(admin, { team_id: made.teamId })).present.map((person) => person.account_id)).toEqual([made.alice]);

    live = [];
    expect(await scan(lobby, made.aliceUid, Date.now())).toBe('departure');
    expect(live).toContainEqual(expect.objectContaining({ kind: 'presence.changed', account_id: made.alice, present: false }));
    const after = (await presence()).present.map((person) => person.account_id);
    expect(after).not.toContain(made.alice);
    expect(after).toContain(made.bob);
    const trpc = await admin.get(`/trpc/arrivalsDepartures.presence?input=${encodeURIComponent(JSON.stringify({ organization_id: made.b }))}`);
    expect(trpc.body.result.data.present.map((person: { account_id: string }) => person.account_id)).toEqual([made.bob]);
  });

  it('lets an organization administrator see and correct only its subtree', async () => {
    const seen = await log({}, made.orgAdmin);
    expect(seen.total).toBe(2);
    expect(new Set(seen.data.map((row) => row.account_id))).toEqual(new Set([made.alice]));
    expect((await log({ account_id: made.bob }, made.orgAdmin)).total).toBe(0);
    expect((await log({ organization_id: made.b }, made.orgAdmin)).total).toBe(0);
    expect((await presence(made.orgAdmin)).present.map((person) => person.account_id)).not.toContain(made.bob);

    const bobSlot = await slotOf(made.bob, times.bobIn);
    const outOfReach = await correct(bobSlot.id, { arrived_at: iso(times.bobIn - MINUTE), departed_at: null, reason: 'not mine' }, made.orgAdmin);
    expect(outOfReach.status).toBe(404);
    const aliceSlot = (await log({ account_id: made.alice }, made.orgAdmin)).data[0];
    const mine = await correct(aliceSlot.id, { arrived_at: iso(times.aliceIn - MINUTE), departed_at: aliceSlot.departed_at, reason: 'came in by the side door' }, made.orgAdmin);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
  });

  it('refuses (403) an account that administers nothing', async () => {
    const slot = await slotOf(made.bob, times.bobIn);
    expect((await made.plain.get('/api/v2/logs/arrivals-departures')).status).toBe(403);
    expect((await made.plain.get('/api/logs/arrivals-departures')).status).toBe(403);
    expect((await made.plain.get('/api/v2/logs/arrivals-departures/presence')).status).toBe(403);
    expect((await made.plain.get('/trpc/arrivalsDepartures.list?input=%7B%7D')).status).toBe(403);
    const refused = await correct(slot.id, { arrived_at: iso(times.bobIn - MINUTE), departed_at: null, reason: 'sneaky' }, made.plain);
    expect(refused.status).toBe(403);
    expect((await slotOf(made.bob, times.bobIn)).corrected).toBe(false);
  });
});
