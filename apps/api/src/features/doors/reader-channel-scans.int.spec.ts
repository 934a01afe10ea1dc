import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READER_SCAN_BATCH_MAX, READER_SCAN_FRAME_MAX_BYTES } from '@rollcall/contracts';
import { scanLedgerStream } from '@rollcall/domain';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import { READER_MAX_FRAME_BYTES, READER_WS_PATH } from './reader-channel';

type Client = ReturnType<typeof http>;
type Frame = Record<string, unknown> & { type: string; request_id?: string };

/** a reader's WebSocket as a test drives it: every frame the server sent, and how it closed */
class ReaderSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<number>;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  static async open(url: string, token: string): Promise<ReaderSocket> {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const opened = new ReaderSocket(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    // the server configures a reader on connect: after it, the socket is the server's
    await expect.poll(() => opened.frames.some((frame) => frame.type === 'configure')).toBe(true);
    return opened;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** the answers (scan acknowledgements and errors) in the order they came */
  answers(): Frame[] {
    return this.frames.filter((frame) => frame.type === 'scan_batch_ack' || frame.type === 'error');
  }

  async answer(count = this.answers().length + 1): Promise<Frame> {
    await expect.poll(() => this.answers().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
    return this.answers()[count - 1];
  }

  async request(frame: unknown): Promise<Frame> {
    const count = this.answers().length + 1;
    this.send(frame);
    return this.answer(count);
  }
}

/**
 * Scans over the reader's WebSocket (docs/readers.md, 'Scans over the channel'), through the real
 * app: a `scan_batch` frame is the same request as `POST reader/scans/batch`, answered with the same
 * acknowledgement (or the same error body) in a frame with its request id, in the order the frames
 * came; the HTTP route answers as before, on the same ledger.
 */
describe.each(storageKinds())('scans over the reader channel (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let url: string;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    url = `${app.url.replace('http', 'ws')}${READER_WS_PATH}`;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let readers = 0;
  const registerReader = async () => {
    readers += 1;
    const created = await admin.post('/api/v2/readers', { name: `Channel reader ${readers} ${Date.now().toString(36)}`, door: `Door ${readers}`, role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    return { id: created.body.data.id as string, token: issued.body.data.token as string };
  };
  const now = () => new Date().toISOString();
  const scan = (sequence: number, card_uid = `0B${(0x100000 + readers * 1000 + sequence).toString(16).toUpperCase()}`) => ({ card_uid, sequence, device_time: now() });
  const ledgerTypes = async (readerId: string) => (await app.app.get<EventStore>(EVENT_STORE).readStream(scanLedgerStream(readerId))).map((event) => event.type);

  it('takes a batch as POST scans/batch does: the same acknowledgement, attendance readable at once, one ledger with the HTTP route', async () => {
    const reader = await registerReader();
    const account = await createAccount(admin);
    const uid = '0C0A1B2C3D';
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id })).status).toBe(201);
    const socket = await ReaderSocket.open(url, reader.token);

    const batch = { sent_at: now(), outbox_id: 'channel-outbox-1', scans: [{ card_uid: uid, sequence: 1, device_time: now() }, scan(2)] };
    const answer = await socket.request({ type: 'scan_batch', request_id: 'first', ...batch });
    expect(answer).toMatchObject({
      type: 'scan_batch_ack',
      request_id: 'first',
      clock_skewed: false,
      // without consistency 'none' the answer waits for the read models, as a post without the header does
      consistency: 'consistent',
      position: expect.any(String),
      received_at: expect.any(String),
      skew_ms: expect.any(Number),
      acks: [
        { sequence: 1, status: 'accepted', outcome: 'arrival', flags: [] },
        { sequence: 2, status: 'accepted', outcome: 'unknown_card', flags: [] },
      ],
    });
    // read your writes: the arrival is in the log as the answer arrives, at this reader
    const log = await admin.get(`/api/v2/logs/arrivals-departures?account_id=${account.id}`);
    expect(log.body.data.data).toEqual([expect.objectContaining({ account_id: account.id, departed_at: null, arrival: expect.objectContaining({ reader_id: reader.id }) })]);

    // the HTTP route, unchanged, on the same ledger: the same batch is a retry, counted once
    const overHttp = await http(app.url, reader.token).post('/api/v2/reader/scans/batch', batch);
    expect(overHttp.status).toBe(200);
    expect(overHttp.headers.get('x-rollcall-consistency')).toBe('consistent');
    expect(overHttp.headers.get('x-rollcall-position')).toMatch(/\S/);
    expect(Object.keys(overHttp.body).sort()).toEqual(['acks', 'clock_skewed', 'received_at', 'skew_ms']);
    expect(overHttp.body.acks).toEqual([
      { sequence: 1, status: 'already_accepted' },
      { sequence: 2, status: 'already_accepted' },
    ]);
    // and the other way round: what HTTP recorded, the channel answers as a retry
    const third = scan(3);
    expect((await http(app.url, reader.token).post('/api/v2/reader/scans/batch', { ...batch, scans: [third] })).body.acks[0].status).toBe('accepted');
    const again = await socket.request({ type: 'scan_batch', request_id: 'again', consistency: 'none', ...batch, scans: [batch.scans[1], third] });
    expect(again.acks).toEqual([
      { sequence: 2, status: 'already_accepted' },
      { sequence: 3, status: 'already_accepted' },
    ]);
    expect((await ledgerTypes(reader.id)).filter((type) => type === 'UnknownCardScanned')).toHaveLength(2);
    expect((await admin.get(`/api/v2/logs/arrivals-departures?account_id=${account.id}`)).body.data.data).toHaveLength(1);
    // a scan over the channel is contact, as a post is (written with the next flush of contacts)
    await expect.poll(async () => Date.parse((await admin.get(`/api/v2/readers/${reader.id}`)).body.data.last_contact_at ?? '0'), { timeout: 15_000 }).toBeGreaterThanOrEqual(Date.parse(String(again.received_at)));
    socket.socket.close();
  });

