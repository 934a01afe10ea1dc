import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { THistoryPage } from '@rollcall/contracts';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/** an auditor follows a person: their account's history holds their attendance, corrections and cards too */
describe.each(storageKinds())("a person's history (%s)", (kind) => {
  let app: TestApp;
  let admin: Client;
  let reader: { client: Client; sequence: number };
  const tag = Date.now().toString(36);
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    const created = await admin.post('/api/v2/readers', { name: `Desk ${tag}`, door: 'North gate', role: 'door' });
    const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
    reader = { client: http(app.url, issued.body.data.token), sequence: 0 };
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const scan = async (uid: string, at: string) => {
    const answer = await reader.client.post('/api/v2/reader/scans', { sent_at: new Date().toISOString(), scans: [{ card_uid: uid, sequence: (reader.sequence += 1), device_time: at }] });
    return answer.body.acks[0].outcome as string;
  };
  const historyOf = async (client: Client, id: string) => {
    const page = await client.get(`/api/v2/account/${id}/history?limit=100`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return page.body.data as THistoryPage;
  };

  it('tells arrivals, departures, corrections and card registrations in words, times in the person’s zone, as far as the viewer’s scope goes', async () => {
    const organization = (await admin.post('/api/v2/organization', { title: `Followed ${tag}`, description: '' })).body.data.id as string;
    expect((await admin.raw('PUT', `/api/v2/organization/${organization}/time-zone`, { time_zone: 'Europe/Berlin' })).status).toBe(200);
    const person = await createAccount(admin, { organization });
    const uid = `07${(0x40000000 + Math.floor(Math.random() * 1_000_000)).toString(16).toUpperCase()}`;
    expect((await admin.post('/api/v2/scanner/unknown-cards/assign', { card_uid: uid, account_id: person.id })).status).toBe(201);
    expect(await scan(uid, '2026-11-20T07:14:02.000Z')).toBe('arrival');
    expect(await scan(uid, '2026-11-20T16:01:00.000Z')).toBe('departure');
    const slot = (await admin.get(`/api/v2/logs/arrivals-departures?account_id=${person.id}`)).body.data.data[0] as { id: string };
    const corrected = await admin.raw('PATCH', `/api/v2/logs/arrivals-departures/edit/${slot.id}`, { arrived_at: '2026-11-20T07:00:00.000Z', departed_at: '2026-11-20T16:01:00.000Z', reason: 'Came through the side door' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);

    const summaries = async (client: Client) => (await historyOf(client, person.id)).data.map((entry) => entry.summary);
    await expect.poll(() => summaries(admin)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Card [0-9A-F]+ registered \(assigned by an administrator\) by admin/),
        'Arrived at North gate, 20.11.2026 08:14:02 (Europe/Berlin) by ' + `Desk ${tag} from 127.0.0.1`,
        'Left at North gate, 20.11.2026 17:01:00 (Europe/Berlin) by ' + `Desk ${tag} from 127.0.0.1`,
        'Slot of 20.11.2026 corrected from 20.11.2026 08:14:02 (Europe/Berlin) – 20.11.2026 17:01:00 (Europe/Berlin) to 20.11.2026 08:00:00 (Europe/Berlin) – 20.11.2026 17:01:00 (Europe/Berlin), because: Came through the side door by admin from 127.0.0.1',
        expect.stringMatching(/^Account created by admin/),
      ]),
    );
    // newest first across the streams, and paged by position like the account's own events
    const page = await historyOf(admin, person.id);
    expect(page.data[0].type).toBe('AttendanceSlotCorrected');
    expect(page.data.find((entry) => entry.type === 'ArrivalRecorded')?.stream_id).toBe(`attendance-${person.id}-2026-11-20`);

    // an organization's auditor sees the same person (super administrators are named, docs/adr/0011);
    // an auditor of another organization reads nothing of them on REST v2, /api or tRPC
    const auditorOf = async (organizationId: string, label: string) => {
      const permission = (await admin.post('/api/v2/permission', { organization_id: organizationId, title: `audit ${label}`, slug: 'audit:read', description: '' })).body.data.id as string;
      const role = (await admin.post(`/api/v2/organization/${organizationId}/role`, { title: `Auditor ${label}`, slug: `auditor-${label}`, description: '', permissions: [permission] })).body.data.id as string;
      const auditor = await createAccount(admin, { organization: organizationId });
      expect((await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: auditor.id, role_id: role })).status).toBe(200);
      return http(app.url, await signIn(app.url, { username: auditor.username, password: auditor.password }));
    };
    const inside = await auditorOf(organization, `in-${tag}`);
    const seen = await historyOf(inside, person.id);
    expect(seen.data.map((entry) => entry.type)).toEqual(page.data.map((entry) => entry.type));
    expect(JSON.stringify(seen)).not.toMatch(/argon2/);
    const elsewhere = (await admin.post('/api/v2/organization', { title: `Elsewhere ${tag}`, description: '' })).body.data.id as string;
    const outside = await auditorOf(elsewhere, `out-${tag}`);
    for (const path of ['/api/v2', '/api']) {
      const answer = await outside.get(`${path}/account/${person.id}/history`);
      expect(answer.status, path).toBe(404);
      expect(JSON.stringify(answer.body)).not.toMatch(/North gate|Arrived/);
    }
    const overTrpc = await outside.get(`/trpc/audit.history?input=${encodeURIComponent(JSON.stringify({ kind: 'account', id: person.id }))}`);
    expect(overTrpc.status).toBe(404);
  });
});
