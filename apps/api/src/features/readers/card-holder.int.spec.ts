import type { TLiveMessage } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveFeed } from '../../platform/live/live-feed';
import { ATTENDANCE_BATCH } from '../attendance/attendance.live';
import { createAccount, http, liveClient, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/**
 * 'Add a smartcard' and a card another account holds (docs/adr/0013, 0011): the refusal is pushed
 * live to who may see the armed account's register mode, and `readers.cardHolder` names the holder
 * only to who may read the holder's account.
 */
describe.each(storageKinds())('a taken card in register mode (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let enrollment: { id: string; client: Client; sequence: number };
  let live: TLiveMessage[] = [];
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    app.app.get(LiveFeed).emitter.on(ATTENDANCE_BATCH, (messages: TLiveMessage[]) => live.push(...messages));
    const created = await admin.post('/api/v2/readers', { name: 'Desk', door: 'HR office', role: 'enrollment' });
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    enrollment = { id: created.body.data.id, client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let uids = 0;
  const newUid = () => `04${(0x20000000 + (uids += 1) * 7919 + Math.floor(Math.random() * 1000)).toString(16).toUpperCase().padStart(8, '0')}`;
  const scan = async (uid: string) => {
    const now = new Date().toISOString();
    const answer = await enrollment.client.post('/api/v2/reader/scans', { sent_at: now, scans: [{ card_uid: uid, sequence: (enrollment.sequence += 1), device_time: now }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.acks[0].outcome as string;
  };
  const arm = async (client: Client, accountId: string) => expect((await client.post(`/api/v1/scanner/mode/register/${accountId}`)).status).toBe(200);
  const holderOf = (client: Client, accountId: string, uid: string) => client.get(`/trpc/readers.cardHolder?input=${encodeURIComponent(JSON.stringify({ account_id: accountId, card_uid: uid }))}`);
  const created = async (answer: Promise<{ status: number; body: { id?: string; data?: { id: string } } }>) => {
    const { status, body } = await answer;
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    return body.data?.id ?? body.id!;
  };

  it('pushes the refusal to the dialog, keeps the reader armed, and names the holder to a super administrator', async () => {
    const alice = await createAccount(admin, { first_name: 'Alice' });
    const bob = await createAccount(admin);
    const uid = newUid();
    await arm(admin, alice.id);
    expect(await scan(uid)).toBe('card_registered');

    live = [];
    await arm(admin, bob.id);
    expect(await scan(uid.toLowerCase())).toBe('card_taken');
    await expect.poll(() => live.find((message) => message.kind === 'scanner.card_taken')).toMatchObject({ kind: 'scanner.card_taken', account_id: bob.id, reader_id: enrollment.id, card_uid: uid });
    // the message names nobody: the holder is asked for
    expect(JSON.stringify(live)).not.toContain(alice.id);
    expect((await admin.get(`/api/v2/readers/${enrollment.id}`)).body.data.register_mode).toMatchObject({ account_id: bob.id });

    const answer = await holderOf(admin, bob.id, uid);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result.data).toEqual({ held: true, visible: true, account_id: alice.id, first_name: 'Alice', last_name: alice.last_name });
    expect((await holderOf(admin, bob.id, newUid())).body.result.data).toEqual({ held: false });
    // bad input names the field
    const bad = await holderOf(admin, bob.id, 'not a card');
    expect(bad.status).toBe(400);
    expect(await admin.post('/api/v2/scanner/cancel')).toMatchObject({ status: 200 });
  });

  it('tells an organization administrator only that another account holds it, and pushes nothing of accounts outside its organization', async () => {
    const stamp = Date.now().toString(36);
    const organization = await created(admin.post('/api/v2/organization', { title: `Desk ${stamp}`, description: '', parent_id: null }));
    const other = await created(admin.post('/api/v2/organization', { title: `Elsewhere ${stamp}`, description: '', parent_id: null }));
    const permissions = [];
    for (const slug of ['readers:manage', 'accounts:read', 'attendance:read']) permissions.push(await created(admin.post('/api/v2/permission', { organization_id: organization, title: `${slug} ${stamp}`, slug, description: '' })));
    const role = await created(admin.post(`/api/v2/organization/${organization}/role`, { title: `Desk keeper ${stamp}`, slug: `desk-keeper-${stamp}`, description: '', permissions }));
    const keeper = await createAccount(admin, { organization });
    expect((await admin.post(`/api/v2/organization/${organization}/account-role`, { account_id: keeper.id, role_id: role })).status).toBe(200);
    const keeperToken = await signIn(app.url, { username: keeper.username, password: keeper.password });
    const keeperClient = http(app.url, keeperToken);

    const outsider = await createAccount(admin, { organization: other, first_name: 'Olga' });
    const newcomer = await createAccount(admin, { organization });
    const stranger = await createAccount(admin, { organization: other });
    const uid = newUid();
    await arm(admin, outsider.id);
    expect(await scan(uid)).toBe('card_registered');

    const { client, close } = liveClient(app.url, keeperToken);
    const received: TLiveMessage[] = [];
    const subscription = await new Promise<{ unsubscribe(): void }>((resolve) => {
      const started = client.live.attendance.subscribe(undefined, { onStarted: () => resolve(started), onData: (messages) => received.push(...messages) });
    });
    try {
      // armed for an account outside the keeper's organization: nothing of it reaches the keeper
      await arm(admin, stranger.id);
      expect(await scan(uid)).toBe('card_taken');
      expect(await admin.post('/api/v2/scanner/cancel')).toMatchObject({ status: 200 });
      // armed by the keeper for its own newcomer: the refusal reaches it, the holder stays unnamed
      await arm(keeperClient, newcomer.id);
      expect(await scan(uid)).toBe('card_taken');
      await expect.poll(() => received.filter((message) => message.kind === 'scanner.card_taken').map((message) => (message as { account_id: string }).account_id), { timeout: 5000 }).toEqual([newcomer.id]);

      const answer = await holderOf(keeperClient, newcomer.id, uid);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.result.data).toEqual({ held: true, visible: false });
      expect(JSON.stringify(answer.body)).not.toContain(outsider.id);
      expect(JSON.stringify(answer.body)).not.toContain('Olga');
      // asking about an account outside its organization is refused, without a word of the holder
      const refused = await holderOf(keeperClient, stranger.id, uid);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(refused.body)).not.toContain('Olga');
      expect(await keeperClient.post('/api/v2/scanner/cancel')).toMatchObject({ status: 200 });
    } finally {
      subscription.unsubscribe();
      await close();
    }
  });
});
