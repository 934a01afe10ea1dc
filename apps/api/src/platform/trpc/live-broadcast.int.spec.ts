import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/**
 * live.attendance goes out per audience (docs/adr/0024): the consoles whose grants let them see the
 * same are pushed one filtered, once-encoded payload of each commit, written under each
 * subscription's own id in tRPC's wire format; a socket whose grants change is in its new audience
 * at the next push, one that lost attendance:read has its subscription ended with FORBIDDEN.
 */

interface Frame {
  id: number | string | null;
  result?: { type: string; data?: Array<{ kind: string; account_id?: string | null }> };
  error?: { data: { code: string } };
}

/** a console socket spoken to in tRPC's own wire format, every text frame kept as it came */
async function consoleSocket(url: string, token: string) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${token}`, origin: url } });
  const texts: string[] = [];
  socket.on('message', (data) => {
    const text = data.toString();
    if (text !== 'PING') texts.push(text);
  });
  socket.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
  });
  const frames = () => texts.map((text) => JSON.parse(text) as Frame);
  const of = (id: number | string) => frames().filter((frame) => frame.id === id);
  return {
    socket,
    texts,
    of,
    /** subscribes under `id` and waits until tRPC says it started */
    subscribe: async (path: string, id: number | string = 1) => {
      socket.send(JSON.stringify({ id, method: 'subscription', params: { path } }));
      await expect.poll(() => of(id).map((frame) => frame.result?.type ?? frame.error?.data.code)).toContain('started');
      return id;
    },
    stop: (id: number | string) => socket.send(JSON.stringify({ id, method: 'subscription.stop' })),
    /** the data frames of one subscription, as text */
    dataTexts: (id: number | string) => texts.filter((text) => (JSON.parse(text) as Frame).id === id && (JSON.parse(text) as Frame).result?.type === 'data'),
    /** every account whose scans one subscription was pushed, in order */
    scannedAccounts: (id: number | string = 1) =>
      of(id)
        .flatMap((frame) => (frame.result?.type === 'data' ? (frame.result.data ?? []) : []))
        .filter((message) => message.kind === 'attendance.scan')
        .map((message) => message.account_id ?? 'none'),
    forbidden: (id: number | string = 1) => of(id).some((frame) => frame.error?.data.code === 'FORBIDDEN'),
  };
}

type Socket = Awaited<ReturnType<typeof consoleSocket>>;

describe.each(storageKinds())('live.attendance, pushed per audience (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  let door: ReturnType<typeof http>;
  let sequence = 0;
  const stamp = Date.now().toString(36);
  const places: Record<'A' | 'B', { organization: string; role: string }> = { A: { organization: '', role: '' }, B: { organization: '', role: '' } };
  const open: Socket[] = [];

  const created = async (answer: Promise<{ status: number; body: { id?: string; data?: { id: string } } }>) => {
    const { status, body } = await answer;
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    return body.data?.id ?? body.id!;
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const reader = await created(admin.post('/api/v2/readers', { name: `Audience door ${stamp}`, door: 'Audience entrance', role: 'door' }));
    door = http(app.url, (await admin.post(`/api/v2/readers/${reader}/token`)).body.data.token as string);
    for (const where of ['A', 'B'] as const) {
      const organization = await created(admin.post('/api/v2/organization', { title: `Audience ${where} ${stamp}`, description: '', parent_id: null }));
      const permission = await created(admin.post('/api/v2/permission', { organization_id: organization, title: `attendance:read ${where} ${stamp}`, slug: 'attendance:read', description: '' }));
      const role = await created(admin.post(`/api/v2/organization/${organization}/role`, { title: `Viewer ${where} ${stamp}`, slug: `viewer-${where.toLowerCase()}-${stamp}`, description: '', permissions: [permission] }));
      places[where] = { organization, role };
    }
  });
  afterAll(async () => {
    for (const socket of open) socket.socket.close();
    await app?.destroy();
  });

  const grant = async (accountId: string, where: 'A' | 'B') => {
    const granted = await admin.post(`/api/v2/organization/${places[where].organization}/account-role`, { account_id: accountId, role_id: places[where].role });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  };
  const revoke = async (accountId: string, where: 'A' | 'B') => {
    const revoked = await admin.raw('DELETE', `/api/v2/organization/${places[where].organization}/account-role?account_id=${accountId}&role_id=${places[where].role}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
  };
  /** an account of the organization holding its viewer role (attendance:read there), signed in */
  const viewerIn = async (where: 'A' | 'B') => {
    const account = await createAccount(admin, { organization: places[where].organization });
    await grant(account.id, where);
    return { id: account.id, token: await signIn(app.url, { username: account.username, password: account.password }) };
  };
  const watching = async (token: string) => {
    const socket = await consoleSocket(app.url, token);
    open.push(socket);
    await socket.subscribe('live.attendance');
    return socket;
  };
  /** a member of the organization with a card of its own */
  const memberIn = async (where: 'A' | 'B') => {
    const account = await createAccount(admin, { organization: places[where].organization });
    const uid = `04${(0x10000000 + Math.floor(Math.random() * 0xefffffff)).toString(16).toUpperCase()}`;
    const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    return { id: account.id, uid };
  };
  /** the members' scans in one request: one commit */
  const scan = async (...members: Array<{ uid: string }>) => {
    const now = Date.now();
    const scans = members.map((member, index) => ({ card_uid: member.uid, sequence: (sequence += 1), device_time: new Date(now - (members.length - index) * 1000).toISOString() }));
    const posted = await door.post('/api/v2/reader/scans/batch', { sent_at: new Date(now).toISOString(), scans });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
  };

  it('pushes one commit to two audiences, each only its own organization\'s scans, and all of it to the administrator', async () => {
    const [viewerA, otherViewerA, viewerB] = [await viewerIn('A'), await viewerIn('A'), await viewerIn('B')];
    const [socketA, otherSocketA, socketB, everything] = [await watching(viewerA.token), await watching(otherViewerA.token), await watching(viewerB.token), await watching(await signIn(app.url))];
    const [memberA, memberB] = [await memberIn('A'), await memberIn('B')];

    await scan(memberA, memberB);
    await expect.poll(() => everything.scannedAccounts(), { timeout: 5000 }).toEqual([memberA.id, memberB.id]);
    await expect.poll(() => socketA.scannedAccounts(), { timeout: 5000 }).toEqual([memberA.id]);
    await expect.poll(() => socketB.scannedAccounts(), { timeout: 5000 }).toEqual([memberB.id]);
    // one frame of the commit each, and nothing at all of the other organization's member
    for (const [socket, hidden] of [[socketA, memberB], [otherSocketA, memberB], [socketB, memberA]] as const) {
      await expect.poll(() => socket.dataTexts(1).length, { timeout: 5000 }).toBe(1);
      expect(socket.dataTexts(1)[0]).not.toContain(hidden.id);
      expect(socket.dataTexts(1)[0]).not.toContain(hidden.uid);
    }
    // the same audience, the same bytes; each frame is tRPC's data envelope, byte for byte
    expect(otherSocketA.dataTexts(1)).toEqual(socketA.dataTexts(1));
    for (const socket of [socketA, socketB, everything]) {
      const [text] = socket.dataTexts(1);
      expect(text).toBe(JSON.stringify({ id: 1, result: { type: 'data', data: (JSON.parse(text) as Frame).result?.data } }));
    }
    expect(JSON.parse(socketA.dataTexts(1)[0]).result.data).toEqual([
      expect.objectContaining({ kind: 'attendance.scan', account_id: memberA.id, outcome: 'arrival' }),
      expect.objectContaining({ kind: 'presence.changed', account_id: memberA.id, present: true }),
    ]);
  });

  it('moves a socket to its new audience when its grants change, and ends its subscription with FORBIDDEN at the next push once attendance:read is gone', async () => {
    const viewer = await viewerIn('A');
    const socket = await watching(viewer.token);
    const everything = await watching(await signIn(app.url));
    const pushed = (count: number) => expect.poll(() => everything.dataTexts(1).length, { timeout: 5000 }).toBe(count);

    // a role in B as well: the next push shows B's scans too
    const joined = await admin.post(`/api/v2/account/${viewer.id}/associate/organization`, { organization_id: places.B.organization });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    await grant(viewer.id, 'B');
    const [memberA, memberB] = [await memberIn('A'), await memberIn('B')];
    await scan(memberA, memberB);
    await pushed(1);
    await expect.poll(() => socket.scannedAccounts(), { timeout: 5000 }).toEqual([memberA.id, memberB.id]);

    // A's role revoked: B's audience from the next push on, still subscribed
    await revoke(viewer.id, 'A');
    const [laterA, laterB] = [await memberIn('A'), await memberIn('B')];
    await scan(laterA, laterB);
    await pushed(2);
    await expect.poll(() => socket.scannedAccounts(), { timeout: 5000 }).toEqual([memberA.id, memberB.id, laterB.id]);
    expect(socket.forbidden()).toBe(false);

    // B's revoked too: attendance:read is held nowhere, the next push ends the subscription and carries nothing to it
    await revoke(viewer.id, 'B');
    const lastB = await memberIn('B');
    await scan(lastB);
    await pushed(3);
    await expect.poll(() => socket.forbidden(), { timeout: 5000 }).toBe(true);
    expect(socket.scannedAccounts()).toEqual([memberA.id, memberB.id, laterB.id]);
    expect(socket.texts.join('\n')).not.toContain(lastB.id);
  });

  it('ends the subscription of a session that must enrol a second factor now (its policy requires one) and pushes it nothing more, while a free session of the same grants is pushed on', async () => {
    const rule = { title: `Live enrolment ${stamp}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60 };
    const policy = await created(admin.post('/api/v2/policy', { ...rule, second_factor: 'off' }));
    const account = await createAccount(admin, { organization: places.A.organization, policy: true, policy_id: policy });
    await grant(account.id, 'A');
    const restricted = await watching(await signIn(app.url, { username: account.username, password: account.password }));
    const free = await watching((await viewerIn('A')).token);
    const first = await memberIn('A');
    await scan(first);
    await expect.poll(() => restricted.scannedAccounts(), { timeout: 5000 }).toEqual([first.id]);

    const changed = await admin.raw('PUT', `/api/v2/policy/${policy}`, { ...rule, second_factor: 'all' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const later = await memberIn('A');
    await scan(later);
    await expect.poll(() => free.scannedAccounts(), { timeout: 5000 }).toEqual([first.id, later.id]);
    await expect.poll(() => restricted.forbidden(), { timeout: 5000 }).toBe(true);
    expect(restricted.texts.join('\n')).toContain('auth.second_factor_enrolment_required');
    expect(restricted.texts.join('\n')).not.toContain(later.id);
  });

  it('writes a push to every live.attendance subscription of a socket under its own id, to none of its other subscriptions, and no more to one stopped', async () => {
    const socket = await consoleSocket(app.url, await signIn(app.url));
    open.push(socket);
    await socket.subscribe('live.attendance', 1);
    await socket.subscribe('live.attendance', 'second');
    await socket.subscribe('live.accounts', 3);
    const member = await memberIn('A');
    await scan(member);
    await expect.poll(() => socket.scannedAccounts(1), { timeout: 5000 }).toEqual([member.id]);
    await expect.poll(() => socket.scannedAccounts('second'), { timeout: 5000 }).toEqual([member.id]);
    expect(socket.dataTexts('second')[0]).toBe(socket.dataTexts(1)[0].replace('{"id":1,', '{"id":"second",'));
    expect(socket.of(3).flatMap((frame) => frame.result?.data ?? []).some((message) => message.kind === 'attendance.scan')).toBe(false);

    socket.stop(1);
    await expect.poll(() => socket.of(1).some((frame) => frame.result?.type === 'stopped')).toBe(true);
    const later = await memberIn('A');
    await scan(later);
    await expect.poll(() => socket.scannedAccounts('second'), { timeout: 5000 }).toEqual([member.id, later.id]);
    expect(socket.scannedAccounts(1)).toEqual([member.id]);
  });
});
