import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanLedgerStream } from '@rollcall/domain';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../../test/test-app';
import { EVENT_STORE } from '../../../platform/tokens';
import { comparePositions, parsePosition, START, type EventStore } from '../../../platform/event-store/event-store.port';

type Client = ReturnType<typeof http>;

/**
 * The reader's answer without the read models' wait (`X-Rollcall-Consistency: none`, ADR 0013, 'As
 * built'), and scans that follow other commands' changes to the card and the reader at once.
 */
describe.each(storageKinds())('reader scans answered without the wait (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let reader: { id: string; client: Client; sequence: number };
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/readers', { name: `Cache door ${Date.now().toString(36)}`, door: 'Cache door', role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    reader = { id: created.body.data.id, client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  let uids = 0;
  const newUid = () => `0C${(0x20000000 + (uids += 1) * 104_729 + Math.floor(Math.random() * 1000)).toString(16).toUpperCase().padStart(8, '0')}`;
  const scan = async (uid: string, at: number, headers: Record<string, string> = { 'x-rollcall-consistency': 'none' }) => {
    const body = { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: new Date(at).toISOString() }] };
    const response = await reader.client.post('/api/v2/reader/scans', body, headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response;
  };
  const outcome = (response: Awaited<ReturnType<typeof scan>>) => response.body.acks[0].outcome as string;
  const assign = async (uid: string, accountId: string) => {
    const assigned = await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: accountId });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
  };

  it('answers a reader that asks for no wait once its scans are appended, and says where they landed', async () => {
    const account = await createAccount(admin);
    const uid = newUid();
    await assign(uid, account.id);
    const answer = await scan(uid, Date.now());
    expect(outcome(answer)).toBe('arrival');
    expect(['consistent', 'stale']).toContain(answer.headers.get('x-rollcall-consistency'));
    const position = parsePosition(answer.headers.get('x-rollcall-position') ?? '');
    expect(position).not.toBeNull();
    // the acknowledgement and the arrival are in the log, the position answered is the append's last event
    const store = app.app.get<EventStore>(EVENT_STORE);
    const acknowledged = (await store.readStream(scanLedgerStream(reader.id))).at(-1);
    expect(acknowledged?.type).toBe('ScansAcknowledged');
    expect(comparePositions(acknowledged?.position ?? START, position ?? START)).toBeLessThan(0);
    const [arrival] = await store.readAll(acknowledged?.position ?? START, 1);
    expect(arrival).toMatchObject({ type: 'ArrivalRecorded', position });
    // without the header the answer waits for the read models, as before
    const waited = await scan(uid, Date.now(), {});
    expect(outcome(waited)).toBe('duplicate');
    expect(waited.headers.get('x-rollcall-consistency')).toBe('consistent');
  });

  it('sees a card removed and given to someone else at once, and each day as it grows', async () => {
    const alice = await createAccount(admin);
    const bob = await createAccount(admin);
    const uid = newUid();
    await assign(uid, alice.id);
    const start = Date.now() - 3 * 60 * 60 * 1000;
    expect(outcome(await scan(uid, start))).toBe('arrival');
    expect(outcome(await scan(uid, start + 30_000))).toBe('duplicate');
    expect(outcome(await scan(uid, start + 60 * 60 * 1000))).toBe('departure');

    const cards = (await admin.get(`/api/v2/account/${alice.id}/smartcards`)).body.data.data as Array<{ id: string }>;
    expect((await admin.raw('DELETE', `/api/v2/account/smartcard/${cards[0].id}`)).status).toBe(200);
    expect(outcome(await scan(uid, start + 2 * 60 * 60 * 1000))).toBe('unknown_card');

    await assign(uid, bob.id);
    expect(outcome(await scan(uid, start + 2 * 60 * 60 * 1000 + 60_000))).toBe('arrival');
  });

  it('decides on a day of 20,000 events reading only the events appended since the day was last folded', async () => {
    const account = await createAccount(admin);
    const uid = newUid();
    await assign(uid, account.id);
    const start = Date.now() - 3 * 60 * 60 * 1000;
    expect(outcome(await scan(uid, start))).toBe('arrival');
    const store = app.app.get<EventStore>(EVENT_STORE);
    const acknowledged = (await store.readStream(scanLedgerStream(reader.id))).at(-1);
    const [arrival] = await store.readAll(acknowledged?.position ?? START, 1);
    expect(arrival).toMatchObject({ type: 'ArrivalRecorded', data: { accountId: account.id } });
    const { day, scan: arrivalScan } = arrival.data as { day: string; scan: Record<string, unknown> };
    // another writer grows the day by 20,000 scans, the last an hour after the arrival
    const later = new Date(start + 60 * 60 * 1000).toISOString();
    let version = arrival.streamVersion;
    for (let batch = 0; batch < 20; batch += 1) {
      const events = Array.from({ length: 1_000 }, () => ({
        type: 'UncountedScanRecorded',
        data: { accountId: account.id, day, scan: { ...arrivalScan, deviceTime: later, at: later }, reason: 'duplicate' },
        metadata: { ...arrival.metadata, eventId: randomUUID(), correlationId: `day-state-${batch}` },
      }));
      version = (await store.appendToStream(arrival.streamId, events, { expectedVersion: version })).nextExpectedVersion;
    }
    // the day events each request hands the handler
    const readStreams = store.readStreams.bind(store);
    let dayEventsRead = 0;
    store.readStreams = async (reads) => {
      const streams = await readStreams(reads);
      reads.forEach((read, index) => {
        if (read.streamId.startsWith('attendance-')) dayEventsRead += streams[index].length;
      });
      return streams;
    };
    try {
      // the day moved under this process's cache: read from where it was folded to, all 20,000 folded in
      expect(outcome(await scan(uid, start + 60 * 60 * 1000 + 5_000))).toBe('duplicate');
      expect(dayEventsRead).toBe(20_000);
      // then only what was appended since (its own duplicate, folded in at its append): none
      dayEventsRead = 0;
      expect(outcome(await scan(uid, start + 2 * 60 * 60 * 1000))).toBe('departure');
      expect(dayEventsRead).toBe(0);
      expect((await store.readStream(arrival.streamId, version + 1)).map((event) => event.type)).toEqual(['UncountedScanRecorded', 'DepartureRecorded']);
    } finally {
      store.readStreams = readStreams;
    }
  });

  it('refuses a reader whose token was revoked, on its next scan', async () => {
    const uid = newUid();
    expect(outcome(await scan(uid, Date.now()))).toBe('unknown_card');
    expect((await admin.raw('DELETE', `/api/v2/readers/${reader.id}/token`)).status).toBe(200);
    const body = { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: new Date().toISOString() }] };
    expect((await reader.client.post('/api/v2/reader/scans', body, { 'x-rollcall-consistency': 'none' })).status).toBe(401);
  });
});
