import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READER_SCAN_BATCH_MAX } from '@rollcall/contracts';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

describe.each(storageKinds())('door readers (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let readers = 0;
  const registerReader = async (role: 'door' | 'enrollment' = 'door', door = 'Main entrance') => {
    readers += 1;
    const created = await admin.post('/api/v2/readers', { name: `Reader ${readers} ${Date.now().toString(36)}`, door, role });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    return { id: created.body.data.id as string, name: created.body.data.name as string, token: issued.body.data.token as string };
  };
  const now = () => new Date().toISOString();
  const scan = (sequence: number, card_uid = '04A1B2C3D4', device_time = now()) => ({ card_uid, sequence, device_time });
  const readerOf = async (id: string) => (await admin.get(`/api/v2/readers/${id}`)).body.data;

  it('registers a reader, shows its token once and keeps only its hash', async () => {
    const created = await admin.post('/api/v2/readers', { name: '  Lobby  ', door: 'Lobby door', role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Lobby', door: 'Lobby door', role: 'door', token_prefix: null, last_contact_at: null, queue_depth: null, connection: 'never', register_mode: null, last_sequence: 0 });
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    expect(issued.status).toBe(201);
    expect(issued.body.data.token).toMatch(/^rcr_[\w-]{43}$/);
    const listed = await admin.get('/api/readers?search=lobby');
    expect(listed.status).toBe(200);
    expect(listed.body.data.data).toEqual([expect.objectContaining({ id: created.body.data.id, token_prefix: `${issued.body.data.token.slice(0, 12)}…` })]);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.data.token);
    const events = await app.app.get<EventStore>(EVENT_STORE).readAll({ commit: 0, sequence: 0 }, 100_000);
    expect(events.some((event) => event.type === 'ReaderTokenIssued')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(issued.body.data.token);
    // the same through tRPC
    const trpc = await admin.get(`/trpc/readers.list?input=${encodeURIComponent(JSON.stringify({ search: 'lobby' }))}`);
    expect(trpc.status).toBe(200);
    expect(trpc.body.result.data.data[0].id).toBe(created.body.data.id);
  });

  it('refuses a taken name, a bad role and an empty door with their codes', async () => {
    const { name } = await registerReader();
    const taken = await admin.post('/api/v2/readers', { name: name.toUpperCase(), door: 'Elsewhere', role: 'door' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'reader.name_taken', fields: { name: ['A reader with this name already exists'] } });
    const role = await admin.post('/api/v2/readers', { name: 'Bad role', door: 'Back', role: 'turnstile' });
    expect(role.status).toBe(400);
    expect(role.body.error.fields.role).toEqual(['Role must be one of door, enrollment']);
    expect((await admin.post('/api/v2/readers', { name: 'No door', door: '  ', role: 'door' })).body.error.fields.door).toEqual(['Door is required']);
    expect((await admin.get('/api/v2/readers/00000000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('shows last contact and the queue depth a reader reports, without recording an event', async () => {
    const reader = await registerReader();
    const client = http(app.url, reader.token);
    const store = app.app.get<EventStore>(EVENT_STORE);
    const before = (await store.readAll({ commit: 0, sequence: 0 }, 100_000)).length;
    const report = await client.post('/api/v2/reader/health', { sent_at: now(), queue_depth: 250, oldest_queued_at: now(), last_sequence: 0, device_connected: true, agent_version: '0.1.0' });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect((await store.readAll({ commit: 0, sequence: 0 }, 100_000)).length).toBe(before);
    expect(await readerOf(reader.id)).toMatchObject({ queue_depth: 250, connection: 'online', backlog: true, last_contact_at: expect.any(String) });
    // the oldest unsent scan and the agent's clock: a box three hours behind shows as such
    const oldest = new Date(Date.now() - 3 * 3600_000 - 60_000).toISOString();
    const behind = await client.post('/api/v2/reader/health', { sent_at: new Date(Date.now() - 3 * 3600_000).toISOString(), queue_depth: 4, oldest_queued_at: oldest, last_sequence: 7, device_connected: true, agent_version: '0.2.0' });
    expect(behind.status, JSON.stringify(behind.body)).toBe(200);
    const shown = (await readerOf(reader.id)) as { oldest_queued_at: string; clock_skew_ms: number };
    expect(shown.oldest_queued_at).toBe(oldest);
    expect(shown.clock_skew_ms).toBeGreaterThan(3 * 3600_000 - 60_000);
    expect(shown.clock_skew_ms).toBeLessThan(3 * 3600_000 + 60_000);
    const bad = await client.post('/api/v2/reader/health', { sent_at: now(), queue_depth: -1, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.queue_depth).toEqual(['queue_depth cannot be negative']);
  });

  it('refuses unknown, revoked, replaced and deleted readers with 401 reader.token_invalid', async () => {
    const post = (token: string | undefined) => http(app.url, token).post('/api/v2/reader/scans', { ...scan(1), sent_at: now() });
    for (const token of [undefined, 'rcr_not-a-real-token', 'rc_an-access-token']) {
      const refused = await post(token);
      expect(refused.status, String(token)).toBe(401);
      expect(refused.body.error.code).toBe('reader.token_invalid');
    }
    const revoked = await registerReader();
    expect((await post(revoked.token)).status).toBe(200);
    expect((await admin.raw('DELETE', `/api/v2/readers/${revoked.id}/token`)).status).toBe(200);
    expect((await post(revoked.token)).body.error.code).toBe('reader.token_invalid');
    // a reader without a token has no token to revoke: not found, as docs/readers.md says
    const again = await admin.raw('DELETE', `/api/v2/readers/${revoked.id}/token`);
    expect([again.status, again.body.error.code]).toEqual([404, 'reader.token_not_found']);

    const replaced = await registerReader();
    const second = await admin.post(`/api/v2/readers/${replaced.id}/token`);
    expect((await post(replaced.token)).status).toBe(401);
    expect((await http(app.url, second.body.data.token).post('/api/v2/reader/scans', { ...scan(1), sent_at: now() })).status).toBe(200);

    const deleted = await registerReader();
    const removal = await admin.raw('DELETE', `/api/v2/readers/${deleted.id}`);
    expect(removal.status).toBe(200);
    expect(removal.body.data.message).toBe(`Reader "${deleted.name}" deleted`);
    expect((await post(deleted.token)).status).toBe(401);
    expect((await admin.get(`/api/v2/readers/${deleted.id}`)).status).toBe(404);
    // its name is free again
    expect((await admin.post('/api/v2/readers', { name: deleted.name, door: 'Again', role: 'door' })).status).toBe(201);
  });

  it('acknowledges each scan of a batch, refusing malformed UIDs and sequences going backwards scan by scan', async () => {
    const reader = await registerReader();
    const client = http(app.url, reader.token);
    // a retry is the same scan again (card and device time): the server compares what it stored
    const firstTime = now();
    const first = await client.post('/api/v2/reader/scans/batch', { sent_at: now(), scans: [scan(1, undefined, firstTime), scan(2, 'not hex'), scan(3, '04-a1-b2')] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.acks).toEqual([
      { sequence: 1, status: 'accepted', outcome: 'unknown_card', flags: [] },
      { sequence: 2, status: 'refused', error: { code: 'smart_card.uid_invalid', message: 'Card UID must be hexadecimal (0-9, A-F)' } },
      { sequence: 3, status: 'refused', error: { code: 'smart_card.uid_invalid', message: 'Card UID must be 4 to 16 bytes (8 to 32 hex digits)' } },
    ]);
    const next = await client.post('/api/v2/reader/scans', { sent_at: now(), scans: [scan(10), scan(1, undefined, firstTime), scan(5)] });
    expect(next.body.acks).toEqual([
      { sequence: 10, status: 'accepted', outcome: 'unknown_card', flags: [] },
      { sequence: 1, status: 'already_accepted' },
      { sequence: 5, status: 'accepted', outcome: 'unknown_card', flags: [] },
    ]);
    // a single scan refused answers its error's status
    const backwards = await client.post('/api/v2/reader/scans', { ...scan(4), sent_at: now() });
    expect(backwards.status).toBe(409);
    expect(backwards.body.error).toMatchObject({ code: 'scan.sequence_backwards', message: "Sequence 4 goes backwards: this reader's scans were acknowledged up to 10" });
    const malformed = await client.post('/api/v2/reader/scans', { ...scan(11, '04A1B2C'), sent_at: now() });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'smart_card.uid_invalid', fields: { card_uid: ['Card UID must be whole bytes (an even number of hex digits)'] } });
    expect((await readerOf(reader.id)).last_sequence).toBe(10);
  });

  it('tells a retry from a reused sequence by what it stored (a rolled-back outbox, docs/adr/0013), for a known card as for an unknown one', async () => {
    const reader = await registerReader();
    const client = http(app.url, reader.token);
    const account = await createAccount(admin);
    const known = '0A0B0C0D';
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: known, account_id: account.id })).status).toBe(201);
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 1000).toISOString();
    const post = async (scans: Array<{ card_uid: string; sequence: number; device_time: string }>) => {
      const answer = await client.post('/api/v2/reader/scans', { sent_at: now, outbox_id: 'outbox-reused-1', scans });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.acks.map((ack: { status: string; error?: { code: string } }) => ack.error?.code ?? ack.status);
    };
    expect(await post([{ card_uid: known, sequence: 1, device_time: now }, { card_uid: '0A0B0C0E', sequence: 2, device_time: now }])).toEqual(['accepted', 'accepted']);
    // the same scans again (an answer lost on the way): retries, counted once
    expect(await post([{ card_uid: '0a:0b:0c:0d', sequence: 1, device_time: now }, { card_uid: '0A0B0C0E', sequence: 2, device_time: now }])).toEqual(['already_accepted', 'already_accepted']);
    // other scans under the same numbers: refused as reused, never taken for retries
    expect(await post([{ card_uid: known, sequence: 1, device_time: later }, { card_uid: '0A0B0C0F', sequence: 2, device_time: now }])).toEqual(['scan.sequence_reused', 'scan.sequence_reused']);
    // under a new outbox id they are new scans
    const renumbered = await client.post('/api/v2/reader/scans', { sent_at: now, outbox_id: 'outbox-reused-2', scans: [{ card_uid: '0A0B0C0F', sequence: 1, device_time: now }] });
    expect(renumbered.body.acks[0].status).toBe('accepted');
  });

  it('refuses a batch over the limit, repeated sequences and bad times whole, counting nothing', async () => {
    const reader = await registerReader();
    const client = http(app.url, reader.token);
    const over = await client.post('/api/v2/reader/scans/batch', { sent_at: now(), scans: Array.from({ length: READER_SCAN_BATCH_MAX + 1 }, (_, index) => scan(index + 1)) });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'request.invalid', fields: { scans: [`A batch carries at most ${READER_SCAN_BATCH_MAX} scans; send the rest in the next one`] } });
    const repeated = await client.post('/api/v2/reader/scans/batch', { sent_at: now(), scans: [scan(1), scan(1)] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.fields['scans.1.sequence']).toEqual(['Sequence 1 appears more than once in this batch']);
    const badTime = await client.post('/api/v2/reader/scans', { card_uid: '04A1B2C3', sequence: 0, device_time: 'yesterday', sent_at: now() });
    expect(badTime.status).toBe(400);
    expect(Object.keys(badTime.body.error.fields).sort()).toEqual(['device_time', 'sequence']);
    expect((await readerOf(reader.id)).last_sequence).toBe(0);
    expect((await client.post('/api/v2/reader/scans', { ...scan(1), sent_at: now() })).body.acks[0].status).toBe('accepted');
  });

  it('renames and moves a reader, and lets it number from 1 again only with a recorded reason', async () => {
    const reader = await registerReader();
    const other = await registerReader();
    const patch = (path: string, body: unknown) => admin.raw('PATCH', path, body);
    expect((await patch(`/api/v2/readers/${reader.id}/name`, { name: other.name })).body.error.code).toBe('reader.name_taken');
    const renamed = await patch(`/api/v2/readers/${reader.id}/name`, { name: `${reader.name} (west)` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data.name).toBe(`${reader.name} (west)`);
    // the old name is free again
    expect((await admin.post('/api/v2/readers', { name: reader.name, door: 'Side', role: 'door' })).status).toBe(201);
    expect((await patch(`/api/v2/readers/${reader.id}/door`, { door: 'West wing' })).body.data.door).toBe('West wing');

    const client = http(app.url, reader.token);
    const firstTime = now();
    await client.post('/api/v2/reader/scans/batch', { sent_at: now(), scans: [scan(1, undefined, firstTime), scan(2), scan(3)] });
    expect((await client.post('/api/v2/reader/scans', { ...scan(1, undefined, firstTime), sent_at: now() })).body.acks).toEqual([{ sequence: 1, status: 'already_accepted' }]);
    const noReason = await admin.post(`/api/v2/readers/${reader.id}/reset-sequence`, { reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.fields.reason).toEqual(['Say why the reader may number its scans from 1 again']);
    const reset = await admin.post(`/api/v2/readers/${reader.id}/reset-sequence`, { reason: 'SD card replaced' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.data.last_sequence).toBe(0);
    expect((await client.post('/api/v2/reader/scans', { ...scan(1), sent_at: now() })).body.acks[0]).toMatchObject({ sequence: 1, status: 'accepted' });
    const events = await app.app.get<EventStore>(EVENT_STORE).readStream(`scan-ledger-${reader.id}`);
    expect(events.find((event) => event.type === 'ScanSequenceReset')?.data).toMatchObject({ previous: [[1, 3]], reason: 'SD card replaced' });
  });

  it('speaks to a reader over its WebSocket: configuration, register mode on and off, health; refuses bad tokens', async () => {
    const url = `${app.url.replace('http', 'ws')}/api/v2/reader/ws`;
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(url, { headers: { authorization: 'Bearer rcr_forged' } });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(401);

    const reader = await registerReader('enrollment', 'HR desk');
    const received: Array<{ type: string; reason?: string; expires_at?: string; configuration?: unknown }> = [];
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${reader.token}` } });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => received.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    await expect.poll(() => received[0]?.type).toBe('configure');
    expect(received[0].configuration).toEqual({ heartbeat_seconds: 30, batch_max: 500, retry_max_seconds: 60 });

    const account = await createAccount(admin);
    const armed = await admin.post(`/api/v2/scanner/mode/register/${account.id}`);
    expect(armed.status, JSON.stringify(armed.body)).toBe(200);
    await expect.poll(() => received.find((message) => message.type === 'register_mode.on')?.expires_at).toBe(armed.body.data.expires_at);
    expect((await admin.post('/api/v2/scanner/cancel')).status).toBe(200);
    await expect.poll(() => received.find((message) => message.type === 'register_mode.off')?.reason).toBe('cancelled');

    socket.send(JSON.stringify({ type: 'health', sent_at: now(), queue_depth: 7, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: '0.2.0' }));
    await expect.poll(async () => (await readerOf(reader.id)).queue_depth).toBe(7);
    socket.send('not json');
    await expect.poll(() => received.at(-1)?.type).toBe('error');

    // revoking the token closes the channel
    await admin.raw('DELETE', `/api/v2/readers/${reader.id}/token`);
    expect(await closed).toBe(4001);
  });

  it('keeps readers to administrators: a plain account is refused with 403', async () => {
    const plain = await createAccount(admin);
    const client = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    const reader = await registerReader();
    for (const [method, path] of [
      ['GET', '/api/v2/readers'],
      ['POST', '/api/v2/readers'],
      ['POST', `/api/v2/readers/${reader.id}/token`],
      ['DELETE', `/api/v2/readers/${reader.id}`],
      ['POST', `/api/v1/scanner/mode/register/${plain.id}`],
      ['POST', '/api/v2/scanner/cancel'],
      ['GET', `/api/v1/account/${plain.id}/smartcards`],
    ]) {
      const refused = await client.raw(method, path, method === 'POST' ? { name: 'x', door: 'y', role: 'door' } : undefined);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe('auth.forbidden');
    }
    expect((await client.post('/trpc/readers.register', { name: 'x', door: 'y', role: 'door' })).status).toBe(403);
  });
});
