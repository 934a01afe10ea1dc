import WebSocket from 'ws';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import { READ_DB } from '../../platform/tokens';

/**
 * 'Last seen' of a session follows every authenticated call, on every surface (issue 24: REST v1,
 * v2, tRPC over HTTP, the WebSocket), not only the calls of the page of one's own; and a hot path
 * costs no write per request: the writes into session_activity are counted by a trigger in the
 * read database itself.
 */

const SCRIPT = 'rollcall-sync/2.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type OwnSession = { id: string; current: boolean; kind: string; client: string | null; last_seen_at: string | null; last_seen_from: string | null };

describe.each(storageKinds())('a session\'s last seen (%s)', (kind) => {
  let app: TestApp;
  let db: Kysely<ReadDatabase>;
  beforeAll(async () => {
    // no batch is written by the timer while the test runs: only the list of one's own sessions flushes
    app = await startTestApp(kind, { ROLLCALL_TOKEN_USAGE_FLUSH_MS: '3600000' });
    db = app.app.get(READ_DB);
    await sql`create table session_activity_writes (session_id text not null)`.execute(db);
    if (kind === 'sqlite') {
      await sql`create trigger session_activity_inserted after insert on session_activity begin insert into session_activity_writes values (new.session_id); end`.execute(db);
      await sql`create trigger session_activity_updated after update on session_activity begin insert into session_activity_writes values (new.session_id); end`.execute(db);
    } else {
      await sql`create function session_activity_written() returns trigger language plpgsql as $$ begin insert into session_activity_writes values (new.session_id); return new; end $$`.execute(db);
      await sql`create trigger session_activity_written after insert or update on session_activity for each row execute function session_activity_written()`.execute(db);
    }
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const writes = async () => Number((await sql<{ n: number }>`select count(*) as n from session_activity_writes`.execute(db)).rows[0].n);
  const sessionsSeenBy = async (token: string) => {
    const response = await http(app.url, token).get('/trpc/me.sessions');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.result.data as OwnSession[];
  };

  it('notes a session used only over REST and tRPC, with its client and address, and pages through a list without a write per request', async () => {
    const script = await signIn(app.url);
    const asker = await signIn(app.url);
    const scriptId = (await http(app.url, script).get('/api/v2/me/sessions', { 'user-agent': SCRIPT })).body.data.find((session: OwnSession) => session.current).id as string;
    const before = await writes();

    // a program pages through the accounts over REST v1, v2 and tRPC: the hot path
    const client = http(app.url, script);
    for (let page = 1; page <= 15; page += 1) {
      expect((await client.get(`/api/v1/accounts?page=${page}&limit=5`, { 'user-agent': SCRIPT })).status).toBe(200);
      expect((await client.get(`/api/v2/accounts?page=${page}&limit=5`, { 'user-agent': SCRIPT })).status).toBe(200);
      expect((await client.get(`/trpc/accounts.list?input=${encodeURIComponent(JSON.stringify({ page, limit: 5 }))}`, { 'user-agent': SCRIPT })).status).toBe(200);
    }
    expect(await writes(), '45 requests of one session write nothing until the batch').toBe(before);

    // another session of the account lists its sessions: the batch is written, one row per session
    const listed = await sessionsSeenBy(asker);
    expect((await writes()) - before).toBeLessThanOrEqual(2);
    expect(listed.find((session) => session.id === scriptId)).toMatchObject({ current: false, kind: 'api', client: 'rollcall-sync 2.1', last_seen_at: expect.any(String), last_seen_from: expect.stringMatching(/127\.0\.0\.1|::1/) });
    const afterFirstBatch = await writes();

    // the same client again inside half a minute: nothing new to write
    for (let page = 1; page <= 10; page += 1) expect((await client.get(`/api/v2/accounts?page=${page}`, { 'user-agent': SCRIPT })).status).toBe(200);
    await sessionsSeenBy(asker);
    expect(await writes()).toBe(afterFirstBatch);

    // a changed client is noted at once (here the same token from a browser, as a cookie)
    expect((await http(app.url).get('/api/v1/account/current', { cookie: `user_session=${script}`, 'user-agent': CHROME })).status).toBe(200);
    const changed = (await sessionsSeenBy(asker)).find((session) => session.id === scriptId);
    expect(changed).toMatchObject({ kind: 'browser', client: 'Chrome 131 on Windows' });
    expect(await writes()).toBe(afterFirstBatch + 1);
  });

  it('notes a session that only opens the console\'s WebSocket', async () => {
    const live = await signIn(app.url);
    const asker = await signIn(app.url);
    const liveId = (await sessionsSeenBy(live)).find((session) => session.current)!.id;
    // a session seen only at its sign-in so far would say 'not seen yet': reset it to that
    await db.deleteFrom('session_activity').where('session_id', '=', liveId).execute();
    expect((await sessionsSeenBy(asker)).find((session) => session.id === liveId)).toMatchObject({ kind: 'unknown', last_seen_at: null });

    const socket = new WebSocket(`${app.url.replace('http', 'ws')}/ws`, { headers: { cookie: `user_session=${live}`, origin: app.url, 'user-agent': FIREFOX } });
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('open', resolve));
    try {
      // the asker's own last note is older than this one: still within its half minute, so nothing of it hides the socket's
      expect((await sessionsSeenBy(asker)).find((session) => session.id === liveId)).toMatchObject({ kind: 'browser', client: 'Firefox 133 on Linux', last_seen_at: expect.any(String) });
    } finally {
      socket.close();
    }
  });
});