  it('answers pipelined frames one by one, in the order sent, past the frames it lets wait; a batch sent twice is counted once', async () => {
    const reader = await registerReader();
    const socket = await ReaderSocket.open(url, reader.token);
    // more frames than the server lets wait (it stops reading the socket until they drain)
    const frames = Array.from({ length: 20 }, (_, index) => ({ type: 'scan_batch', request_id: `p-${index + 1}`, consistency: 'none', sent_at: now(), scans: [scan(2 * index + 1), scan(2 * index + 2)] }));
    // the fourth is the third again (a resend after a lost answer)
    frames[3] = { ...frames[2], request_id: 'p-4' };
    for (const frame of frames) socket.send(frame);
    await socket.answer(frames.length);
    const answers = socket.answers();
    expect(answers.map((answer) => answer.request_id)).toEqual(frames.map((frame) => frame.request_id));
    expect(answers.map((answer) => (answer.acks as Array<{ status: string }>).map((ack) => ack.status))).toEqual(frames.map((_, index) => (index === 3 ? ['already_accepted', 'already_accepted'] : ['accepted', 'accepted'])));
    expect((await ledgerTypes(reader.id)).filter((type) => type === 'UnknownCardScanned')).toHaveLength(2 * (frames.length - 1));
    // still reading after the pause: the next frame is answered
    expect((await socket.request({ ...frames[19], request_id: 'after' })).request_id).toBe('after');
    socket.socket.close();
  });

