import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

describe.each(storageKinds())('unknown cards: listed with how often they were seen, assigned or dismissed (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let lobby: { id: string; client: Client; sequence: number };
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/readers', { name: 'Lobby', door: 'Main entrance', role: 'door' });
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    lobby = { id: created.body.data.id, client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let uids = 0;
  const newUid = () => `05${(0x10000000 + (uids += 1) * 7919 + Math.floor(Math.random() * 1000)).toString(16).toUpperCase().padStart(8, '0')}`;
  const scan = async (uid: string) => {
    const now = new Date().toISOString();
    const answer = await lobby.client.post('/api/v2/reader/scans', { sent_at: now, scans: [{ card_uid: uid, sequence: (lobby.sequence += 1), device_time: now }] });
    expect(answer.body.acks[0].outcome).toBe('unknown_card');
  };
  const listed = async (client = admin) => (await client.get('/api/v2/scanner/unknown-cards')).body.data as Array<{ card_uid: string; scans: number; door: string; reader_name: string }>;
  const trpcDismiss = (client: Client, input: unknown) => client.post('/trpc/smartCards.dismissUnknown', input);

  it('counts the scans of a card, takes it off the list with a reason kept as an event, and lists it again at its next scan', async () => {
    const uid = newUid();
    await scan(uid);
    await scan(uid);
    expect((await listed()).find((card) => card.card_uid === uid)).toMatchObject({ scans: 2, door: 'Main entrance', reader_name: 'Lobby' });

    const dismissed = await admin.post('/api/v2/scanner/unknown-cards/dismiss', { card_uid: uid.toLowerCase(), reason: 'A visitor’s hotel card' });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect(dismissed.body).toEqual({ data: { card_uid: uid } });
    expect((await listed()).map((card) => card.card_uid)).not.toContain(uid);
    const events = await app.app.get<EventStore>(EVENT_STORE).readStream(`unknown-card-${uid}`);
    expect(events.map((event) => [event.type, (event.data as { reason: string }).reason])).toEqual([['UnknownCardDismissed', 'A visitor’s hotel card']]);

    // not listed any more: nothing to dismiss, said under the field
    const again = await admin.post('/api/v1/scanner/unknown-cards/dismiss', { card_uid: uid });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'unknown_card.not_found', fields: { card_uid: [expect.any(String)] } });

    // seen again: listed again, counted from one; v1 and the unprefixed v2 dismiss it too
    await scan(uid);
    expect((await listed()).find((card) => card.card_uid === uid)).toMatchObject({ scans: 1 });
    const v1 = await admin.post('/api/v1/scanner/unknown-cards/dismiss', { card_uid: uid });
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    expect(v1.body).toEqual({ card_uid: uid });
    await scan(uid);
    expect((await admin.post('/api/scanner/unknown-cards/dismiss', { card_uid: uid })).status).toBe(200);
    await scan(uid);
    const overTrpc = await trpcDismiss(admin, { card_uid: uid, reason: '' });
    expect(overTrpc.status, JSON.stringify(overTrpc.body)).toBe(200);
    expect((await listed()).map((card) => card.card_uid)).not.toContain(uid);
  });

  it('refuses bad input by field and rule, and changes nothing', async () => {
    const uid = newUid();
    await scan(uid);
    const malformed = await admin.post('/api/v2/scanner/unknown-cards/dismiss', { card_uid: '12 34' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields.card_uid).toEqual(['Card UID must be 4 to 16 bytes (8 to 32 hex digits)']);
    const long = await admin.post('/api/v2/scanner/unknown-cards/dismiss', { card_uid: uid, reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error.fields.reason).toEqual(['The reason may be at most 500 characters']);
    expect((await listed()).map((card) => card.card_uid)).toContain(uid);
  });

  it('needs readers:manage everywhere on REST v1, v2, /api and tRPC: an organization administrator or a viewer dismisses nothing', async () => {
    const uid = newUid();
    await scan(uid);
    const stamp = Date.now().toString(36);
    const idOf = (body: { id?: string; data?: { id: string } }) => {
      const id = body.data?.id ?? body.id;
      if (!id) throw new Error(JSON.stringify(body));
      return id;
    };
    const organization = idOf((await admin.post('/api/v2/organization', { title: `Doors ${stamp}`, description: '', parent_id: null })).body);
    const permission = async (slug: string) => idOf((await admin.post('/api/v2/permission', { organization_id: organization, title: `${slug} ${stamp}`, slug, description: '' })).body);
    const member = async (slug: string, permissions: string[]) => {
      const role = idOf((await admin.post(`/api/v2/organization/${organization}/role`, { title: `${slug} ${stamp}`, slug: `${slug}-${stamp}`, description: '', permissions })).body);
      const account = await createAccount(admin, { organization });
      const granted = await admin.post(`/api/v2/organization/${organization}/account-role`, { account_id: account.id, role_id: role });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      return http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    };
    const [readersManage, attendanceRead] = [await permission('readers:manage'), await permission('attendance:read')];
    // the keeper manages readers within one organization only; the viewer does not manage readers
    const keeper = await member('keeper', [readersManage, attendanceRead]);
    const viewer = await member('viewer', [attendanceRead]);
    for (const client of [keeper, viewer]) {
      for (const path of ['/api/v1', '/api/v2', '/api']) {
        const answer = await client.post(`${path}/scanner/unknown-cards/dismiss`, { card_uid: uid });
        expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(403);
      }
      expect((await trpcDismiss(client, { card_uid: uid })).status).toBe(403);
    }
    expect((await listed()).map((card) => card.card_uid)).toContain(uid);
  });
});
