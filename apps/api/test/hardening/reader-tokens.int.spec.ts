import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, signIn, startTestApp, type TestApp } from '../test-app';
import { eventStoreOf, restErrorProblem } from './hardening-helpers';

/**
 * Readers (docs/security.md, "8. Readers"), the token part: a reader's token acts only as its own
 * reader, even when the body names another, and it is no session anywhere else (REST, tRPC, the
 * console's WS).
 */

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => undefined);
  });
}

describe('reader tokens (sqlite)', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  const readers: Record<'a' | 'b', { id: string; token: string }> = { a: { id: '', token: '' }, b: { id: '', token: '' } };

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    admin = http(app.url, await signIn(app.url));
    for (const key of ['a', 'b'] as const) {
      const created = await admin.post('/api/v2/readers', { name: `Door ${key} ${Date.now().toString(36)}`, door: `Door ${key}`, role: 'door' });
      const issued = await admin.post(`/api/v2/readers/${created.body.data.id}/token`);
      readers[key] = { id: created.body.data.id, token: issued.body.data.token };
    }
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it("records reader A's scans as A's, whatever reader the body names", async () => {
    const store = eventStoreOf(app);
    const head = await store.headPosition();
    const now = new Date().toISOString();
    const spoofed = { card_uid: '04AABBCCDD', sequence: 1, device_time: now, sent_at: now, reader_id: readers.b.id, reader: readers.b.id, readerId: readers.b.id };
    const answer = await http(app.url, readers.a.token).post('/api/v2/reader/scans', spoofed);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    const written = await store.readAll(head, 1000);
    expect(written.length).toBeGreaterThan(0);
    for (const event of written) {
      expect(event.metadata.actor, event.type).toBe(readers.a.id);
      expect(JSON.stringify(event), event.type).not.toContain(readers.b.id);
    }
    expect(answer.body.acks[0]).toMatchObject({ sequence: 1, status: 'accepted' });
    // A's sequence 1 is now taken (a replay is 'already_accepted'), B's is not: nothing of A's was counted for B
    expect((await http(app.url, readers.a.token).post('/api/v2/reader/scans', spoofed)).body.acks[0]).toMatchObject({ sequence: 1, status: 'already_accepted' });
    const fromB = await http(app.url, readers.b.token).post('/api/v2/reader/scans', { card_uid: '04AABBCCDD', sequence: 1, device_time: now, sent_at: now });
    expect(fromB.body.acks[0], JSON.stringify(fromB.body)).toMatchObject({ sequence: 1, status: 'accepted' });
  });

  it('is no session: refused on directory routes, tRPC and the console WebSocket', async () => {
    const reader = http(app.url, readers.a.token);
    for (const path of ['/api/v1/accounts', '/api/v2/account/current', '/api/v2/readers']) {
      const refused = await reader.get(path);
      expect(refused.status, path).toBe(401);
      expect(restErrorProblem(refused.body), path).toBeNull();
    }
    expect((await reader.get('/trpc/readers.list')).status).toBe(401);
    expect((await reader.post('/trpc/readers.issueToken', { id: readers.b.id })).status).toBe(401);
    expect(await upgradeStatus(`${app.url.replace('http', 'ws')}/ws`, { authorization: `Bearer ${readers.a.token}`, origin: app.url })).toBe(401);
  });
});
