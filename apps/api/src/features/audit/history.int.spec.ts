import { SYSTEM_PERMISSION_SLUGS, type TAsOfAnswer, type THistoryEntry } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;

/**
 * History tabs and time travel (docs/api/compat.md, 'History and time travel'): an entity's events
 * with what each changed in plain words, and an account or organization as it was, folded from its
 * own stream.
 */
describe.each(storageKinds())('history and time travel (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = {} as { sales: string; other: string; editor: string; account: { id: string; username: string; first_name: string; last_name: string; email: string }; beforeRename: string; renamedAt: string };

  const created = async (answer: Promise<{ status: number; body: { data?: { id: string }; id?: string } }>) => {
    const { status, body } = await answer;
    if (status !== 201 && status !== 200) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
    return (body.data?.id ?? body.id) as string;
  };
  const history = async (client: Client, path: string) => {
    const answer = await client.get(path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { data: THistoryEntry[]; next_before: string | null };
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    made.sales = await created(admin.post('/api/v2/organization', { title: `Sales ${tag}`, description: '' }));
    made.other = await created(admin.post('/api/v2/organization', { title: `Other ${tag}`, description: '' }));
    made.editor = await created(admin.post(`/api/v2/organization/${made.sales}/role`, { title: `Editor ${tag}`, slug: `editor-${tag}`, description: '', permissions: [] }));
    made.account = await createAccount(admin, { organization: made.sales, first_name: 'Ada' });
    made.beforeRename = new Date().toISOString();
    // the clock must move on between the moment we travel to and the change
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renamed = await admin.raw('PUT', `/api/v1/account/${made.account.id}`, { first_name: 'Augusta', last_name: made.account.last_name, email: made.account.email });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const granted = await admin.post(`/api/v2/organization/${made.sales}/account-role`, { account_id: made.account.id, role_id: made.editor });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it("tells an account's history newest first, in plain words, with what each event changed", async () => {
    const page = await history(admin, `/api/v2/account/${made.account.id}/history`);
    const [grant, rename] = page.data;
    expect(grant.type).toBe('RoleGrantedToAccount');
    expect(grant.summary).toMatch(new RegExp(`^Role Editor ${tag} granted in Sales ${tag} by admin( from \\S+)?$`));
    expect(grant.changes).toEqual([{ field: `roles by organization › Sales ${tag}`, before: null, after: `Editor ${tag}` }]);
    expect(rename.type).toBe('AccountProfileUpdated');
    expect(rename.changes).toContainEqual({ field: 'first name', before: 'Ada', after: 'Augusta' });
    // the first event is the creation: everything appears, and no secret is ever shown
    const creation = page.data[page.data.length - 1];
    expect(creation.type).toBe('AccountCreated');
    expect(creation.changes).toContainEqual({ field: 'username', before: null, after: made.account.username });
    expect(JSON.stringify(page.data.map((entry) => entry.changes))).not.toMatch(/argon2|password hash|password history/i);
  });

  it('pages with a cursor, the same events as one long page', async () => {
    const all = await history(admin, `/api/v2/account/${made.account.id}/history?limit=100`);
    const first = await history(admin, `/api/v2/account/${made.account.id}/history?limit=2`);
    expect(first.data.map((entry) => entry.position)).toEqual(all.data.slice(0, 2).map((entry) => entry.position));
    expect(first.next_before).toBe(first.data[1].position);
    const second = await history(admin, `/api/v2/account/${made.account.id}/history?limit=100&before=${first.next_before}`);
    expect(second.data.map((entry) => entry.position)).toEqual(all.data.slice(2).map((entry) => entry.position));
    expect(second.next_before).toBeNull();
  });

  it('shows an account as it was before a change, folded from its stream, by time or by position', async () => {
    const before = await admin.get(`/api/v2/account/${made.account.id}/as-of?at=${made.beforeRename}`);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    const then = before.body.data as TAsOfAnswer;
    expect(then.existed).toBe(true);
    expect(then.fields).toContainEqual({ field: 'first name', value: 'Ada' });
    expect(then.fields.some((field) => field.field.startsWith('roles by organization'))).toBe(false);
    const now = (await admin.get(`/api/v2/account/${made.account.id}/as-of?at=${new Date().toISOString()}`)).body.data as TAsOfAnswer;
    expect(now.fields).toContainEqual({ field: 'first name', value: 'Augusta' });
    expect(now.fields).toContainEqual({ field: `roles by organization › Sales ${tag}`, value: `Editor ${tag}` });
    expect(JSON.stringify(now.fields)).not.toMatch(/argon2/);
    // by position: right after the creation event
    const creation = (await history(admin, `/api/v2/account/${made.account.id}/history?limit=100`)).data.at(-1)!;
    const atCreation = (await admin.get(`/api/v2/account/${made.account.id}/as-of?position=${creation.position}`)).body.data as TAsOfAnswer;
    expect(atCreation.version).toBe(creation.stream_version);
    expect(atCreation.fields).toContainEqual({ field: 'first name', value: 'Ada' });
    // before it existed
    const never = (await admin.get(`/api/v2/account/${made.account.id}/as-of?at=2000-01-01T00:00:00Z`)).body.data as TAsOfAnswer;
    expect(never).toMatchObject({ existed: false, status: 'none', version: 0, position: null, fields: [] });
  });

  it("shows an organization's history and past state, and the same over tRPC", async () => {
    const renamedAt = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await admin.raw('PATCH', `/api/v2/organization/details/${made.sales}`, { title: `Sales ${tag} EU`, description: 'renamed' })).status).toBe(200);
    const page = await history(admin, `/api/v2/organization/${made.sales}/history`);
    expect(page.data[0].changes).toContainEqual({ field: 'title', before: `Sales ${tag}`, after: `Sales ${tag} EU` });
    expect(page.data.map((entry) => entry.type)).toContain('RoleCreated');
    const then = (await admin.get(`/api/v2/organization/${made.sales}/as-of?at=${renamedAt}`)).body.data as TAsOfAnswer;
    expect(then.fields).toContainEqual({ field: 'title', value: `Sales ${tag}` });
    const overTrpc = await admin.get(`/trpc/audit.history?input=${encodeURIComponent(JSON.stringify({ kind: 'organization', id: made.sales, limit: 1 }))}`);
    expect(overTrpc.status, JSON.stringify(overTrpc.body)).toBe(200);
    expect(overTrpc.body.result.data.data[0].position).toBe(page.data[0].position);
    const asOfTrpc = await admin.get(`/trpc/audit.asOf?input=${encodeURIComponent(JSON.stringify({ kind: 'organization', id: made.sales, at: renamedAt }))}`);
    expect(asOfTrpc.body.result.data.fields).toContainEqual({ field: 'title', value: `Sales ${tag}` });
  });

  it('keeps a team, an application and a reader history too', async () => {
    const team = await created(admin.post('/api/v2/team', { title: `Team ${tag}`, organization: made.sales }));
    const application = (await admin.post('/api/v2/application', { title: `App ${tag}`, url: '', scopes: [] })).body.data.app.id as string;
    const reader = await created(admin.post('/api/v2/readers', { name: `Door ${tag}`, door: 'Front', role: 'door' }));
    for (const [path, type] of [
      [`team/${team}`, 'TeamCreated'],
      [`application/${application}`, 'ApplicationCreated'],
      [`readers/${reader}`, 'DoorReaderRegistered'],
    ]) {
      const page = await history(admin, `/api/v2/${path}/history`);
      expect(page.data.map((entry) => entry.type), path).toContain(type);
    }
  });

  it('refuses bad input with the field and the rule, and unknown entities with 404', async () => {
    const badTime = await admin.get(`/api/v2/account/${made.account.id}/as-of?at=yesterday`);
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.fields.at[0]).toMatch(/ISO-8601/);
    const none = await admin.get(`/api/v2/account/${made.account.id}/as-of`);
    expect(none.status).toBe(400);
    expect(none.body.error.fields.at[0]).toBe('at or position is required');
    const badCursor = await admin.get(`/api/v2/account/${made.account.id}/history?before=last`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.fields.before).toBeDefined();
    expect((await admin.get(`/api/v2/application/01900000-0000-7000-8000-000000000000/history`)).status).toBe(404);
    expect((await admin.get(`/api/v2/account/01900000-0000-7000-8000-000000000000/history`)).status).toBe(404);
  });

  it("lets an organization's administrator read the history within it, and nothing outside", async () => {
    const permissions = [];
    for (const slug of SYSTEM_PERMISSION_SLUGS) permissions.push(await created(admin.post('/api/v2/permission', { organization_id: made.other, title: `${slug} ${tag}`, slug, description: '' })));
    const role = await created(admin.post(`/api/v2/organization/${made.other}/role`, { title: `Admin ${tag}`, slug: `admin-${tag}`, description: '', permissions }));
    const holder = await createAccount(admin, { organization: made.other });
    expect((await admin.post(`/api/v2/organization/${made.other}/account-role`, { account_id: holder.id, role_id: role })).status).toBe(200);
    const organizationAdmin = http(app.url, await signIn(app.url, { username: holder.username, password: holder.password }));
    expect((await organizationAdmin.get(`/api/v2/account/${holder.id}/history`)).status).toBe(200);
    expect((await organizationAdmin.get(`/api/v2/organization/${made.other}/history`)).status).toBe(200);
    expect([403, 404]).toContain((await organizationAdmin.get(`/api/v2/account/${made.account.id}/history`)).status);
    expect([403, 404]).toContain((await organizationAdmin.get(`/api/v2/account/${made.account.id}/as-of?at=${made.beforeRename}`)).status);
    const outside = await organizationAdmin.get(`/trpc/audit.history?input=${encodeURIComponent(JSON.stringify({ kind: 'account', id: made.account.id }))}`);
    expect([403, 404]).toContain(outside.status);
  });
});
