import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';

const PREFIXES = [
  ['/api/v1', (body: { data?: unknown }) => body],
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

type Organization = { id: string; title: string; parent_id: string | null; parent_title: string | null; num_children: number; num_members: number; protected: boolean };
type Client = ReturnType<typeof http>;

let counter = 0;
const uniqueTitle = (base: string) => `${base} ${Date.now().toString(36)}${(counter += 1)}`;

describe.each(storageKinds())('organizations and membership over REST and tRPC (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    adminId = (await admin.get('/api/v1/account/current')).body.id;
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const del = (path: string) => admin.raw('DELETE', path);
  const patch = (path: string, body: unknown) => admin.raw('PATCH', path, body);
  const create = async (title: string, extra: Record<string, unknown> = {}) => {
    const created = await admin.post('/api/v1/organization', { title, description: `About ${title}`, ...extra });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Organization;
  };
  const read = async (id: string) => (await admin.get(`/api/v1/organization/${id}`)).body as Organization;
  const status = async (id: string) => (await admin.get(`/api/v1/organization/${id}`)).status;
  const memberIds = async (organizationId: string) => ((await admin.get(`/api/v1/organization/${organizationId}/members/all`)).body as Array<{ id: string }>).map((m) => m.id).sort();
  const organizationsOf = async (accountId: string) =>
    ((await admin.get(`/api/v1/account/${accountId}/organizations-and-roles?limit=100`)).body.data as Array<{ id: string }>).map((o) => o.id).sort();
  const join = async (organizationId: string, accountId: string) => {
    const joined = await admin.post(`/api/v1/account/${accountId}/associate/organization`, { organization_id: organizationId });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  };
  /** everything a refused deletion must leave as it was: every organization with its place and counts, and the members of each */
  const snapshot = async () => {
    const organizations = ((await admin.get('/api/v1/organizations?limit=100&sortBy=title&desc=false')).body.data as Array<Organization & { updated_at: string }>).map((o) => ({ ...o }));
    const members = await Promise.all(organizations.map(async (o) => [o.id, await memberIds(o.id)] as const));
    return { organizations, members };
  };

  it('creates the protected top-level organization on first start, with the administrator as its member', async () => {
    const listed = (await admin.get('/api/v1/organizations?search=rollcall')).body.data as Organization[];
    const root = listed.find((o) => o.title === 'Rollcall');
    expect(root).toMatchObject({ protected: true, parent_id: null, num_members: 1, active: 1 });
    expect(await memberIds(root!.id)).toEqual([adminId]);
    const refused = await del(`/api/v1/organization/${root!.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('organization.protected');
    expect(await status(root!.id)).toBe(200);
  });

  it('creates, reads, lists, finds and renames on v1, v2 and unprefixed, reading its own writes', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const title = uniqueTitle(`Finance ${prefix}`);
      const created = await admin.post(`${prefix}/organization`, { title, description: 'Money matters' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const organization = unwrap(created.body) as Organization & { created_at: string };
      expect(organization).toEqual({
        id: expect.any(String),
        title,
        description: 'Money matters',
        unique_id: organization.id,
        active: 1,
        protected: false,
        parent_id: null,
        parent_title: null,
        num_children: 0,
        num_members: 0,
        created_at: expect.any(String),
        updated_at: organization.created_at,
      });
      expect(unwrap((await admin.get(`${prefix}/organization/${organization.id}`)).body)).toEqual(organization);

      const listed = await admin.get(`${prefix}/organizations?search=${encodeURIComponent(title.toUpperCase())}`);
      expect(listed.status).toBe(200);
      expect(unwrap(listed.body)).toMatchObject({ data: [organization], total: 1, current_page: 1, per_page: 10, from: 1, to: 1 });
      const found = await admin.get(`${prefix}/organization/find?organization=${encodeURIComponent(title.slice(2))}`);
      expect(unwrap(found.body)).toEqual([{ id: organization.id, title }]);

      const renamed = await patch(`${prefix}/organization/details/${organization.id}`, { title: `${title} (renamed)`, description: 'Money, renamed' });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(unwrap(renamed.body)).toMatchObject({ id: organization.id, title: `${title} (renamed)`, description: 'Money, renamed', created_at: organization.created_at });
      // the rename released the old title
      await create(title);
    }
  });

  it('pages, sorts and searches the list', async () => {
    const tag = uniqueTitle('Paging');
    for (const letter of ['c', 'a', 'b']) await create(`${tag} ${letter}`);
    const page = (await admin.get(`/api/v1/organizations?search=${encodeURIComponent(tag)}&sortBy=title&desc=false&limit=2&page=2`)).body;
    expect(page).toMatchObject({ total: 3, from: 3, to: 3, last_page: 2, current_page: 2, per_page: 2 });
    expect(page.data.map((o: Organization) => o.title)).toEqual([`${tag} c`]);
    const bad = await admin.get('/api/v1/organizations?limit=101&sortBy=nope');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['limit', 'sortBy']);
  });

  it('nests three levels, lists sub-organizations, refuses a move that would close a cycle and moves otherwise', async () => {
    const a = await create(uniqueTitle('Group'));
    const b = await create(uniqueTitle('Division'), { parent_id: a.id });
    const c = await create(uniqueTitle('Team'), { parent_id: b.id });
    expect(await read(a.id)).toMatchObject({ num_children: 1, parent_id: null });
    expect(await read(c.id)).toMatchObject({ parent_id: b.id, parent_title: b.title });
    const account = await createAccount(admin, { organization: c.id });
    expect(await read(c.id)).toMatchObject({ num_members: 1 });
    for (const [prefix, unwrap] of PREFIXES) {
      const subs = await admin.get(`${prefix}/organization/${b.id}/sub-orgs`);
      expect(subs.status).toBe(200);
      expect(unwrap(subs.body)).toMatchObject({ data: [{ id: c.id, title: c.title, parent_title: b.title, num_members: 1, created_at: expect.any(String), protected: false }], total: 1 });
    }
    expect(await organizationsOf(account.id)).toEqual([c.id]);

    // A under its own grandchild: refused, and the title sent with it is not applied either
    const cycle = await patch(`/api/v1/organization/details/${a.id}`, { title: `${a.title} moved`, description: '', parent_id: c.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body.error).toMatchObject({ code: 'organization.cycle', fields: { parent_id: [expect.any(String)] } });
    expect(await read(a.id)).toMatchObject({ title: a.title, parent_id: null });
    const self = await patch(`/api/v2/organization/details/${b.id}`, { title: b.title, description: '', parent_id: b.id });
    expect(self.status).toBe(409);

    // C to the top level, then under A
    const top = await patch(`/api/v1/organization/details/${c.id}`, { title: c.title, description: 'moved', parent_id: null });
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    expect(top.body).toMatchObject({ parent_id: null, parent_title: null });
    expect(await read(b.id)).toMatchObject({ num_children: 0 });
    const under = await patch(`/api/v1/organization/details/${c.id}`, { title: c.title, description: 'moved', parent_id: a.id });
    expect(under.body).toMatchObject({ parent_id: a.id, parent_title: a.title });
    expect(await read(a.id)).toMatchObject({ num_children: 2 });
    const unknownParent = await patch(`/api/v1/organization/details/${c.id}`, { title: c.title, description: '', parent_id: randomUUID() });
    expect(unknownParent.status).toBe(404);
    expect(unknownParent.body.error.fields.parent_id).toBeDefined();
  });

  it('decides concurrent structural changes on the fresh tree: parallel creations all land, crossing moves cannot close a loop', async () => {
    const parent = await create(uniqueTitle('Busy'));
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => admin.post('/api/v1/organization', { title: uniqueTitle(`Busy child ${i}`), parent_id: parent.id })));
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(await read(parent.id)).toMatchObject({ num_children: 8 });

    const a = await create(uniqueTitle('Left'));
    const b = await create(uniqueTitle('Right'));
    const moves = await Promise.all([
      patch(`/api/v1/organization/details/${a.id}`, { title: a.title, description: '', parent_id: b.id }),
      patch(`/api/v1/organization/details/${b.id}`, { title: b.title, description: '', parent_id: a.id }),
    ]);
    expect(moves.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(moves.find((r) => r.status === 409)!.body.error.code).toBe('organization.cycle');
    const [left, right] = [await read(a.id), await read(b.id)];
    expect([left.parent_id, right.parent_id].filter((p) => p !== null)).toHaveLength(1);
  });

  it('refuses duplicate titles case-insensitively, on create and on rename', async () => {
    const title = uniqueTitle('Legal');
    const first = await create(title);
    const duplicate = await admin.post('/api/v2/organization', { title: title.toUpperCase(), description: '' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'organization.title_taken', fields: { title: [expect.any(String)] } });
    const other = await create(uniqueTitle('Compliance'));
    const rename = await patch(`/api/v1/organization/details/${other.id}`, { title: ` ${title.toLowerCase()} `, description: '' });
    expect(rename.status).toBe(409);
    expect(rename.body.error.code).toBe('organization.title_taken');
    // a change of case of its own title is fine
    expect((await patch(`/api/v1/organization/details/${first.id}`, { title: title.toUpperCase(), description: '' })).status).toBe(200);
    const empty = await admin.post('/api/v1/organization', { title: '  ', description: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.title).toBeDefined();
  });

  it('answers 404 for unknown organizations and accounts and 400 for ids that are not ids', async () => {
    const unknown = randomUUID();
    const account = await createAccount(admin);
    const organization = await create(uniqueTitle('Known'));
    const cases: Array<[string, string, unknown, number, string]> = [
      ['GET', `/api/v1/organization/${unknown}`, undefined, 404, 'organization.not_found'],
      ['GET', `/api/v2/organization/${unknown}/sub-orgs`, undefined, 404, 'organization.not_found'],
      ['GET', `/api/v1/organization/${unknown}/members/all`, undefined, 404, 'organization.not_found'],
      ['PATCH', `/api/v1/organization/details/${unknown}`, { title: 'x', description: '' }, 404, 'organization.not_found'],
      ['DELETE', `/api/v1/organization/${unknown}`, undefined, 404, 'organization.not_found'],
      ['POST', `/api/v1/organization/${unknown}/member`, { account_id: account.id }, 404, 'organization.not_found'],
      ['POST', `/api/v1/account/${account.id}/associate/organization`, { organization_id: unknown }, 404, 'organization.not_found'],
      ['POST', `/api/v1/organization/${organization.id}/member`, { account_id: unknown }, 404, 'account.not_found'],
      ['GET', `/api/v1/account/${unknown}/organizations-and-roles`, undefined, 404, 'account.not_found'],
      ['DELETE', `/api/v1/organization/${organization.id}/member/${account.id}`, undefined, 404, 'membership.not_found'],
      ['GET', '/api/v1/organization/not-a-uuid', undefined, 400, 'request.invalid'],
      ['POST', '/api/v1/organization', { title: uniqueTitle('Orphan'), parent_id: unknown }, 404, 'organization.parent_not_found'],
    ];
    for (const [method, path, body, expected, code] of cases) {
      const response = await admin.raw(method, path, body);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
      expect(response.body.error.code, `${method} ${path}`).toBe(code);
    }
    const orphanAccount = await admin.post('/api/v1/account', { ...newAccount(), organization: unknown });
    expect(orphanAccount.status).toBe(404);
    expect(orphanAccount.body.error).toMatchObject({ code: 'organization.not_found', fields: { organization: [expect.any(String)] } });
  });

  it('adds, lists and removes members from both sides, refusing a second association', async () => {
    const organization = await create(uniqueTitle('Support'));
    const ada = await createAccount(admin);
    const bob = await createAccount(admin);
    await join(organization.id, ada.id);
    const again = await admin.post(`/api/v2/account/${ada.id}/associate/organization`, { organization_id: organization.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'membership.exists', message: 'Account and organization already associated!', fields: { organization_id: ['Account and organization already associated!'] } });
    const added = await admin.post(`/api/v2/organization/${organization.id}/member`, { account_id: bob.id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data.message).toContain(bob.last_name);

    for (const [prefix, unwrap] of PREFIXES) {
      const members = unwrap((await admin.get(`${prefix}/organization/${organization.id}/members/all`)).body) as Array<Record<string, unknown>>;
      expect(members).toHaveLength(2);
      expect(members.find((m) => m.id === ada.id)).toEqual({
        id: ada.id,
        status_id: 1,
        status_title: 'Active',
        first_name: ada.first_name,
        last_name: ada.last_name,
        username_readable: ada.username,
        roles: [],
        created_at: expect.any(String),
        protected: false,
      });
      const ofAccount = unwrap((await admin.get(`${prefix}/account/${ada.id}/organizations-and-roles`)).body);
      expect(ofAccount).toMatchObject({ data: [{ id: organization.id, org_title: organization.title, created_at: expect.any(String), roles: [] }], total: 1 });
      expect(unwrap((await admin.get(`${prefix}/account/${ada.id}/organizations`)).body)).toEqual(ofAccount);
    }
    expect(await read(organization.id)).toMatchObject({ num_members: 2 });

    const removed = await del(`/api/v1/organization/${organization.id}/member/${bob.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: `Account ${bob.first_name} ${bob.last_name} successfully deleted or removed from organization` });
    const left = await del(`/api/v2/account/${ada.id}/leave-organization/${organization.id}`);
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(left.body.data.message).toEqual(expect.any(String));
    expect(await memberIds(organization.id)).toEqual([]);
    expect((await del(`/api/v1/account/${ada.id}/leave-organization/${organization.id}`)).status).toBe(404);
    // a deleted account leaves every organization
    await join(organization.id, bob.id);
    expect((await del(`/api/v1/account/${bob.id}`)).status).toBe(200);
    expect(await memberIds(organization.id)).toEqual([]);
  });

  describe('deleting an organization', () => {
    /** parent > doomed > child > grandchild, with members in doomed and grandchild */
    const tree = async () => {
      const parent = await create(uniqueTitle('Parent'));
      const doomed = await create(uniqueTitle('Doomed'), { parent_id: parent.id });
      const child = await create(uniqueTitle('Child'), { parent_id: doomed.id });
      const grandchild = await create(uniqueTitle('Grandchild'), { parent_id: child.id });
      const destination = await create(uniqueTitle('Destination'));
      const member = await createAccount(admin, { organization: doomed.id });
      const deepMember = await createAccount(admin, { organization: grandchild.id });
      return { parent, doomed, child, grandchild, destination, member, deepMember };
    };

    it('disconnects by default: the children become top-level, the members leave', async () => {
      const t = await tree();
      const other = await create(uniqueTitle('Elsewhere'));
      await join(other.id, t.member.id);
      const deleted = await del(`/api/v1/organization/${t.doomed.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(deleted.body).toEqual({ message: 'Organization removed' });
      expect(await status(t.doomed.id)).toBe(404);
      expect(await read(t.child.id)).toMatchObject({ parent_id: null, num_children: 1 });
      expect(await read(t.parent.id)).toMatchObject({ num_children: 0 });
      expect(await organizationsOf(t.member.id)).toEqual([other.id]);
      expect(await organizationsOf(t.deepMember.id)).toEqual([t.grandchild.id]);
      // the title is free again
      await create(t.doomed.title);
    });

    it('deletes the sub-organizations and the accounts (usernames freed) when asked', async () => {
      const t = await tree();
      const deleted = await del(`/api/v2/organization/${t.doomed.id}?organization=${t.doomed.id}&suborganizations=delete&accounts=delete`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(deleted.body).toEqual({ data: { message: 'Organization removed' } });
      for (const id of [t.doomed.id, t.child.id, t.grandchild.id]) expect(await status(id)).toBe(404);
      expect(await read(t.parent.id)).toMatchObject({ num_children: 0 });
      for (const account of [t.member, t.deepMember]) expect((await admin.get(`/api/v1/account/${account.id}`)).status).toBe(404);
      await createAccount(admin, { username: t.member.username, email: t.member.email });
    });

    it('moves the sub-organizations and the accounts to the destinations; an account already there just leaves', async () => {
      const t = await tree();
      const both = await createAccount(admin, { organization: t.destination.id });
      await join(t.doomed.id, both.id);
      const query = `suborganizations=move&suborganizations_move_to=${t.destination.id}&accounts=move&accounts_move_to=${t.destination.id}`;
      const deleted = await del(`/api/organization/${t.doomed.id}?${query}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(await status(t.doomed.id)).toBe(404);
      expect(await read(t.child.id)).toMatchObject({ parent_id: t.destination.id, parent_title: t.destination.title });
      expect(await read(t.grandchild.id)).toMatchObject({ parent_id: t.child.id });
      expect(await organizationsOf(t.member.id)).toEqual([t.destination.id]);
      expect(await organizationsOf(both.id)).toEqual([t.destination.id]);
      expect(await memberIds(t.destination.id)).toEqual([t.member.id, both.id].sort());
      expect(await read(t.destination.id)).toMatchObject({ num_children: 1, num_members: 2 });
    });

    it('moves the accounts of every deleted sub-organization along', async () => {
      const t = await tree();
      const deleted = await del(`/api/v1/organization/${t.doomed.id}?suborganizations=delete&accounts=move&accounts_move_to=${t.destination.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(await memberIds(t.destination.id)).toEqual([t.member.id, t.deepMember.id].sort());
    });

    it('refuses bad choices and destinations, naming the field, and changes nothing', async () => {
      const t = await tree();
      const before = await snapshot();
      const cases: Array<[string, number, string, string]> = [
        ['suborganizations=explode', 400, 'request.invalid', 'suborganizations'],
        ['accounts=keep', 400, 'request.invalid', 'accounts'],
        ['suborganizations=move', 400, 'organization.destination_required', 'suborganizations_move_to'],
        [`suborganizations=move&suborganizations_move_to=${t.doomed.id}`, 400, 'organization.destination_same', 'suborganizations_move_to'],
        [`accounts=move&accounts_move_to=${t.doomed.id}`, 400, 'organization.destination_same', 'accounts_move_to'],
        [`suborganizations=move&suborganizations_move_to=${randomUUID()}`, 404, 'organization.destination_not_found', 'suborganizations_move_to'],
        ['accounts=move&accounts_move_to=nope', 400, 'request.invalid', 'accounts_move_to'],
        [`suborganizations=move&suborganizations_move_to=${t.grandchild.id}`, 409, 'organization.cycle', 'suborganizations_move_to'],
        [`suborganizations=delete&accounts=move&accounts_move_to=${t.child.id}`, 409, 'organization.destination_deleted', 'accounts_move_to'],
      ];
      for (const [query, expected, code, field] of cases) {
        const response = await del(`/api/v1/organization/${t.doomed.id}?${query}`);
        expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(expected);
        expect(response.body.error.code, query).toBe(code);
        expect(Object.keys(response.body.error.fields ?? {}), query).toContain(field);
      }
      const same = await del(`/api/v1/organization/${t.doomed.id}?suborganizations=move&suborganizations_move_to=${t.doomed.id}`);
      expect(same.body.error.message).toBe("Destination organization and the one you're deleting are the same. Pick another organization");
      expect(await snapshot()).toEqual(before);
    });

    it('refuses the whole deletion for a protected sub-organization or a protected account, leaving everything as it was', async () => {
      const t = await tree();
      const root = ((await admin.get('/api/v1/organization/find?organization=Rollcall')).body as Organization[]).find((o) => o.title === 'Rollcall')!;
      // the protected bootstrap organization moves under the child for a while
      expect((await patch(`/api/v1/organization/details/${root.id}`, { title: 'Rollcall', description: '', parent_id: t.child.id })).status).toBe(200);
      try {
        const before = await snapshot();
        const protectedChild = await del(`/api/v1/organization/${t.doomed.id}?suborganizations=delete&accounts=delete`);
        expect(protectedChild.status).toBe(403);
        expect(protectedChild.body.error.code).toBe('organization.protected');
        expect(await snapshot()).toEqual(before);
        for (const account of [t.member, t.deepMember]) expect((await admin.get(`/api/v1/account/${account.id}`)).status).toBe(200);
      } finally {
        expect((await patch(`/api/v1/organization/details/${root.id}`, { title: 'Rollcall', description: '', parent_id: null })).status).toBe(200);
      }

      await join(t.doomed.id, adminId);
      const before = await snapshot();
      const protectedAccount = await del(`/api/v1/organization/${t.doomed.id}?accounts=delete`);
      expect(protectedAccount.status).toBe(403);
      expect(protectedAccount.body.error.code).toBe('account.protected');
      expect(await snapshot()).toEqual(before);
      expect((await admin.get(`/api/v1/account/${t.member.id}`)).status).toBe(200);
      // disconnecting is fine for the protected account: it only leaves
      expect((await del(`/api/v1/organization/${t.doomed.id}`)).status).toBe(200);
      expect(await organizationsOf(adminId)).toEqual([root.id]);
    });
  });

  it('refuses writes to an access token without organizations:write, and reads with organizations:read', async () => {
    const issued = await admin.post('/api/v1/token', { title: 'Directory reader', forever: true, permissions: ['organizations:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    expect((await reader.get('/api/v1/organizations')).status).toBe(200);
    const organization = await create(uniqueTitle('Token target'));
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/organization', { title: uniqueTitle('Token made'), description: '' }],
      ['PATCH', `/api/v2/organization/details/${organization.id}`, { title: 'x', description: '' }],
      ['DELETE', `/api/v1/organization/${organization.id}`, undefined],
      ['POST', `/api/v1/organization/${organization.id}/member`, { account_id: adminId }],
      ['POST', `/api/v1/account/${adminId}/associate/organization`, { organization_id: organization.id }],
    ];
    for (const [method, path, body] of writes) {
      const response = await reader.raw(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const tokenTrpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${issued.body.token}` }) })] });
    expect((await tokenTrpc.organizations.byId.query({ id: organization.id })).title).toBe(organization.title);
    const refused = (await tokenTrpc.organizations.create.mutate({ title: uniqueTitle('Nope') }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(403);
    expect(await status(organization.id)).toBe(200);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const parent = await client.organizations.create.mutate({ title: uniqueTitle('tRPC parent'), description: 'made over tRPC' });
    expect(parent).toMatchObject({ parent_id: null, num_children: 0, description: 'made over tRPC' });
    const child = await client.organizations.create.mutate({ title: uniqueTitle('tRPC child'), parent_id: parent.id });
    expect(child).toMatchObject({ parent_id: parent.id, parent_title: parent.title });
    expect((await client.organizations.list.query({ page: 1, limit: 10, search: parent.title })).data.map((o) => o.id)).toEqual([parent.id]);
    expect(await client.organizations.find.query({ organization: child.title })).toEqual([{ id: child.id, title: child.title }]);
    expect((await client.organizations.byId.query({ id: child.id })).title).toBe(child.title);
    const renamed = await client.organizations.updateDetails.mutate({ id: child.id, title: `${child.title} 2`, description: 'renamed', parent_id: null });
    expect(renamed).toMatchObject({ title: `${child.title} 2`, parent_id: null });
    await client.organizations.updateDetails.mutate({ id: child.id, title: `${child.title} 2`, description: 'renamed', parent_id: parent.id });
    expect((await client.organizations.subOrganizations.query({ id: parent.id, page: 1, limit: 10 })).data.map((o) => o.id)).toEqual([child.id]);

    const account = await createAccount(admin);
    expect((await client.organizations.addMember.mutate({ id: child.id, account_id: account.id })).message).toContain(account.last_name);
    const taken = (await client.organizations.addMember.mutate({ id: child.id, account_id: account.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(taken.data?.httpStatus).toBe(409);
    expect(taken.data?.apiError).toMatchObject({ code: 'membership.exists', fields: { organization_id: ['Account and organization already associated!'] } });
    const members = await client.organizations.members.query({ id: child.id, page: 1, limit: 10, search: account.username });
    expect(members).toMatchObject({ total: 1, data: [{ id: account.id, roles: [] }] });
    expect((await client.organizations.members.query({ id: child.id, page: 1, limit: 10, search: 'nobody-like-this' })).total).toBe(0);
    expect((await client.organizations.ofAccount.query({ account_id: account.id, page: 1, limit: 10 })).data).toEqual([{ id: child.id, org_title: `${child.title} 2`, created_at: expect.any(String), roles: [] }]);
    expect(await client.organizations.removeMember.mutate({ id: child.id, account_id: account.id })).toEqual({ message: `Account ${account.first_name} ${account.last_name} successfully deleted or removed from organization` });

    const cycle = (await client.organizations.updateDetails.mutate({ id: parent.id, title: parent.title, description: '', parent_id: child.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(cycle.data?.apiError.code).toBe('organization.cycle');
    expect(await client.organizations.delete.mutate({ id: parent.id, suborganizations: 'delete', accounts: 'disconnect' })).toEqual({ message: 'Organization removed' });
    expect((await status(child.id))).toBe(404);
  });
});
