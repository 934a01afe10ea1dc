import { SYSTEM_PERMISSION_SLUGS, type TAsOfAnswer, type THistoryEntry } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

type Client = ReturnType<typeof http>;
type Account = Awaited<ReturnType<typeof createAccount>>;

/**
 * A shared member (a member of A and an administrator of B) must not bridge A and B (outside review,
 * findings 3 and 4; docs/adr/0010 and 0011):
 * - a multi-organization team names to an organization administrator only the members inside its
 *   scope; changing or deleting it needs the permission in every organization it spans; removing a
 *   member needs the member inside the caller's scope (else 404 like an id nobody has); its history
 *   shows only the members in scope, and no actor from outside;
 * - an account's history and time travel show an organization administrator only its membership and
 *   roles inside its scope, never B's organization, roles, administrator or address.
 * On REST v1, v2, /api and tRPC alike.
 */
describe.each(storageKinds())('a shared member does not bridge organizations (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  let adminA: Client;
  let adminB: Client;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = {} as { A: string; B: string; payroll: string; adminB: Account; shared: Account; memberA: Account; memberB: Account };

  const created = async (answer: Promise<{ status: number; body: { data?: { id: string }; id?: string } }>) => {
    const { status, body } = await answer;
    if (status !== 201 && status !== 200) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
    return (body.data?.id ?? body.id) as string;
  };
  /** an administrator of `organizationId`: a member holding a role with every system permission there */
  const administratorOf = async (organizationId: string) => {
    const permissions: string[] = [];
    for (const slug of SYSTEM_PERMISSION_SLUGS) {
      permissions.push(await created(admin.post('/api/v2/permission', { organization_id: organizationId, title: `${slug} ${tag}`, slug, description: '' })));
    }
    const role = await created(admin.post(`/api/v2/organization/${organizationId}/role`, { title: `Administrators ${tag}`, slug: `administrators-${tag}`, description: '', permissions }));
    const account = await createAccount(admin, { organization: organizationId });
    expect((await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: account.id, role_id: role })).status).toBe(200);
    return account;
  };
  const clientOf = async (account: Account) => http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
  const trpcQuery = (client: Client, procedure: string, input: unknown) => client.get(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`);

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    made.A = await created(admin.post('/api/v2/organization', { title: `Org A ${tag}`, description: '' }));
    made.B = await created(admin.post('/api/v2/organization', { title: `Org B ${tag}`, description: '' }));
    const administratorA = await administratorOf(made.A);
    made.adminB = await administratorOf(made.B);
    // shared: created in B, B's administrator too (a second holder of B's role), and a member of A
    made.shared = await createAccount(admin, { organization: made.B });
    const roleB = ((await admin.get(`/api/v1/organization/${made.B}/roles`)).body as Array<{ id: string; slug: string }>).find((role) => role.slug === `administrators-${tag}`)!;
    expect((await admin.post(`/api/v2/organization/${made.B}/account-role`, { account_id: made.shared.id, role_id: roleB.id })).status).toBe(200);
    expect((await admin.post(`/api/v2/organization/${made.A}/member`, { account_id: made.shared.id })).status).toBe(201);
    made.memberA = await createAccount(admin, { organization: made.A });
    made.memberB = await createAccount(admin, { organization: made.B });
    made.payroll = await created(admin.post(`/api/v2/organization/${made.B}/role`, { title: `Payroll Approvers ${tag}`, slug: `payroll-${tag}`, description: '', permissions: [] }));
    adminA = await clientOf(administratorA);
    adminB = await clientOf(made.adminB);
  }, 60_000);
  afterAll(async () => {
    await app?.destroy();
  });

  it('shows a multi-organization team to each administrator only as far as its scope goes, and changes it only with the permission everywhere it spans', async () => {
    const team = await created(adminA.post('/api/v2/team', { title: `Bridge ${tag}`, interorg: true, accounts: [made.memberA.id, made.shared.id] }));

    // B's administrator sees the team (shared is B's) but names only shared among its members
    const membersOver = async (client: Client) => [
      ((await client.get(`/api/v1/team/${team}/associated-accounts`)).body as Array<{ id: string }>).map((row) => row.id),
      ((await client.get(`/api/v2/team/${team}/associated-accounts`)).body.data as Array<{ id: string }>).map((row) => row.id),
      ((await client.get(`/api/team/${team}/associated-accounts`)).body.data as Array<{ id: string }>).map((row) => row.id),
      ((await trpcQuery(client, 'teams.members', { id: team })).body.result.data as Array<{ id: string }>).map((row) => row.id),
    ];
    expect(await membersOver(adminB)).toEqual([[made.shared.id], [made.shared.id], [made.shared.id], [made.shared.id]]);
    expect((await adminB.get(`/api/v2/team/${team}/associated-accounts`)).body.data[0]).not.toHaveProperty('username_readable', made.memberA.username);
    // counted, not named: the team's details list only the ids in scope too
    const details = [
      (await adminB.get(`/api/v1/team/${team}`)).body,
      (await adminB.get(`/api/v2/team/${team}`)).body.data,
      (await trpcQuery(adminB, 'teams.byId', { id: team })).body.result.data,
    ] as Array<{ num_members: number; accounts: string[] }>;
    expect(details.map((team) => [team.num_members, team.accounts])).toEqual(Array(3).fill([2, [made.shared.id]]));
    expect((await membersOver(admin)).map((ids) => ids.sort())).toEqual(Array(4).fill([made.memberA.id, made.shared.id].sort()));

    // renaming and deleting need teams:write in A and B: B's administrator may not, and neither may A's
    for (const client of [adminB, adminA]) {
      const refusals: string[] = [];
      for (const prefix of ['/api/v1', '/api/v2', '/api']) {
        for (const [method, path, body] of [
          ['PATCH', `${prefix}/team/${team}/title`, { title: `Renamed ${tag}` }],
          ['DELETE', `${prefix}/team/${team}`, undefined],
        ] as const) {
          const answer = await client.raw(method, path, body);
          if (answer.status !== 403 || answer.body?.error?.code !== 'auth.forbidden') refusals.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
      for (const [procedure, input] of [
        ['teams.rename', { id: team, title: `Renamed ${tag}` }],
        ['teams.delete', { id: team }],
      ] as const) {
        const answer = await client.post(`/trpc/${procedure}`, input);
        if (answer.status !== 403 || answer.body?.error?.data?.apiError?.code !== 'auth.forbidden') refusals.push(`${procedure}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      expect(refusals).toEqual([]);
    }
    expect((await admin.get(`/api/v2/team/${team}`)).body.data.title).toBe(`Bridge ${tag}`);

    // removing A's member: B's administrator gets exactly what an id nobody has gets
    const nobody = '01900000-0000-7000-8000-000000000000';
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      const [outside, unknown] = [
        await adminB.raw('DELETE', `${prefix}/account/${made.memberA.id}/leave-team/${team}`),
        await adminB.raw('DELETE', `${prefix}/account/${nobody}/leave-team/${team}`),
      ];
      expect(`${prefix} ${outside.status} ${JSON.stringify(outside.body)}`).toBe(`${prefix} ${unknown.status} ${JSON.stringify(unknown.body)}`);
      expect(outside.status).toBe(404);
      expect(outside.body.error.code).toBe('account.not_found');
    }
    const overTrpc = await adminB.post('/trpc/teams.removeMember', { team_id: team, account_id: made.memberA.id });
    expect(overTrpc.status).toBe(404);
    expect(overTrpc.body.error.data.apiError.code).toBe('account.not_found');
    expect((await membersOver(admin))[0].sort()).toEqual([made.memberA.id, made.shared.id].sort());

    // B's administrator adds its own member and removes shared (both B's): A's administrator sees the
    // removal of shared without B's administrator's name or address, and never memberB
    expect((await adminB.post(`/api/v2/account/${made.memberB.id}/associate/team`, { team_id: team })).status).toBe(201);
    expect((await adminB.raw('DELETE', `/api/v2/account/${made.shared.id}/leave-team/${team}`)).status).toBe(200);
    expect(await membersOver(adminA)).toEqual(Array(4).fill([made.memberA.id]));

    // the team's history, on REST and tRPC: only the members in scope, no actor from outside
    const historyOver = async (client: Client) => [
      (await client.get(`/api/v2/team/${team}/history?limit=100`)).body.data.data as THistoryEntry[],
      (await client.get(`/api/team/${team}/history?limit=100`)).body.data.data as THistoryEntry[],
      (await trpcQuery(client, 'audit.history', { kind: 'team', id: team, limit: 100 })).body.result.data.data as THistoryEntry[],
    ];
    for (const entries of await historyOver(adminB)) {
      const text = JSON.stringify(entries);
      expect(text).not.toContain(made.memberA.id);
      expect(text).not.toContain(made.memberA.username);
      expect(entries.map((entry) => entry.type)).toEqual(['AccountRemovedFromTeam', 'AccountAddedToTeam', 'AccountAddedToTeam', 'TeamCreated']);
    }
    for (const entries of await historyOver(adminA)) {
      const text = JSON.stringify(entries);
      for (const hidden of [made.memberB.id, made.memberB.username, made.adminB.id, made.adminB.username]) expect(text).not.toContain(hidden);
      const removal = entries.find((entry) => entry.type === 'AccountRemovedFromTeam')!;
      expect(removal.summary).toBe(`${made.shared.username} removed from team Bridge ${tag} by someone outside your scope`);
      expect(removal.source_ip).toBeNull();
      expect(removal.metadata).not.toHaveProperty('sourceIp', expect.any(String));
    }
    const everything = JSON.stringify(await historyOver(admin));
    for (const shown of [made.memberA.username, made.memberB.username, made.adminB.username]) expect(everything).toContain(shown);

    // once the team spans A alone, A's administrator renames it again
    expect((await admin.raw('DELETE', `/api/v2/account/${made.memberB.id}/leave-team/${team}`)).status).toBe(200);
    expect((await adminA.raw('PATCH', `/api/v2/team/${team}/title`, { title: `Renamed ${tag}` })).status).toBe(200);
    expect((await adminB.get(`/api/v2/team/${team}`)).status).toBe(404);
  });

  it('shows a shared member’s history and time travel to an organization administrator only inside its scope', async () => {
    // B's administrator gives shared a role in B: A's administrator must never read about it
    expect((await adminB.post(`/api/v2/organization/${made.B}/account-role`, { account_id: made.shared.id, role_id: made.payroll })).status).toBe(200);
    const id = made.shared.id;
    const hidden = [made.B, `Org B ${tag}`, made.payroll, `Payroll Approvers ${tag}`, made.adminB.id, made.adminB.username];
    const at = new Date(Date.now() + 1000).toISOString();

    const historyOver = async (client: Client) => [
      (await client.get(`/api/v2/account/${id}/history?limit=100`)).body.data.data as THistoryEntry[],
      (await client.get(`/api/account/${id}/history?limit=100`)).body.data.data as THistoryEntry[],
      (await trpcQuery(client, 'audit.history', { kind: 'account', id, limit: 100 })).body.result.data.data as THistoryEntry[],
    ];
    const asOfOver = async (client: Client) => [
      (await client.get(`/api/v2/account/${id}/as-of?at=${encodeURIComponent(at)}`)).body.data as TAsOfAnswer,
      (await client.get(`/api/account/${id}/as-of?at=${encodeURIComponent(at)}`)).body.data as TAsOfAnswer,
      (await trpcQuery(client, 'audit.asOf', { kind: 'account', id, at })).body.result.data as TAsOfAnswer,
    ];

    for (const entries of await historyOver(adminA)) {
      const text = JSON.stringify(entries);
      for (const value of hidden) expect(text, value).not.toContain(value);
      // what is A's is still there: shared joining A
      expect(entries.some((entry) => entry.type === 'AccountJoinedOrganization' && entry.summary.includes(`Org A ${tag}`))).toBe(true);
      expect(entries.some((entry) => entry.type === 'RoleGrantedToAccount')).toBe(false);
    }
    for (const answer of await asOfOver(adminA)) {
      expect(answer.existed).toBe(true);
      const text = JSON.stringify(answer);
      for (const value of hidden) expect(text, value).not.toContain(value);
      expect(answer.fields.find((field) => field.field === 'organization ids')?.value).toBe(`Org A ${tag}`);
    }

    // the super administrator sees everything
    const all = JSON.stringify([await historyOver(admin), await asOfOver(admin)]);
    for (const value of [`Org B ${tag}`, `Payroll Approvers ${tag}`, made.adminB.username]) expect(all).toContain(value);
    expect(all).toContain(`Role Payroll Approvers ${tag} granted in Org B ${tag} by ${made.adminB.username}`);
  });
});
