import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { CommandGateway } from '../../platform/commands/command-gateway';
import { systemContext } from '../../platform/commands/request-context';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { Kysely } from 'kysely';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { SESSION_ENDED_CLOSE } from '../../platform/trpc/live-connection';
import { GiveApplicationConsentCommand } from '../oidc/commands/give-application-consent.handler';

/**
 * A page of one's own (docs/api/compat.md, 'A page of one's own'): an ordinary account, holding no
 * permission at all, reads and changes only its own things, through REST v2, unprefixed /api and tRPC,
 * and no call reaches another account's.
 */

type Client = ReturnType<typeof http>;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const credentialsOf = (account: { username: string; password: string }) => ({ username: account.username, password: account.password });
const trpcError = (response: { body: { error?: { data?: { httpStatus?: number; apiError?: { code: string; fields?: Record<string, string[]> } } } } }) => response.body.error?.data;

describe.each(storageKinds())('a page of one\'s own (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  /** an account without any role, signed in */
  const ordinary = async (overrides: Record<string, unknown> = {}) => {
    const account = await createAccount(admin, overrides);
    const token = await signIn(app.url, credentialsOf(account));
    return { account, token, client: http(app.url, token) };
  };
  const sessionIdOf = async (client: Client) => ((await client.get('/api/v2/me/sessions')).body.data as Array<{ id: string; current: boolean }>).find((session) => session.current)!.id;
  const trpcMutation = (client: Client, path: string, input?: unknown) => client.post(`/trpc/${path}`, input ?? {});
  const trpcQuery = (client: Client, path: string, input?: unknown) => client.get(`/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`);
  const consentTo = async (accountId: string) => {
    const application = (await admin.post('/api/v2/application', { title: `Wiki ${randomBytes(4).toString('hex')}` })).body.data.app as { id: string };
    await app.app.get(CommandGateway).execute(new GiveApplicationConsentCommand(accountId, application.id, ['openid', 'profile'], systemContext()));
    return application.id;
  };
  /** a door reader, a card given to the account and one scan of it now */
  const scanCardOf = async (accountId: string) => {
    const reader = (await admin.post('/api/v2/readers', { name: `Door ${randomBytes(4).toString('hex')}`, door: 'Front door', role: 'door' })).body.data as { id: string };
    const readerToken = (await admin.post(`/api/v2/readers/${reader.id}/token`)).body.data.token as string;
    const uid = randomBytes(7).toString('hex').toUpperCase();
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: accountId })).status).toBe(201);
    const scanned = await http(app.url, readerToken).post('/api/v2/reader/scans', { card_uid: uid, sequence: 1, device_time: new Date().toISOString(), sent_at: new Date().toISOString() });
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
    return uid;
  };
  /** does the WebSocket upgrade with this session succeed (open) or get refused (its status)? */
  const upgrade = (token: string) =>
    new Promise<'open' | number>((resolve, reject) => {
      const socket = new WebSocket(`${app.url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${token}`, origin: app.url, 'user-agent': FIREFOX } });
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('error', reject);
    });
  /** an open console socket and the code it was closed with, if it was */
  const openSocket = async (token: string) => {
    const socket = new WebSocket(`${app.url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${token}`, origin: app.url, 'user-agent': FIREFOX } });
    let closedWith: number | undefined;
    socket.on('close', (code) => (closedWith = code));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('open', resolve));
    return { closedWith: () => closedWith, close: () => socket.close() };
  };

  it('shows an ordinary account its own profile, sessions, attendance and consents, and nothing of another account through any call', async () => {
    const ada = await ordinary();
    const bob = await ordinary();
    const bobSession = await sessionIdOf(bob.client);
    const bobConsent = await consentTo(bob.account.id);
    const bobCard = await scanCardOf(bob.account.id);

    for (const prefix of ['/api/v2', '/api']) {
      const profile = await ada.client.get(`${prefix}/me/profile`);
      expect(profile.status, JSON.stringify(profile.body)).toBe(200);
      expect(profile.body.data).toMatchObject({ id: ada.account.id, first_name: ada.account.first_name, email: ada.account.email });
      const sessions = (await ada.client.get(`${prefix}/me/sessions`)).body.data as Array<{ id: string }>;
      expect(sessions.map((session) => session.id)).not.toContain(bobSession);
      const attendance = (await ada.client.get(`${prefix}/me/attendance`)).body.data as { cards: Array<{ card_uid: string }>; today: { attendance: Array<{ arrived: unknown }> } };
      expect(attendance.cards).toEqual([]);
      expect(attendance.today.attendance.every((row) => row.arrived === null)).toBe(true);
      expect((await ada.client.get(`${prefix}/me/consents`)).body.data).toEqual([]);
    }
    // no call takes another account's id: named, it is refused or unknown
    const aimed = [
      await ada.client.get(`/api/v2/me/attendance?account_id=${bob.account.id}`),
      await ada.client.raw('PATCH', '/api/v2/me/profile', { id: bob.account.id, nickname: 'Bob' }),
      await ada.client.raw('PATCH', '/api/v2/me/profile', { account_id: bob.account.id, nickname: 'Bob' }),
    ];
    for (const response of aimed) expect(response.status, JSON.stringify(response.body)).toBe(400);
    const signOutBob = await ada.client.raw('DELETE', `/api/v2/me/sessions/${bobSession}`);
    expect(signOutBob.status).toBe(404);
    expect(signOutBob.body.error.code).toBe('session.not_found');
    expect((await ada.client.raw('DELETE', `/api/v2/me/consents/${bobConsent}`)).status).toBe(404);
    // tRPC alike
    expect(trpcError(await trpcMutation(ada.client, 'me.signOutSession', { id: bobSession }))?.httpStatus).toBe(404);
    expect(trpcError(await trpcMutation(ada.client, 'me.revokeConsent', { application_id: bobConsent }))?.httpStatus).toBe(404);
    expect(trpcError(await trpcQuery(ada.client, 'me.attendance', { account_id: bob.account.id }))?.httpStatus).toBe(400);
    expect(trpcError(await trpcMutation(ada.client, 'me.updateProfile', { id: bob.account.id, nickname: 'Bob' }))?.httpStatus).toBe(400);
    expect((await trpcQuery(ada.client, 'me.profile')).body.result.data.id).toBe(ada.account.id);
    expect((await trpcQuery(ada.client, 'me.attendance')).body.result.data.cards).toEqual([]);
    // signing out all its other sessions, and changing its profile and password, touch only its own
    expect((await ada.client.raw('DELETE', '/api/v2/me/sessions')).status).toBe(200);
    expect((await trpcMutation(ada.client, 'me.signOutOtherSessions')).status).toBe(200);
    expect((await ada.client.raw('PATCH', '/api/v2/me/profile', { nickname: 'Ada' })).status).toBe(200);
    expect((await ada.client.post('/api/v2/me/password', { current_password: ada.account.password, new_password: 'a second secret of ada 1843' })).status).toBe(200);
    // Bob's things are as they were
    expect((await bob.client.get('/api/v1/account/current')).status).toBe(200);
    expect((await bob.client.post('/api/v2/me/password', { current_password: bob.account.password, new_password: 'a second secret of bob 1843' })).status).toBe(200);
    expect(((await bob.client.get('/api/v2/me/consents')).body.data as Array<{ application_id: string }>).map((consent) => consent.application_id)).toEqual([bobConsent]);
    expect(((await bob.client.get('/api/v2/me/attendance')).body.data as { cards: Array<{ card_uid: string }> }).cards.map((card) => card.card_uid)).toEqual([bobCard]);
    expect((await admin.get(`/api/v1/account/${bob.account.id}`)).body.additional.nickname ?? null).toBeNull();
  });

  it('takes sessions only: an access token, even its own account\'s, cannot call the page', async () => {
    const adminId = (await admin.get('/api/v1/account/current')).body.id as string;
    const token = (await admin.post('/api/v1/token', { title: 'Script', forever: true, permissions: ['accounts:read', 'attendance:read'], account_id: adminId })).body.token as string;
    for (const path of ['/api/v2/me/profile', '/api/v2/me/sessions', '/api/v2/me/attendance', '/api/v2/me/consents']) {
      const response = await http(app.url, token).get(path);
      expect(response.status, path).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    expect(trpcError(await trpcQuery(http(app.url, token), 'me.profile'))?.httpStatus).toBe(403);
    expect((await http(app.url).get('/api/v2/me/profile')).status).toBe(401);
  });

  it('lists its sessions with when, where from and what each is, and signs out one other (an event; its next call is 401 over HTTP and the WebSocket)', async () => {
    const ada = await ordinary();
    const other = await signIn(app.url, credentialsOf(ada.account));
    const otherClient = http(app.url, other);
    const otherId = await sessionIdOf(otherClient);
    // a browser: the console's cookie and a browser's user agent
    expect((await http(app.url).get('/api/v2/me/profile', { cookie: `user_session=${other}`, 'user-agent': FIREFOX })).status).toBe(200);
    const socket = await openSocket(other);

    const sessions = (await ada.client.get('/api/v2/me/sessions', { 'user-agent': 'curl/8.5.0' })).body.data as Array<{ id: string; current: boolean; kind: string; client: string | null; signed_in_from: string | null; last_seen_at: string | null; started_at: string }>;
    expect(sessions).toHaveLength(2);
    const current = sessions.find((session) => session.current)!;
    expect(current).toMatchObject({ kind: 'api', client: 'curl 8.5.0' });
    const firefox = sessions.find((session) => session.id === otherId)!;
    expect(firefox).toMatchObject({ current: false, kind: 'browser', client: 'Firefox 133 on Linux', last_seen_at: expect.any(String) });
    expect(firefox.signed_in_from).toMatch(/127\.0\.0\.1|::1/);

    // the session asking cannot sign itself out here
    const itself = await ada.client.raw('DELETE', `/api/v2/me/sessions/${current.id}`);
    expect(itself.status).toBe(400);
    expect(itself.body.error.fields).toHaveProperty('id');
    expect((await ada.client.raw('DELETE', '/api/v2/me/sessions/not-a-uuid')).body.error.fields).toHaveProperty('id');

    const signedOut = await ada.client.raw('DELETE', `/api/v2/me/sessions/${otherId}`);
    expect(signedOut.status, JSON.stringify(signedOut.body)).toBe(200);
    expect(signedOut.body.data).toEqual({ message: 'Session signed out', signed_out: 1 });
    expect((await otherClient.get('/api/v1/account/current')).status).toBe(401);
    expect((await otherClient.get('/trpc/auth.me')).status).toBe(401);
    expect((await otherClient.get('/api/v2/me/sessions')).status).toBe(401);
    expect(await upgrade(other)).toBe(401);
    await expect.poll(() => socket.closedWith(), { timeout: 5000 }).toBe(SESSION_ENDED_CLOSE);
    expect((await ada.client.get('/api/v1/account/current')).status).toBe(200);
    const history = await app.app.get<EventStore>(EVENT_STORE).readStream(`session-${otherId}`);
    expect(history.at(-1)).toMatchObject({ type: 'SessionEnded', metadata: { actor: ada.account.id } });

    // every other one, over tRPC: the current stays
    const third = await signIn(app.url, credentialsOf(ada.account));
    const fourth = await signIn(app.url, credentialsOf(ada.account));
    const all = await trpcMutation(ada.client, 'me.signOutOtherSessions');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.result.data).toEqual({ message: 'Other sessions signed out', signed_out: 2 });
    for (const token of [third, fourth]) {
      expect((await http(app.url, token).get('/trpc/me.sessions')).status).toBe(401);
      expect(await upgrade(token)).toBe(401);
    }
    expect(((await ada.client.get('/api/v2/me/sessions')).body.data as unknown[]).length).toBe(1);
    expect(await upgrade(ada.token)).toBe('open');
    socket.close();
  });

  it('changes its own password under its policy: bad input named by field and rule, other sessions end', async () => {
    const created = await admin.post('/api/v1/policy', { title: `Strict ${randomBytes(4).toString('hex')}`, description: '', min_length: 14, min_strength: 0, lockout: 20, lockout_duration: 60, history: 3 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const policy = created.body as { id: string };
    const ada = await ordinary({ policy: true, policy_id: policy.id, password: 'first secret of ada 1843' });
    const other = await signIn(app.url, credentialsOf(ada.account));
    const change = (body: unknown) => ada.client.post('/api/v2/me/password', body);

    const empty = await change({});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.error.fields)).toEqual(expect.arrayContaining(['current_password', 'new_password']));
    const short = await change({ current_password: ada.account.password, new_password: 'too short 1' });
    expect(short.status, JSON.stringify(short.body)).toBe(400);
    expect(short.body.error.code).toBe('password.too_short');
    expect(short.body.error.fields).toHaveProperty('new_password');
    const reused = await change({ current_password: ada.account.password, new_password: ada.account.password });
    expect(reused.status, JSON.stringify(reused.body)).toBe(400);
    expect(reused.body.error.code).toBe('password.reused');
    expect(reused.body.error.fields).toHaveProperty('new_password');
    const wrong = await change({ current_password: 'not my password at all', new_password: 'a long enough new secret 2026' });
    expect(wrong.status, JSON.stringify(wrong.body)).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    // none of these changed anything: the other session lives on
    expect((await http(app.url, other).get('/api/v1/account/current')).status).toBe(200);

    const changed = await change({ current_password: ada.account.password, new_password: 'a long enough new secret 2026' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await http(app.url, other).get('/api/v1/account/current')).status).toBe(401);
    expect((await ada.client.get('/api/v2/me/profile')).status).toBe(200);
    // over tRPC, the same rules
    const again = await trpcMutation(ada.client, 'me.changePassword', { current_password: 'a long enough new secret 2026', new_password: 'first secret of ada 1843' });
    expect(trpcError(again)?.apiError?.code).toBe('password.reused');
    expect(trpcError(again)?.apiError?.fields).toHaveProperty('new_password');
  });

  it('changes what it may of its own profile and nothing else', async () => {
    const ada = await ordinary();
    const saved = await ada.client.raw('PATCH', '/api/v2/me/profile', { nickname: 'Countess', time_zone: 'Europe/Berlin', locale: 'de', telephone: [{ value: '+44 20 7946 0000', type: 'work' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.message).toBe('Your profile was saved');
    expect(saved.body.data.account).toMatchObject({ id: ada.account.id, first_name: ada.account.first_name, email: ada.account.email, additional: { nickname: 'Countess', time_zone: 'Europe/Berlin', locale: 'de', telephone: [{ value: '+44 20 7946 0000', type: 'work' }] } });
    for (const field of ['email', 'status_id', 'policy_id', 'organization', 'username']) {
      const refused = await ada.client.raw('PATCH', '/api/v2/me/profile', { [field]: 'x' });
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.code).toBe('request.invalid');
    }
    const badZone = await ada.client.raw('PATCH', '/api/v2/me/profile', { time_zone: 'Mars/Olympus_Mons', first_name: '' });
    expect(badZone.status).toBe(400);
    expect(Object.keys(badZone.body.error.fields)).toEqual(expect.arrayContaining(['time_zone', 'first_name']));
    const account = (await admin.get(`/api/v1/account/${ada.account.id}`)).body;
    expect(account).toMatchObject({ first_name: ada.account.first_name, email: ada.account.email, additional: { nickname: 'Countess', time_zone: 'Europe/Berlin' } });
  });

  it('refuses a name that would read otherwise than it is, and a body that is not an object (review R24b F4 and its nit)', async () => {
    const ada = await ordinary();
    for (const [field, value] of [
      ['first_name', '\u202Eadmin'],
      ['last_name', 'Ad\u2028min'],
      ['last_name', 'x\u200By'],
      ['first_name', 'Ada\u2066Lovelace\u2069'],
    ] as const) {
      const refused = await ada.client.raw('PATCH', '/api/v2/me/profile', { [field]: value });
      expect(refused.status, `${field} ${JSON.stringify(value)}`).toBe(400);
      expect(refused.body.error.rules).toEqual([expect.objectContaining({ field, code: 'control_characters' })]);
      const overTrpc = await ada.client.post('/trpc/me.updateProfile', { [field]: value });
      expect(trpcError(overTrpc)?.httpStatus, `tRPC ${field}`).toBe(400);
    }
    // the joiners that Persian and Hindi names need stay allowed
    const persian = await ada.client.raw('PATCH', '/api/v2/me/profile', { last_name: 'می\u200Cخواهم' });
    expect(persian.status, JSON.stringify(persian.body)).toBe(200);
    for (const body of ['null', '[]', '"text"']) {
      const refused = await ada.client.raw('PATCH', '/api/v2/me/profile', body);
      expect(refused.status, body).toBe(400);
    }
    const account = (await admin.get(`/api/v1/account/${ada.account.id}`)).body;
    expect(account.first_name).toBe(ada.account.first_name);
  });

  it('sees its own attendance in its zone and revokes its consent to an application', async () => {
    const ada = await ordinary();
    await ada.client.raw('PATCH', '/api/v2/me/profile', { time_zone: 'Europe/Berlin' });
    const uid = await scanCardOf(ada.account.id);
    const attendance = (await ada.client.get('/api/v2/me/attendance')).body.data as { time_zone: string; today: { attendance: Array<{ arrived: { created_at: string } | null }> }; week: { time_zone: string }; month: { attendance: unknown[] }; cards: Array<{ card_uid: string }> };
    expect(attendance.time_zone).toBe('Europe/Berlin');
    expect(attendance.week.time_zone).toBe('Europe/Berlin');
    expect(attendance.today.attendance.some((row) => row.arrived !== null)).toBe(true);
    expect(attendance.cards.map((card) => card.card_uid)).toEqual([uid]);
    expect((await ada.client.get('/api/v2/me/attendance?date=2026-02-30')).body.error.fields).toHaveProperty('date');
    // an absence in the calendar this month, with its attendance status
    const status = (await admin.post('/api/v2/states/attendance', { title: `Vacation ${randomBytes(3).toString('hex')}` })).body.data as { id: string; title: string };
    const today = attendance.today as unknown as { from: string };
    const absence = await admin.post(`/api/v2/account/${ada.account.id}/tracking-status`, { event_group_title: 'Away', status_id: status.id, start_date: today.from, end_date: today.from, start_time: '00:00:00', end_time: '23:59:59', description: '', single: false, account_id: ada.account.id });
    expect(absence.status, JSON.stringify(absence.body)).toBe(201);
    const absences = ((await ada.client.get('/api/v2/me/attendance')).body.data as { absences: Array<{ status_title: string; title: string; account_id: string }> }).absences;
    expect(absences).toEqual([expect.objectContaining({ status_title: status.title, title: 'Away', account_id: ada.account.id })]);

    const applicationId = await consentTo(ada.account.id);
    expect(((await ada.client.get('/api/v2/me/consents')).body.data as Array<{ application_id: string; scopes: string[] }>)).toEqual([expect.objectContaining({ application_id: applicationId, scopes: expect.arrayContaining(['openid', 'profile']) })]);
    const revoked = await ada.client.raw('DELETE', `/api/v2/me/consents/${applicationId}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await ada.client.get('/api/v2/me/consents')).body.data).toEqual([]);
    const stream = await app.app.get<EventStore>(EVENT_STORE).readStream(`account-${ada.account.id}`);
    expect(stream.at(-1)).toMatchObject({ type: 'ApplicationConsentRevoked', metadata: { actor: ada.account.id } });
  });

  it('lists an application signed in as the account through OpenID Connect as a session, and signing it out ends its access', async () => {
    const ada = await ordinary();
    const bob = await ordinary();
    const applicationId = await consentTo(ada.account.id);
    // a grant and a live access token the provider issued to the application for Ada (as oidc-store.ts keeps them)
    const db = app.app.get<Kysely<ReadDatabase>>(READ_DB);
    const issued = Math.floor(Date.now() / 1000) - 60;
    await db.insertInto('oidc_store').values({ model: 'Grant', id: 'grant-of-ada', payload: JSON.stringify({ iat: issued, accountId: ada.account.id, clientId: applicationId }), grant_id: null, account_id: ada.account.id, client_id: applicationId, uid: null, user_code: null, expires_at: issued + 86_400, consumed_at: null }).execute();
    await db.insertInto('oidc_store').values({ model: 'AccessToken', id: randomBytes(16).toString('hex'), payload: JSON.stringify({ iat: issued, accountId: ada.account.id, clientId: applicationId }), grant_id: 'grant-of-ada', account_id: ada.account.id, client_id: applicationId, uid: null, user_code: null, expires_at: issued + 3600, consumed_at: null }).execute();

    const sessions = (await ada.client.get('/api/v2/me/sessions')).body.data as Array<{ id: string; kind: string; client: string; last_seen_at: string }>;
    const application = sessions.find((session) => session.kind === 'application')!;
    expect(application).toMatchObject({ id: applicationId, client: expect.stringMatching(/^Wiki /), last_seen_at: new Date(issued * 1000).toISOString() });
    // not Bob's to end, and not among his sessions
    expect(((await bob.client.get('/api/v2/me/sessions')).body.data as Array<{ id: string }>).map((session) => session.id)).not.toContain(applicationId);
    expect((await bob.client.raw('DELETE', `/api/v2/me/sessions/${applicationId}`)).status).toBe(404);
    // signing out every other session ends the applications' tokens too (review R24b, F2), counts the application (R24c, G1), and keeps the consent
    expect((await ada.client.raw('DELETE', '/api/v2/me/sessions')).body.data.signed_out).toBe(1);
    expect(await db.selectFrom('oidc_store').select('id').where('model', '=', 'AccessToken').where('account_id', '=', ada.account.id).execute()).toEqual([]);
    expect(((await ada.client.get('/api/v2/me/sessions')).body.data as Array<{ kind: string }>).map((session) => session.kind)).not.toContain('application');
    expect((await ada.client.get('/api/v2/me/consents')).body.data).toHaveLength(1);
    // the application signs in again
    await db.insertInto('oidc_store').values({ model: 'AccessToken', id: randomBytes(16).toString('hex'), payload: JSON.stringify({ iat: issued, accountId: ada.account.id, clientId: applicationId }), grant_id: 'grant-of-ada', account_id: ada.account.id, client_id: applicationId, uid: null, user_code: null, expires_at: issued + 3600, consumed_at: null }).execute();

    const signedOut = await ada.client.raw('DELETE', `/api/v2/me/sessions/${applicationId}`);
    expect(signedOut.status, JSON.stringify(signedOut.body)).toBe(200);
    expect(await db.selectFrom('oidc_store').select('id').where('client_id', '=', applicationId).execute()).toEqual([]);
    expect(((await ada.client.get('/api/v2/me/sessions')).body.data as Array<{ kind: string }>).map((session) => session.kind)).not.toContain('application');
    expect((await ada.client.get('/api/v2/me/consents')).body.data).toEqual([]);
  });

  it('refuses the whole page, over REST and tRPC alike, to a session that must enrol a second factor first', async () => {
    const created = await admin.post('/api/v1/policy', { title: `Two factors ${randomBytes(4).toString('hex')}`, description: '', min_length: 8, min_strength: 0, lockout: 20, lockout_duration: 60, second_factor: 'all' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ada = await ordinary({ policy: true, policy_id: (created.body as { id: string }).id });
    for (const response of [await ada.client.get('/api/v2/me/sessions'), await ada.client.get('/api/v2/me/attendance')]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('auth.second_factor_enrolment_required');
    }
    for (const response of [await trpcQuery(ada.client, 'me.sessions'), await trpcQuery(ada.client, 'me.profile'), await trpcMutation(ada.client, 'me.signOutOtherSessions')]) {
      expect(trpcError(response)?.apiError?.code).toBe('auth.second_factor_enrolment_required');
    }
  });
});