  it('answers a bad frame with an error frame naming the rule (the HTTP route’s error body), and goes on', async () => {
    const reader = await registerReader();
    const socket = await ReaderSocket.open(url, reader.token);
    const client = http(app.url, reader.token);

    expect(await socket.request('not json')).toEqual({ type: 'error', error: { code: 'request.invalid', message: expect.stringMatching(/^Not JSON/) } });
    const unknown = await socket.request({ type: 'teleport' });
    expect(unknown).toMatchObject({ type: 'error', error: { code: 'request.invalid' } });
    expect(unknown.request_id).toBeUndefined();
    expect(String((unknown.error as { message: string }).message)).toContain('scan_batch');

    const noId = await socket.request({ type: 'scan_batch', sent_at: now(), scans: [scan(1)] });
    expect(noId).toMatchObject({ type: 'error', status: 400, error: { code: 'request.invalid', fields: { request_id: ['request_id must be text'] } } });
    expect(noId.request_id).toBeUndefined();
    expect((await socket.request({ type: 'scan_batch', request_id: 'a b', sent_at: now(), scans: [scan(1)] })).error).toMatchObject({ fields: { request_id: [expect.stringContaining('request_id must be 1-64')] } });

    // the same refusals as POST scans/batch, word for word, with the frame's request id
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no sent_at', { scans: [scan(1)] }, 'sent_at'],
      ['a sequence twice', { sent_at: now(), scans: [scan(1), scan(1)] }, 'scans.1.sequence'],
      ['too many scans', { sent_at: now(), scans: Array.from({ length: READER_SCAN_BATCH_MAX + 1 }, (_, index) => scan(index + 1)) }, 'scans'],
      ['a time without a zone', { sent_at: now(), scans: [{ ...scan(1), device_time: '2026-11-23 08:00' }] }, 'scans.0.device_time'],
    ];
    for (const [what, body, field] of bad) {
      const answer = await socket.request({ type: 'scan_batch', request_id: `bad-${field}`, ...body });
      const overHttp = await client.post('/api/v2/reader/scans/batch', body);
      expect(overHttp.status, what).toBe(400);
      expect(answer, what).toEqual({ type: 'error', request_id: `bad-${field}`, status: 400, error: overHttp.body.error });
      expect(Object.keys(answer.error as { fields: object } & object), what).toContain('fields');
      expect(Object.keys((answer.error as { fields: Record<string, unknown> }).fields), what).toContain(field);
    }
    expect(await ledgerTypes(reader.id)).toEqual([]);

    // the longest batch the rules allow fits in a frame (about 507 KB): each misread card refused in its own acknowledgement
    const longestTime = '2026-11-23T08:00:00.12345678901234+01:00';
    const longest = {
      type: 'scan_batch',
      request_id: 'l'.repeat(64),
      consistency: 'none',
      sent_at: longestTime,
      outbox_id: 'o'.repeat(64),
      scans: Array.from({ length: READER_SCAN_BATCH_MAX }, (_, index) => ({ card_uid: '\u0001'.repeat(64), sequence: Number.MAX_SAFE_INTEGER - READER_SCAN_BATCH_MAX + index, device_time: longestTime, age_ms: 10 * 366 * 86_400_000 })),
    };
    expect(Buffer.byteLength(JSON.stringify(longest))).toBeGreaterThan(500_000);
    const answer = await socket.request(longest);
    expect(answer.type).toBe('scan_batch_ack');
    expect(new Set((answer.acks as Array<{ status: string; error: { code: string } }>).map((ack) => `${ack.status} ${ack.error.code}`))).toEqual(new Set(['refused smart_card.uid_invalid']));

    // the socket went on through all of it
    socket.send({ type: 'health', sent_at: now(), queue_depth: 11, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: '0.2.0' });
    await expect.poll(async () => (await admin.get(`/api/v2/readers/${reader.id}`)).body.data.queue_depth).toBe(11);
    socket.socket.close();
  });

  it('closes with 1009 a scan frame over the batch limit, and any other frame over the small one', async () => {
    const reader = await registerReader();
    const tooBig = await ReaderSocket.open(url, reader.token);
    tooBig.send({ type: 'scan_batch', request_id: 'huge', sent_at: now(), scans: [scan(1)], padding: 'x'.repeat(READER_SCAN_FRAME_MAX_BYTES) });
    expect(await tooBig.closed).toBe(1009);
    const bigHealth = await ReaderSocket.open(url, reader.token);
    bigHealth.send({ type: 'health', sent_at: now(), queue_depth: 0, oldest_queued_at: null, last_sequence: 0, device_connected: true, agent_version: 'x', padding: 'x'.repeat(READER_MAX_FRAME_BYTES) });
    expect(await bigHealth.closed).toBe(1009);
    const bigGarbage = await ReaderSocket.open(url, reader.token);
    bigGarbage.send('x'.repeat(READER_MAX_FRAME_BYTES + 1));
    expect(await bigGarbage.closed).toBe(1009);
    expect(bigGarbage.answers()).toEqual([]);
    expect(await ledgerTypes(reader.id)).toEqual([]);
  });

  it('closes the channel with 4001 when the token is revoked; the token opens nothing after', async () => {
    const reader = await registerReader();
    const socket = await ReaderSocket.open(url, reader.token);
    expect((await socket.request({ type: 'scan_batch', request_id: 'before', consistency: 'none', sent_at: now(), scans: [scan(1)] })).type).toBe('scan_batch_ack');
    await admin.raw('DELETE', `/api/v2/readers/${reader.id}/token`);
    expect(await socket.closed).toBe(4001);
    const refused = await new Promise<number>((resolve) => {
      const again = new WebSocket(url, { headers: { authorization: `Bearer ${reader.token}` } });
      again.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      again.on('error', () => undefined);
    });
    expect(refused).toBe(401);
    expect((await http(app.url, reader.token).post('/api/v2/reader/scans/batch', { sent_at: now(), scans: [scan(2)] })).status).toBe(401);
    expect((await ledgerTypes(reader.id)).filter((type) => type === 'UnknownCardScanned')).toHaveLength(1);
  });
});
