import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { TLiveMessage } from '@rollcall/contracts';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { LiveFeed } from '../../platform/live/live-feed';
import { ATTENDANCE_BATCH } from './attendance.live';
import type { AppRouter } from '../../root-router';
import { createAccount, http, liveClient, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { OpenDaySweeper } from './open-day-sweeper';
import { RegisterModeSweeper } from './register-mode-sweeper';

type Client = ReturnType<typeof http>;
interface Reader {
  id: string;
  client: Client;
  sequence: number;
}

const MINUTE = 60_000;

describe.each(storageKinds())('scans to attendance, smart cards and register mode (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminToken: string;
  let enrollment: Reader;
  let lobby: Reader;
  let garage: Reader;
  let live: TLiveMessage[] = [];
  beforeAll(async () => {
    app = await startTestApp(kind);
    adminToken = await signIn(app.url);
    admin = http(app.url, adminToken);
    app.app.get(LiveFeed).emitter.on(ATTENDANCE_BATCH, (messages: TLiveMessage[]) => live.push(...messages));
    enrollment = await registerReader('Enrollment desk', 'HR office', 'enrollment');
    lobby = await registerReader('Lobby', 'Main entrance', 'door');
    garage = await registerReader('Garage', 'Garage door', 'door');
  });
  afterAll(async () => {
    await app?.destroy();
  });

  async function registerReader(name: string, door: string, role: 'door' | 'enrollment'): Promise<Reader> {
    const created = await admin.post('/api/v2/readers', { name, door, role });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    return { id: created.body.data.id, client: http(app.url, issued.body.data.token), sequence: 0 };
  }

  /** posts scans as the reader, numbered on; device times are `at` (default now), sent now unless said */
  const post = async (reader: Reader, scans: Array<{ uid: string; at?: number }>, sentAt = Date.now()) => {
    const body = { sent_at: new Date(sentAt).toISOString(), scans: scans.map(({ uid, at }) => ({ card_uid: uid, sequence: (reader.sequence += 1), device_time: new Date(at ?? Date.now()).toISOString() })) };
    const response = await reader.client.post('/api/v2/reader/scans', body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { ...(response.body as { acks: Array<{ status: string; outcome?: string; flags?: string[] }>; clock_skewed: boolean; skew_ms: number }), body };
  };
  const outcomes = (answer: { acks: Array<{ outcome?: string }> }) => answer.acks.map((ack) => ack.outcome);

  let uids = 0;
  const newUid = () => `04${(0x10000000 + (uids += 1) * 7919 + Math.floor(Math.random() * 1000)).toString(16).toUpperCase().padStart(8, '0')}`;

  const arm = async (accountId: string, client = admin) => {
    const armed = await client.post(`/api/v1/scanner/mode/register/${accountId}`);
    expect(armed.status, JSON.stringify(armed.body)).toBe(200);
    return armed.body as { readers: string[]; expires_at: string };
  };
  /** an account with a card registered through register mode */
  const holder = async () => {
    const account = await createAccount(admin);
    const uid = newUid();
    await arm(account.id);
    expect(outcomes(await post(enrollment, [{ uid }]))).toEqual(['card_registered']);
    return { accountId: account.id, uid };
  };
  const slotsOf = async (accountId: string) => {
    const response = await admin.get(`/trpc/smartCards.slots?input=${encodeURIComponent(JSON.stringify({ account_id: accountId }))}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body.result.data as Array<{ day: string; arrived_at: string; departed_at: string | null; flags: string[]; uncounted_scans: number; arrival_door: string; departure_door: string | null }>).reverse();
  };
  const cardsOf = async (accountId: string) => (await admin.get(`/api/v2/account/${accountId}/smartcards`)).body.data;

  describe('smart cards and register mode', () => {
    it('registers the next card at the armed enrollment reader, tells the console live, and lists it newest first', async () => {
      const account = await createAccount(admin);
      live = [];
      const armed = await arm(account.id);
      expect(armed.readers).toEqual([enrollment.id]);
      expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toEqual({ account_id: account.id, expires_at: armed.expires_at });
      const uid = newUid();
      const answer = await post(enrollment, [{ uid: uid.toLowerCase().replace(/(..)(?!$)/g, '$1:') }]);
      expect(answer.acks).toEqual([{ sequence: enrollment.sequence, status: 'accepted', outcome: 'card_registered', flags: [] }]);
      expect(live).toContainEqual(expect.objectContaining({ kind: 'scanner.register_mode', state: 'started', account_id: account.id }));
      expect(live).toContainEqual(expect.objectContaining({ kind: 'scanner.register_mode', state: 'ended', account_id: account.id, reason: 'card_registered', card_uid: uid }));
      const v1 = await admin.get(`/api/v1/account/${account.id}/smartcards`);
      expect(v1.body).toMatchObject({ total: 1, data: [{ id: expect.any(String), card_uid: uid, created_at: expect.any(String) }] });
      // a second card: newest first, 10 per page
      await arm(account.id);
      const second = newUid();
      await post(enrollment, [{ uid: second }]);
      const page = await cardsOf(account.id);
      expect(page.data.map((card: { card_uid: string }) => card.card_uid)).toEqual([second, uid]);
      expect(page.per_page).toBe(10);
      expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toBeNull();
    });

    it('keeps card UIDs unique across accounts: another account\'s card is refused and the reader stays armed', async () => {
      const alice = await holder();
      const bob = await createAccount(admin);
      await arm(bob.id);
      expect(outcomes(await post(enrollment, [{ uid: alice.uid }]))).toEqual(['card_taken']);
      expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toMatchObject({ account_id: bob.id });
      expect((await cardsOf(bob.id)).total).toBe(0);
      // removed from alice, the card is free for bob
      const [card] = (await cardsOf(alice.accountId)).data;
      const removed = await admin.raw('DELETE', `/api/v2/account/smartcard/${card.id}`);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body.data.message).toBe(`Card ${alice.uid} removed`);
      expect((await admin.raw('DELETE', `/api/v2/account/smartcard/${card.id}`)).body.error.code).toBe('smart_card.not_found');
      expect(outcomes(await post(enrollment, [{ uid: alice.uid }]))).toEqual(['card_registered']);
      expect((await cardsOf(bob.id)).data.map((row: { card_uid: string }) => row.card_uid)).toEqual([alice.uid]);
      expect((await cardsOf(alice.accountId)).total).toBe(0);
    });

    it('ends register mode by itself when its time is up, and on Cancel', async () => {
      const account = await createAccount(admin);
      const armed = await arm(account.id);
      const sweeper = app.app.get(RegisterModeSweeper);
      live = [];
      expect(await sweeper.sweep(new Date(Date.parse(armed.expires_at) - 1000))).toBe(0);
      expect(await sweeper.sweep(new Date(Date.parse(armed.expires_at) + 1000))).toBe(1);
      // the sweeper runs in the background: the console hears of it once the read model has it
      await expect.poll(() => live).toContainEqual(expect.objectContaining({ kind: 'scanner.register_mode', state: 'ended', account_id: account.id, reason: 'expired' }));
      expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toBeNull();
      // no longer armed: an unknown card is only an unknown card
      expect(outcomes(await post(enrollment, [{ uid: newUid() }]))).toEqual(['unknown_card']);
      expect((await cardsOf(account.id)).total).toBe(0);

      await arm(account.id);
      const cancelled = await admin.post('/api/v2/scanner/cancel');
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.readers).toEqual([enrollment.id]);
      expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toBeNull();
      expect((await admin.post('/api/v1/scanner/cancel')).body).toEqual({ readers: [] });
    });

    it('makes a card at a door reader that no account holds an unknown card an administrator can assign', async () => {
      expect((await admin.post('/api/v1/scanner/mode/register/00000000-0000-7000-8000-000000000000')).status).toBe(404);
      const uid = newUid();
      live = [];
      expect(outcomes(await post(lobby, [{ uid }]))).toEqual(['unknown_card']);
      const unknown = (await admin.get('/api/v2/scanner/unknown-cards')).body.data;
      expect(unknown).toContainEqual(expect.objectContaining({ card_uid: uid, reader_id: lobby.id, reader_name: 'Lobby', door: 'Main entrance' }));
      expect(live).toContainEqual(expect.objectContaining({ kind: 'attendance.unknown_card', card_uid: uid, reader_id: lobby.id }));
      // an administrator assigns it: it leaves the list and counts at the door from then on
      const account = await createAccount(admin);
      const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
      expect(assigned.body.data).toMatchObject({ id: expect.any(String), card_uid: uid });
      expect((await admin.get('/api/v2/scanner/unknown-cards')).body.data.map((card: { card_uid: string }) => card.card_uid)).not.toContain(uid);
      expect((await cardsOf(account.id)).data).toEqual([expect.objectContaining({ id: assigned.body.data.id, card_uid: uid })]);
      expect(outcomes(await post(lobby, [{ uid }]))).toEqual(['arrival']);
      const other = await createAccount(admin);
      const taken = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: other.id });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toMatchObject({ code: 'smart_card.taken', fields: { card_uid: ['This card is already registered to another account'] } });
      const malformed = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: '12 34', account_id: other.id });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.fields.card_uid).toEqual(['Card UID must be 4 to 16 bytes (8 to 32 hex digits)']);
    });
  });

  describe('door scans', () => {
    it('toggles arrival, departure, arrival and shows the slots and presence live', async () => {
      const { accountId, uid } = await holder();
      const start = Date.now() - 3 * 60 * MINUTE;
      live = [];
      expect(outcomes(await post(lobby, [{ uid, at: start }]))).toEqual(['arrival']);
      expect(outcomes(await post(lobby, [{ uid, at: start + 60 * MINUTE }]))).toEqual(['departure']);
      expect(outcomes(await post(lobby, [{ uid, at: start + 90 * MINUTE }]))).toEqual(['arrival']);
      const slots = await slotsOf(accountId);
      expect(slots).toEqual([
        expect.objectContaining({ arrived_at: new Date(start).toISOString(), departed_at: new Date(start + 60 * MINUTE).toISOString(), arrival_door: 'Main entrance', departure_door: 'Main entrance', flags: [] }),
        expect.objectContaining({ arrived_at: new Date(start + 90 * MINUTE).toISOString(), departed_at: null }),
      ]);
      expect(live.filter((message) => message.kind === 'presence.changed').map((message) => (message as { present: boolean }).present)).toEqual([true, false, true]);
      expect(live).toContainEqual(expect.objectContaining({ kind: 'attendance.scan', outcome: 'departure', account_id: accountId, reader_id: lobby.id }));
    });

    it('pushes scans to a console subscribed to live.attendance, and only to those who may read attendance', async () => {
      const { accountId, uid } = await holder();
      const socketWith = (headers: Record<string, string>) =>
        class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { headers });
          }
        };
      const wsClient = createWSClient({ url: `${app.url.replace('http', 'ws')}/ws`, WebSocket: socketWith({ cookie: `user_session=${adminToken}`, origin: app.url }) as unknown as typeof globalThis.WebSocket });
      const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
      const received: TLiveMessage[] = [];
      let subscription: { unsubscribe(): void } | undefined;
      await new Promise<void>((resolve) => {
        subscription = client.live.attendance.subscribe(undefined, { onStarted: () => resolve(), onData: (messages) => received.push(...messages) });
      });
      await post(lobby, [{ uid, at: Date.now() - 30 * MINUTE }]);
      await expect.poll(() => received.find((message) => message.kind === 'attendance.scan' && message.account_id === accountId), { timeout: 5000 }).toMatchObject({ outcome: 'arrival', reader_id: lobby.id, door: 'Main entrance' });
      expect(received).toContainEqual(expect.objectContaining({ kind: 'presence.changed', account_id: accountId, present: true }));
      subscription?.unsubscribe();
      await wsClient.close();

      const plain = await createAccount(admin);
      const plainToken = await signIn(app.url, { username: plain.username, password: plain.password });
      const plainWs = createWSClient({ url: `${app.url.replace('http', 'ws')}/ws`, WebSocket: socketWith({ cookie: `user_session=${plainToken}`, origin: app.url }) as unknown as typeof globalThis.WebSocket });
      const denied = await new Promise<unknown>((resolve) => {
        createTRPCClient<AppRouter>({ links: [wsLink({ client: plainWs })] }).live.attendance.subscribe(undefined, { onError: resolve, onData: () => resolve('data') });
      });
      expect((denied as { data?: { httpStatus?: number } }).data?.httpStatus).toBe(403);
      await plainWs.close();
    });

    it('pushes each message kind only with the permission of its HTTP read: unknown cards and register mode need readers:manage', async () => {
      const created = async (answer: Promise<{ status: number; body: { id?: string; data?: { id: string } } }>) => {
        const { status, body } = await answer;
        expect(status, JSON.stringify(body)).toBeLessThan(300);
        return body.data?.id ?? body.id!;
      };
      const stamp = Date.now().toString(36);
      const organization = await created(admin.post('/api/v2/organization', { title: `Watched ${stamp}`, description: '', parent_id: null }));
      const permission = (slug: string) => created(admin.post('/api/v2/permission', { organization_id: organization, title: `${slug} ${stamp}`, slug, description: '' }));
      const [attendanceRead, readersManage] = [await permission('attendance:read'), await permission('readers:manage')];
      const member = async (slug: string, permissions: string[]) => {
        const role = await created(admin.post(`/api/v2/organization/${organization}/role`, { title: `${slug} ${stamp}`, slug: `${slug}-${stamp}`, description: '', permissions }));
        const account = await createAccount(admin, { organization });
        expect((await admin.post(`/api/v2/organization/${organization}/account-role`, { account_id: account.id, role_id: role })).status).toBe(200);
        return signIn(app.url, { username: account.username, password: account.password });
      };
      // the finding's viewer: attendance:read only; the keeper also manages readers there
      const viewerToken = await member('viewer', [attendanceRead]);
      const keeperToken = await member('keeper', [attendanceRead, readersManage]);
      const viewer = http(app.url, viewerToken);
      expect((await viewer.get('/api/v2/scanner/unknown-cards')).status).toBe(403);
      expect((await viewer.get('/api/v2/readers')).status).toBe(403);
      expect((await viewer.get(`/api/v2/readers/${enrollment.id}`)).status).toBe(403);
      const watch = async (token: string) => {
        const { client, close } = liveClient(app.url, token);
        const received: TLiveMessage[] = [];
        await new Promise<void>((resolve) => {
          const subscription = client.live.attendance.subscribe(undefined, { onStarted: () => resolve(), onData: (messages) => received.push(...messages), onError: (error) => received.push({ kind: 'error', error: String(error) } as never) });
          afterAll(() => subscription.unsubscribe());
        });
        return { received, close };
      };
      const [viewerLive, keeperLive] = [await watch(viewerToken), await watch(keeperToken)];
      try {
        const holderId = (await createAccount(admin, { organization })).id;
        const uid = newUid();
        const unknownUid = newUid();
        live = [];
        await arm(holderId);
        expect(outcomes(await post(enrollment, [{ uid }]))).toEqual(['card_registered']);
        expect(outcomes(await post(lobby, [{ uid: unknownUid }]))).toEqual(['unknown_card']);
        // all of that has gone out to the sockets' subscriptions before the scan below (one emitter, in order)
        await expect.poll(() => live.map((message) => message.kind)).toEqual(expect.arrayContaining(['attendance.unknown_card', 'scanner.register_mode']));
        await expect.poll(() => live.filter((message) => message.kind === 'scanner.register_mode').length).toBe(2);
        expect(outcomes(await post(lobby, [{ uid, at: Date.now() - 10 * MINUTE }]))).toEqual(['arrival']);
        const arrived = (received: TLiveMessage[]) => received.some((message) => message.kind === 'attendance.scan' && message.account_id === holderId);
        await expect.poll(() => arrived(viewerLive.received), { timeout: 5000 }).toBe(true);
        await expect.poll(() => arrived(keeperLive.received), { timeout: 5000 }).toBe(true);
        // the viewer sees the account's scan and presence, and nothing of the unknown card or of register mode
        expect(viewerLive.received.map((message) => [message.kind, (message as { account_id?: string | null }).account_id])).toEqual([
          ['attendance.scan', holderId],
          ['presence.changed', holderId],
        ]);
        expect(JSON.stringify(viewerLive.received)).not.toContain(unknownUid);
        // the keeper holds readers:manage there: it gets them all
        expect(keeperLive.received).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ kind: 'scanner.register_mode', state: 'started', account_id: holderId }),
            expect.objectContaining({ kind: 'scanner.register_mode', state: 'ended', account_id: holderId, card_uid: uid }),
            expect.objectContaining({ kind: 'attendance.unknown_card', card_uid: unknownUid, reader_id: lobby.id }),
            expect.objectContaining({ kind: 'attendance.scan', outcome: 'unknown_card', account_id: null, reader_id: lobby.id }),
            expect.objectContaining({ kind: 'attendance.scan', outcome: 'arrival', account_id: holderId }),
          ]),
        );
      } finally {
        viewerLive.close();
        keeperLive.close();
      }
    });

    it('pushes on live.accounts only kinds with a rule, each with the permission of its HTTP read (projection lag: projections:manage)', async () => {
      const stamp = Date.now().toString(36);
      const organization = (await admin.post('/api/v2/organization', { title: `Readers ${stamp}`, description: '', parent_id: null })).body.data.id as string;
      const permission = (await admin.post('/api/v2/permission', { organization_id: organization, title: `accounts:read ${stamp}`, slug: 'accounts:read', description: '' })).body.data.id as string;
      const role = (await admin.post(`/api/v2/organization/${organization}/role`, { title: `reader ${stamp}`, slug: `reader-${stamp}`, description: '', permissions: [permission] })).body.data.id as string;
      const account = await createAccount(admin, { organization });
      expect((await admin.post(`/api/v2/organization/${organization}/account-role`, { account_id: account.id, role_id: role })).status).toBe(200);
      const readerSession = await signIn(app.url, { username: account.username, password: account.password });
      expect((await http(app.url, readerSession).get('/api/v2/projections')).status).toBe(403);
      const watch = async (token: string) => {
        const { client, close } = liveClient(app.url, token);
        const received: TLiveMessage[] = [];
        await new Promise<void>((resolve) => {
          const subscription = client.live.accounts.subscribe(undefined, { onStarted: () => resolve(), onData: (message) => received.push(message), onError: (error) => received.push({ kind: 'error', error: String(error) } as never) });
          afterAll(() => subscription.unsubscribe());
        });
        return { received, close };
      };
      const [reader, root] = [await watch(readerSession), await watch(adminToken)];
      try {
        const feed = app.app.get(LiveFeed);
        feed.publish({ kind: 'projection.lag', projection: 'accounts_v2', lag: 3 });
        feed.publish({ kind: 'attendance.unknown_card', card_uid: '04DEADBEEF', reader_id: lobby.id, door: 'Main entrance', at: new Date().toISOString(), position: '1.1' });
        // then a change both may read: once it has come, what was published before it was withheld
        const changed = await createAccount(admin, { organization });
        const hasChange = (received: TLiveMessage[]) => received.some((message) => message.kind === 'account.changed' && message.accountId === changed.id);
        await expect.poll(() => hasChange(reader.received), { timeout: 5000 }).toBe(true);
        await expect.poll(() => hasChange(root.received), { timeout: 5000 }).toBe(true);
        const others = (received: TLiveMessage[]) => received.filter((message) => message.kind !== 'account.changed').map((message) => message.kind);
        expect(others(reader.received)).toEqual([]);
        expect(others(root.received)).toEqual(['projection.lag']);
      } finally {
        reader.close();
        root.close();
      }
    });

    it("draws the day in the account's time zone", async () => {
      const { accountId, uid } = await holder();
      const account = (await admin.get(`/api/v1/account/${accountId}`)).body;
      const zone = 'Pacific/Kiritimati';
      const saved = await admin.raw('PUT', `/api/v1/account/${accountId}`, { first_name: account.first_name, last_name: account.last_name, email: account.email, time_zone: zone });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // the latest past 12:00 UTC: already the next day at UTC+14
      const noon = new Date();
      noon.setUTCHours(12, 0, 0, 0);
      if (noon.getTime() > Date.now() - MINUTE) noon.setUTCDate(noon.getUTCDate() - 1);
      const at = noon.getTime();
      await post(lobby, [{ uid, at }]);
      const [slot] = await slotsOf(accountId);
      const localDay = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(at));
      expect(localDay).not.toBe(noon.toISOString().slice(0, 10));
      expect(slot.day).toBe(localDay);
      expect((await app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${accountId}-${localDay}`)).map((event) => event.type)).toEqual(['ArrivalRecorded']);
    });

    it('keeps repeats inside the duplicate window as raw scans that change nothing; exactly 60 s later counts', async () => {
      const { accountId, uid } = await holder();
      const start = Date.now() - 60 * MINUTE;
      const answer = await post(lobby, [{ uid, at: start }, { uid, at: start + 10_000 }, { uid, at: start + 59_999 }, { uid, at: start + 60_000 + 59_999 }]);
      expect(outcomes(answer)).toEqual(['arrival', 'duplicate', 'duplicate', 'departure']);
      const [slot] = await slotsOf(accountId);
      expect(slot).toMatchObject({ arrived_at: new Date(start).toISOString(), departed_at: new Date(start + 119_999).toISOString(), uncounted_scans: 2 });
      const events = await app.app.get<EventStore>(EVENT_STORE).readAll({ commit: 0, sequence: 0 }, 100_000);
      expect(events.filter((event) => event.type === 'UncountedScanRecorded' && (event.data as { accountId: string }).accountId === accountId)).toHaveLength(2);
    });

    it('keeps device time, send time and server time, flags a large skew and counts the corrected time', async () => {
      const { accountId, uid } = await holder();
      const fastBy = 10 * MINUTE;
      const deviceNow = Date.now() + fastBy;
      const answer = await post(lobby, [{ uid, at: deviceNow - 5 * MINUTE }], deviceNow);
      expect(answer.clock_skewed).toBe(true);
      expect(answer.skew_ms).toBeLessThan(-fastBy + 5000);
      expect(answer.acks[0]).toMatchObject({ outcome: 'arrival', flags: ['clock_skew'] });
      const [slot] = await slotsOf(accountId);
      expect(Math.abs(Date.parse(slot.arrived_at) - (Date.now() - 5 * MINUTE))).toBeLessThan(10_000);
      expect(slot.flags).toEqual(['clock_skew']);
      const events = await app.app.get<EventStore>(EVENT_STORE).readAll({ commit: 0, sequence: 0 }, 100_000);
      const arrival = events.find((event) => event.type === 'ArrivalRecorded' && (event.data as { accountId: string }).accountId === accountId);
      expect((arrival?.data as { scan: Record<string, unknown> }).scan).toMatchObject({ deviceTime: answer.body.scans[0].device_time, sentAt: answer.body.sent_at, receivedAt: expect.any(String), skewMs: answer.skew_ms });
      // a small offset is trusted
      expect((await post(lobby, [{ uid, at: Date.now() }], Date.now() + 30_000)).acks[0]).toMatchObject({ outcome: 'departure', flags: [] });
    });

    it('answers a retried batch again, counting nothing twice', async () => {
      const { accountId, uid } = await holder();
      const other = await holder();
      const start = Date.now() - 2 * 60 * MINUTE;
      const store = app.app.get<EventStore>(EVENT_STORE);
      const first = await post(garage, [{ uid, at: start }, { uid: other.uid, at: start + 1000 }, { uid, at: start + 30 * MINUTE }]);
      expect(outcomes(first)).toEqual(['arrival', 'arrival', 'departure']);
      const eventsBefore = (await store.readAll({ commit: 0, sequence: 0 }, 100_000)).length;
      const retry = await garage.client.post('/api/v2/reader/scans/batch', first.body);
      expect(retry.status).toBe(200);
      expect(retry.body.acks).toEqual(first.body.scans.map((scan) => ({ sequence: scan.sequence, status: 'already_accepted' })));
      expect((await store.readAll({ commit: 0, sequence: 0 }, 100_000)).length).toBe(eventsBefore);
      expect(await slotsOf(accountId)).toHaveLength(1);
      expect(await slotsOf(other.accountId)).toHaveLength(1);
    });

    it("counts a replaced outbox's scans from 1 again, answers its retries, and refuses the old outbox's", async () => {
      const side = await registerReader(`Side ${Date.now().toString(36)}`, 'Side door', 'door');
      const { accountId, uid } = await holder();
      const start = Date.now() - 3 * 60 * MINUTE;
      const send = (outbox: string, sequence: number, at: number) =>
        side.client.post('/api/v2/reader/scans/batch', { sent_at: new Date().toISOString(), outbox_id: outbox, scans: [{ card_uid: uid, sequence, device_time: new Date(at).toISOString() }] });
      const first = await send('outbox-first-0001', 1, start);
      expect(first.body.acks[0]).toMatchObject({ status: 'accepted', outcome: 'arrival' });
      expect((await send('outbox-first-0001', 2, start + 10 * MINUTE)).body.acks[0]).toMatchObject({ status: 'accepted', outcome: 'departure' });
      // the box's disk was wiped: its new outbox numbers from 1 again; scan 1 is new, not a retry
      const fresh = await send('outbox-second-002', 1, start + 60 * MINUTE);
      expect(fresh.body.acks[0]).toMatchObject({ status: 'accepted', outcome: 'arrival' });
      expect((await send('outbox-second-002', 1, start + 60 * MINUTE)).body.acks[0]).toEqual({ sequence: 1, status: 'already_accepted' });
      // a late retry from the replaced outbox counts nothing
      const stale = await send('outbox-first-0001', 2, start + 10 * MINUTE);
      expect(stale.status).toBe(200);
      expect(stale.body.acks[0]).toMatchObject({ sequence: 2, status: 'refused', error: { code: 'scan.outbox_retired' } });
      expect((await slotsOf(accountId)).map((slot) => slot.departed_at === null)).toEqual([false, true]);
      const badOutbox = await side.client.post('/api/v2/reader/scans/batch', { sent_at: new Date().toISOString(), outbox_id: 'x', scans: [{ card_uid: uid, sequence: 9, device_time: new Date().toISOString() }] });
      expect(badOutbox.status).toBe(400);
      expect(badOutbox.body.error.fields.outbox_id).toBeDefined();
    });

    it('flags the same card at two doors too close in time; it still toggles', async () => {
      const { accountId, uid } = await holder();
      const start = Date.now() - 60 * MINUTE;
      expect((await post(lobby, [{ uid, at: start }])).acks[0]).toMatchObject({ outcome: 'arrival', flags: [] });
      expect((await post(garage, [{ uid, at: start + 90_000 }])).acks[0]).toMatchObject({ outcome: 'departure', flags: ['two_doors'] });
      // far enough apart, no flag
      expect((await post(lobby, [{ uid, at: start + 20 * MINUTE }])).acks[0]).toMatchObject({ outcome: 'arrival', flags: [] });
      const [first] = await slotsOf(accountId);
      expect(first).toMatchObject({ arrival_door: 'Main entrance', departure_door: 'Garage door', flags: ['two_doors'] });
    });

    it('flags a day open past 16 h: at the next scan, which arrives anew, and by the sweeper when none comes', async () => {
      const late = await holder();
      expect(outcomes(await post(lobby, [{ uid: late.uid, at: Date.now() - 20 * 60 * MINUTE }]))).toEqual(['arrival']);
      expect(outcomes(await post(lobby, [{ uid: late.uid, at: Date.now() }]))).toEqual(['arrival']);
      const [flagged, fresh] = await slotsOf(late.accountId);
      expect(flagged).toMatchObject({ departed_at: null, flags: ['open_day'] });
      expect(fresh).toMatchObject({ departed_at: null, flags: [] });

      const silent = await holder();
      const arrivedAt = Date.now() - 2 * 60 * MINUTE;
      await post(lobby, [{ uid: silent.uid, at: arrivedAt }]);
      const sweeper = app.app.get(OpenDaySweeper);
      const [day] = (await slotsOf(silent.accountId)).map((slot) => slot.day);
      const stream = () => app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${silent.accountId}-${day}`);
      // other tests' slots may be open too: this one's stream tells what the sweeper did to it
      await sweeper.sweep(new Date(arrivedAt + 15 * 60 * MINUTE));
      expect((await stream()).map((event) => event.type)).toEqual(['ArrivalRecorded']);
      expect(await sweeper.sweep(new Date(arrivedAt + 17 * 60 * MINUTE))).toBeGreaterThanOrEqual(1);
      expect((await stream()).map((event) => event.type)).toEqual(['ArrivalRecorded', 'OpenDayFlagged']);
      // the sweeper runs in the background: its flag reaches the read model a moment later
      await expect.poll(async () => (await slotsOf(silent.accountId))[0].flags).toEqual(['open_day']);
      const [slot] = await slotsOf(silent.accountId);
      expect(slot.departed_at).toBeNull();
      // once only
      const events = await app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${silent.accountId}-${slot.day}`);
      await sweeper.sweep(new Date(arrivedAt + 18 * 60 * MINUTE));
      expect(await app.app.get<EventStore>(EVENT_STORE).readStream(`attendance-${silent.accountId}-${slot.day}`)).toHaveLength(events.length);
    });

    it('keeps a scan older than the latest slot as out of order, and a deleted account\'s card as unknown, and free to register again', async () => {
      const { accountId, uid } = await holder();
      const start = Date.now() - 60 * MINUTE;
      await post(lobby, [{ uid, at: start }]);
      expect(outcomes(await post(garage, [{ uid, at: start - 10 * MINUTE }]))).toEqual(['out_of_order']);
      expect(await slotsOf(accountId)).toHaveLength(1);
      expect((await admin.raw('DELETE', `/api/v1/account/${accountId}`)).status).toBe(200);
      expect(outcomes(await post(lobby, [{ uid, at: Date.now() }]))).toEqual(['unknown_card']);
      // and free: register mode gives it to someone else
      const next = await createAccount(admin);
      await arm(next.id);
      expect(outcomes(await post(enrollment, [{ uid }]))).toEqual(['card_registered']);
      expect((await cardsOf(next.id)).data.map((card: { card_uid: string }) => card.card_uid)).toEqual([uid]);
      // so is an assigned one
      const orphan = await holder();
      expect((await admin.raw('DELETE', `/api/v1/account/${orphan.accountId}`)).status).toBe(200);
      const assigned = await admin.post('/api/v1/scanner/unknown-cards/assign', { card_uid: orphan.uid, account_id: next.id });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
      const events = await app.app.get<EventStore>(EVENT_STORE).readStream(`smart-card-${orphan.uid}`);
      expect(events.map((event) => event.type)).toEqual(['SmartCardRegistered', 'SmartCardRemoved', 'SmartCardRegistered']);
    });
  });
});
