import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/**
 * One rule for the zone of every time of day the console shows (docs/adr/0013, 'Time zones'): the
 * account's own, else its organization's, else UTC, as the server draws the day. The log, the
 * presence board and the statistics say it on each row, as the Attendance tab already does.
 */
describe.each(storageKinds())('the zone of each row of the log, the presence board and the statistics (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let reader: { client: Client; sequence: number };
  const tag = Date.now().toString(36);
  let cards = 0;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/readers', { name: `Zones ${tag}`, door: 'Main entrance', role: 'door' });
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    reader = { client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const holder = async (organizationId: string, zone?: string) => {
    const account = await createAccount(admin, { organization: organizationId });
    if (zone) {
      const saved = await admin.raw('PUT', `/api/v1/account/${account.id}`, { first_name: account.first_name, last_name: account.last_name, email: account.email, time_zone: zone });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const uid = `06${(0x30000000 + (cards += 1) * 7919 + Math.floor(Math.random() * 1_000_000)).toString(16).toUpperCase()}`;
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: account.id })).status).toBe(201);
    const now = new Date().toISOString();
    const scanned = await reader.client.post('/api/v2/reader/scans', { sent_at: now, scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: now }] });
    expect(scanned.body.acks[0].outcome).toBe('arrival');
    return account.id;
  };

  it('names the account’s own zone, else its organization’s, on REST v2, /api and tRPC (the log is v2 only)', async () => {
    const created = await admin.post('/api/v2/organization', { title: `Zoned ${tag}`, description: '' });
    const organizationId = created.body.data.id as string;
    expect((await admin.raw('PUT', `/api/v2/organization/${organizationId}/time-zone`, { time_zone: 'America/New_York' })).status).toBe(200);
    const own = await holder(organizationId, 'Asia/Tokyo');
    const inherited = await holder(organizationId);

    const zonesIn = (rows: Array<{ account_id: string; time_zone?: string }>) => Object.fromEntries(rows.filter((row) => row.account_id === own || row.account_id === inherited).map((row) => [row.account_id, row.time_zone]));
    const expected = { [own]: 'Asia/Tokyo', [inherited]: 'America/New_York' };
    const v2 = await admin.get(`/api/v2/logs/arrivals-departures?organization_id=${organizationId}`);
    expect(zonesIn(v2.body.data.data)).toEqual(expected);
    expect(zonesIn((await admin.get(`/api/logs/arrivals-departures?organization_id=${organizationId}`)).body.data.data)).toEqual(expected);
    const board = await admin.get(`/trpc/arrivalsDepartures.presence?input=${encodeURIComponent(JSON.stringify({ organization_id: organizationId }))}`);
    expect(zonesIn(board.body.result.data.present)).toEqual(expected);
    const month = new Date().toISOString().slice(0, 7);
    const statistics = await admin.get(`/api/v2/accounts/statistics/attendance?date_at=${month}&organization_id=${organizationId}`);
    expect(statistics.status, JSON.stringify(statistics.body)).toBe(200);
    expect(zonesIn(statistics.body.data.data)).toEqual(expected);
  });
});
