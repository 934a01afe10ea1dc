import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { readableEventData, undeclaredEventFields, type TAuditEvent } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, firstOrganization, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { EVENT_STORE } from '../../platform/tokens';
import { formatPosition, START, type EventStore, type StoredEvent } from '../../platform/event-store/event-store.port';
import type { AppRouter } from '../../root-router';

type Client = ReturnType<typeof http>;

/**
 * The event log (docs/api/compat.md, 'Event log'): every event the APIs append, newest first with
 * its metadata, filtered and keyset-paged on REST v2 (and unprefixed) and tRPC, and exported as
 * streamed NDJSON.
 */
describe.each(storageKinds())('the event log (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminId: string;
  let store: EventStore;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const correlation = (name: string) => `audit-${tag}-${name}`;
  /** what the fixture made, by name */
  const made = {} as { organizationId: string; alice: { id: string }; bob: { id: string; username: string; password: string }; teamId: string };

  beforeAll(async () => {
    app = await startTestApp(kind);
    store = app.app.get<EventStore>(EVENT_STORE);
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
    // a small history through the APIs, each step under its own correlation id
    const organization = await admin.post('/api/v2/organization', { title: `Audit ${tag}`, description: 'audited' }, { 'x-correlation-id': correlation('organization') });
    expect(organization.status, JSON.stringify(organization.body)).toBe(201);
    made.organizationId = organization.body.data.id;
    const accountHeaders = { 'x-correlation-id': correlation('accounts') };
    for (const name of ['alice', 'bob'] as const) {
      const body = { first_name: name, last_name: `Audited ${tag}`, email: `${name}.${tag}@example.com`, username: `${name}.${tag}`, password: 'analytical engine 1843', organization: made.organizationId };
      const created = await admin.post('/api/v1/account', body, accountHeaders);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      made[name] = { ...body, id: created.body.id as string };
    }
    const team = await admin.post('/api/v2/team', { title: `Audit team ${tag}`, interorg: true, accounts: [made.alice.id] }, { 'x-correlation-id': correlation('team') });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    made.teamId = team.body.data.id;
    const renamed = await admin.raw('PATCH', `/api/v2/team/${made.teamId}/title`, { title: `Audit team ${tag} renamed` }, { 'x-correlation-id': correlation('rename') });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    // a second actor: bob made a super administrator, acting on his own
    const { organizationId: rootId, roleId } = await firstOrganization(admin);
    expect((await admin.post(`/api/v2/account/${made.bob.id}/associate/organization`, { organization_id: rootId })).status).toBe(201);
    expect((await admin.post(`/api/v2/organization/${rootId}/account-role`, { account_id: made.bob.id, role_id: roleId })).status).toBe(200);
    const bob = http(app.url, await signIn(app.url, { username: made.bob.username, password: made.bob.password }));
    expect((await bob.raw('PATCH', `/api/v2/team/${made.teamId}/title`, { title: `Audit team ${tag} by bob` }, { 'x-correlation-id': correlation('bob') })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  /** every event in the store, oldest first */
  const storedEvents = async (): Promise<StoredEvent[]> => {
    const events: StoredEvent[] = [];
    for (let from = START; ; ) {
      const batch = await store.readAll(from, 1000);
      if (batch.length === 0) return events;
      events.push(...batch);
      from = batch[batch.length - 1].position;
    }
  };

  /** follows `next_before` through every page of a query; fails on a repeated position */
  const allPages = async (query: string, limit: number, client = admin, prefix = '/api/v2'): Promise<{ events: TAuditEvent[]; pages: number }> => {
    const events: TAuditEvent[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const answer = await client.get(`${prefix}/audit/events?limit=${limit}${query ? `&${query}` : ''}${before ? `&before=${before}` : ''}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const page = answer.body.data as { data: TAuditEvent[]; next_before: string | null };
      expect(page.data.length).toBeLessThanOrEqual(limit);
      events.push(...page.data);
      // a cursor that does not move on would loop for ever
      if (page.next_before !== null) expect(page.next_before, 'the cursor moves on').not.toBe(before);
      before = page.next_before;
      if (before) expect(before).toBe(page.data[page.data.length - 1].position);
      pages += 1;
    } while (before);
    return { events, pages };
  };

  /** the log has projected everything the store holds (writes wait for it; sign-ins may trail) */
  const settledLog = async (): Promise<TAuditEvent[]> => {
    const head = formatPosition(await store.headPosition());
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const newest = (await admin.get('/api/v2/audit/events?limit=1')).body.data.data as TAuditEvent[];
      if (newest[0]?.position === head) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return (await allPages('', 100)).events;
  };

  it('lists every stored event exactly once, newest first, each with its stream, type, payload and metadata', async () => {
    const stored = await storedEvents();
    const listed = await settledLog();
    expect(stored.length).toBeGreaterThan(10);
    expect(listed.map((event) => event.position)).toEqual(stored.map((event) => formatPosition(event.position)).reverse());
    const byPosition = new Map(stored.map((event) => [formatPosition(event.position), event]));
    for (const event of listed) {
      const original = byPosition.get(event.position)!;
      expect(event).toMatchObject({ stream_id: original.streamId, stream_version: original.streamVersion, type: original.type, event_id: original.metadata.eventId, actor: original.metadata.actor, actor_kind: original.metadata.actorKind, correlation_id: original.metadata.correlationId });
      // the payload as its type's read declaration allows (libs/contracts event-redaction.ts): every key declared, secrets redacted
      expect(undeclaredEventFields(original.type, original.data), original.type).toEqual([]);
      expect(event.data).toEqual(JSON.parse(JSON.stringify(readableEventData(original.type, original.data))));
      expect(event.metadata).toEqual(JSON.parse(JSON.stringify(original.metadata)));
      expect(event.recorded_at).toBe(new Date(original.metadata.occurredAt).toISOString());
    }
    // unprefixed /api answers the same
    expect((await allPages('', 100, admin, '/api')).events).toEqual(listed);
  });

  it('records who did it, from where and under which correlation id', async () => {
    const { events } = await allPages(`correlation_id=${correlation('accounts')}`, 100);
    const created = events.filter((event) => event.type === 'AccountCreated');
    expect(created.map((event) => event.stream_id).sort()).toEqual([`account-${made.alice.id}`, `account-${made.bob.id}`].sort());
    // newest first: bob was created after alice
    expect(created[0].stream_id).toBe(`account-${made.bob.id}`);
    for (const event of events) {
      expect(event).toMatchObject({ actor: adminId, actor_kind: 'account', correlation_id: correlation('accounts') });
      expect(event.source_ip).toMatch(/127\.0\.0\.1|::1/);
      expect(event.metadata).toMatchObject({ actor: adminId, correlationId: correlation('accounts'), sourceIp: event.source_ip });
    }
    expect((created[1].data as { username: string }).username).toBe(`alice.${tag}`);
  });

  it('narrows by stream, stream prefix, event types, actor, correlation id and time range, each as filtering the whole log would', async () => {
    const everything = await settledLog();
    const expectFilter = async (query: string, keep: (event: TAuditEvent) => boolean, atLeast = 1) => {
      const expected = everything.filter(keep);
      expect(expected.length, query).toBeGreaterThanOrEqual(atLeast);
      expect(expected.length, query).toBeLessThan(everything.length);
      expect((await allPages(query, 100)).events, query).toEqual(expected);
    };
    await expectFilter(`stream=account-${made.alice.id}`, (event) => event.stream_id === `account-${made.alice.id}`, 1);
    await expectFilter(`stream=team-${made.teamId}`, (event) => event.stream_id === `team-${made.teamId}`, 3);
    await expectFilter('stream_prefix=account-', (event) => event.stream_id.startsWith('account-'), 4);
    await expectFilter(`stream_prefix=team-${made.teamId.slice(0, 8)}`, (event) => event.stream_id.startsWith(`team-${made.teamId.slice(0, 8)}`), 3);
    await expectFilter('type=AccountCreated', (event) => event.type === 'AccountCreated', 2);
    await expectFilter('type=TeamCreated&type=TeamTitleChanged', (event) => event.type === 'TeamCreated' || event.type === 'TeamTitleChanged', 3);
    await expectFilter('type=TeamCreated,TeamTitleChanged', (event) => event.type === 'TeamCreated' || event.type === 'TeamTitleChanged', 3);
    await expectFilter(`actor=${made.bob.id}`, (event) => event.actor === made.bob.id, 2);
    await expectFilter(`correlation_id=${correlation('bob')}`, (event) => event.correlation_id === correlation('bob'), 1);
    await expectFilter(`stream=team-${made.teamId}&actor=${adminId}&type=TeamTitleChanged`, (event) => event.stream_id === `team-${made.teamId}` && event.actor === adminId && event.type === 'TeamTitleChanged', 1);
    // a time range: from is inclusive, to exclusive
    const times = [...new Set(everything.map((event) => event.recorded_at))].sort();
    expect(times.length).toBeGreaterThan(3);
    const [from, to] = [times[1], times[times.length - 2]];
    await expectFilter(`from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, (event) => event.recorded_at >= from && event.recorded_at < to, 1);
    await expectFilter(`from=${encodeURIComponent(to)}`, (event) => event.recorded_at >= to, 1);
    // an offset form of the same instant means the same
    const shifted = new Date(Date.parse(to) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    await expectFilter(`to=${encodeURIComponent(shifted)}`, (event) => event.recorded_at < to, 1);
    // no match is an empty last page
    expect((await admin.get('/api/v2/audit/events?stream=account-nobody')).body.data).toEqual({ data: [], next_before: null });
  });

  it("narrows to an organization: its and its sub-organizations' streams, their teams' and their members' accounts'", async () => {
    const child = await admin.post('/api/v2/organization', { title: `Audit child ${tag}`, description: '', parent_id: made.organizationId });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const carol = await createAccount(admin, { organization: child.body.data.id });
    const team = await admin.post('/api/v2/team', { title: `Child desk ${tag}`, interorg: false, organization: child.body.data.id, accounts: [carol.id] });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const outsider = await createAccount(admin);
    const everything = await settledLog();
    const streams = new Set([`organization-${made.organizationId}`, `organization-${child.body.data.id}`, `team-${team.body.data.id}`, `account-${made.alice.id}`, `account-${made.bob.id}`, `account-${carol.id}`]);
    const expected = everything.filter((event) => streams.has(event.stream_id));
    expect(new Set(expected.map((event) => event.stream_id))).toEqual(streams);
    const answered = (await allPages(`organization=${made.organizationId}`, 100)).events;
    expect(answered).toEqual(expected);
    expect(answered.some((event) => event.stream_id === `account-${outsider.id}` || event.stream_id === `team-${made.teamId}`)).toBe(false);
    // the sub-organization alone: only its part
    const below = (await allPages(`organization=${child.body.data.id}`, 100)).events;
    expect(new Set(below.map((event) => event.stream_id))).toEqual(new Set([`organization-${child.body.data.id}`, `team-${team.body.data.id}`, `account-${carol.id}`]));
    // with another filter, and in the export
    expect((await allPages(`organization=${made.organizationId}&type=AccountCreated`, 100)).events).toEqual(expected.filter((event) => event.type === 'AccountCreated'));
    const exported = await fetch(`${app.url}/api/v2/audit/events/export?organization=${made.organizationId}`, { headers: { authorization: `Bearer ${await signIn(app.url)}` } });
    expect((await exported.text()).trimEnd().split('\n').map((line) => (JSON.parse(line) as TAuditEvent).position)).toEqual(expected.map((event) => event.position));
    // a bad id names the field
    const bad = await admin.get('/api/v2/audit/events?organization=sales');
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('organization');
  });

  it('pages by keyset: every event exactly once across pages of any size, and a cursor keeps its place while new events arrive', async () => {
    const everything = await settledLog();
    for (const limit of [1, 7, 100]) {
      const { events, pages } = await allPages('', limit);
      expect(pages).toBe(Math.max(1, Math.ceil(everything.length / limit)));
      expect(new Set(events.map((event) => event.position)).size).toBe(events.length);
      expect(events).toEqual(everything);
    }
    const first = (await admin.get('/api/v2/audit/events?limit=5')).body.data as { data: TAuditEvent[]; next_before: string };
    await createAccount(admin);
    const second = (await admin.get(`/api/v2/audit/events?limit=5&before=${first.next_before}`)).body.data as { data: TAuditEvent[] };
    expect(second.data).toEqual(everything.slice(5, 10));
    // the default page is 50
    const now = await settledLog();
    expect((await admin.get('/api/v2/audit/events')).body.data.data).toEqual(now.slice(0, 50));
  });

  it('exports the filtered log as NDJSON, streamed line by line, equal to the list', async () => {
    const token = await signIn(app.url);
    const everything = await settledLog();
    for (const query of ['', 'type=TeamCreated,TeamTitleChanged', `stream_prefix=account-&actor=${adminId}`]) {
      const response = await fetch(`${app.url}/api/v2/audit/events/export?${query}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="event-log-.*\.ndjson"$/);
      // written as it is read: chunked, no length known up front
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      // read the body as a stream, parsing each complete line as it arrives
      const lines: TAuditEvent[] = [];
      const decoder = new TextDecoder();
      let rest = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        rest += decoder.decode(chunk, { stream: true });
        const complete = rest.split('\n');
        rest = complete.pop() ?? '';
        for (const line of complete) lines.push(JSON.parse(line) as TAuditEvent);
      }
      expect(rest).toBe('');
      const listed = query ? (await allPages(query, 100)).events : everything;
      expect(lines.length).toBeGreaterThan(0);
      expect(lines).toEqual(listed);
    }
  });

  it('exports a log longer than one read chunk, in order, nothing lost or doubled at the chunk boundaries', async () => {
    // EXPORT_CHUNK_ROWS is 500: 520 renames of one team make its stream span two chunks
    for (let i = 0; i < 520; i += 1) {
      const renamed = await admin.raw('PATCH', `/api/v2/team/${made.teamId}/title`, { title: `Audit team ${tag} #${i}` });
      expect(renamed.status).toBe(200);
    }
    const token = await signIn(app.url);
    const everything = await settledLog();
    for (const query of [`stream=team-${made.teamId}`, '']) {
      const text = await (await fetch(`${app.url}/api/audit/events/export?${query}`, { headers: { authorization: `Bearer ${token}` } })).text();
      const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as TAuditEvent);
      const expected = everything.filter((event) => !query || event.stream_id === `team-${made.teamId}`);
      expect(expected.length).toBeGreaterThan(520);
      expect(lines).toEqual(expected);
    }
  }, 120_000);

  it('answers bad filters with 400 naming the field, on the list and the export', async () => {
    const bad: Array<[string, string]> = [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['before=12', 'before'],
      ['before=abc.def', 'before'],
      ['type=accountCreated', 'type'],
      ['type=AccountCreated,drop table', 'type'],
      ['from=yesterday', 'from'],
      ['to=2026-13-45T00:00:00Z', 'to'],
      ['from=2026-11-22T10:00:00Z&to=2026-11-22T09:00:00Z', 'to'],
      ['correlation_id=has%20space', 'correlation_id'],
      [`stream=${'x'.repeat(301)}`, 'stream'],
    ];
    for (const [query, field] of bad) {
      for (const path of ['/api/v2/audit/events', '/api/audit/events', '/api/v2/audit/events/export']) {
        if (path.endsWith('export') && (field === 'limit' || field === 'before')) continue; // the export takes neither
        const answer = await admin.get(`${path}?${query}`);
        expect(answer.status, `${path}?${query}`).toBe(400);
        expect(answer.body.error.code).toBe('request.invalid');
        expect(Object.keys(answer.body.error.fields ?? {}), `${path}?${query}`).toContain(field);
      }
    }
  });

  it('serves the console through tRPC audit.events with the same answers as REST', async () => {
    const token = await signIn(app.url);
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    const rest = (await admin.get(`/api/v2/audit/events?limit=3&type=TeamTitleChanged&stream=team-${made.teamId}`)).body.data;
    expect(await client.audit.events.query({ limit: 3, type: ['TeamTitleChanged'], stream: `team-${made.teamId}` })).toEqual(rest);
    const refused = (await client.audit.events.query({ limit: 500 }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(400);
  });

  it('is refused (403) to an account that is no administrator, to an organization administrator holding audit:read only in its organization, and to a token without audit:read', async () => {
    const plain = await createAccount(admin);
    const plainSession = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    // an organization administrator: audit:read held through a role of its own organization only
    const permission = await admin.post('/api/v2/permission', { organization_id: made.organizationId, title: `Audit ${tag}`, slug: 'audit:read', description: '' });
    expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
    const role = await admin.post(`/api/v2/organization/${made.organizationId}/role`, { title: `Auditor ${tag}`, slug: `auditor-${tag}`, description: '', permissions: [permission.body.data.id] });
    expect(role.status, JSON.stringify(role.body)).toBeLessThan(300);
    const auditor = await createAccount(admin, { organization: made.organizationId });
    expect((await admin.post(`/api/v2/organization/${made.organizationId}/account-role`, { account_id: auditor.id, role_id: role.body.data.id })).status).toBe(200);
    const scopedSession = http(app.url, await signIn(app.url, { username: auditor.username, password: auditor.password }));
    const withoutAudit = await admin.post('/api/v1/token', { title: `No audit ${tag}`, forever: true, permissions: ['accounts:read'], restrictions: [], account_id: adminId });
    const withAudit = await admin.post('/api/v1/token', { title: `Audit ${tag}`, forever: true, permissions: ['audit:read'], restrictions: [], account_id: adminId });
    expect(withAudit.status, JSON.stringify(withAudit.body)).toBe(201);
    for (const client of [plainSession, scopedSession, http(app.url, withoutAudit.body.token as string)]) {
      for (const path of ['/api/v2/audit/events', '/api/audit/events', '/api/v2/audit/events/export', '/trpc/audit.events?input=%7B%7D']) {
        const answer = await client.get(path);
        expect(answer.status, path).toBe(403);
      }
    }
    expect((await http(app.url).get('/api/v2/audit/events')).status).toBe(401);
    const tokenClient = http(app.url, withAudit.body.token as string);
    expect((await tokenClient.get('/api/v2/audit/events?limit=1')).status).toBe(200);
    expect((await tokenClient.get('/api/v2/audit/events/export?type=TeamCreated')).status).toBe(200);
  });
});
