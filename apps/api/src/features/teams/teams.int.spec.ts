import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { systemContext } from '../../platform/commands/request-context';
import { CommandGateway } from '../../platform/commands/command-gateway';
import type { AppRouter } from '../../root-router';
import { CreateTeamCommand } from './commands/create-team.handler';

const PREFIXES = [
  ['/api/v1', (body: { data?: unknown }) => body],
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

type Team = { id: string; title: string; interorg: boolean; organization: string | null; organization_title: string | null; num_members: number; protected: boolean; accounts?: string[]; created_at: string };
type Client = ReturnType<typeof http>;

let counter = 0;
const uniqueTitle = (base: string) => `${base} ${Date.now().toString(36)}${(counter += 1)}`;

describe.each(storageKinds())('teams and team membership over REST and tRPC (%s)', (kind) => {
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
  const organization = async (title = uniqueTitle('Org')) => {
    const created = await admin.post('/api/v1/organization', { title, description: '' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string; title: string };
  };
  const createTeam = async (body: Record<string, unknown>) => {
    const created = await admin.post('/api/v1/team', { description: '', interorg: true, accounts: [], ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Team;
  };
  const teamStatus = async (id: string) => (await admin.get(`/api/v1/team/${id}`)).status;
  const memberIds = async (teamId: string) => ((await admin.get(`/api/v1/team/${teamId}/associated-accounts`)).body as Array<{ id: string }>).map((m) => m.id).sort();
  const teamsOf = async (accountId: string) => ((await admin.get(`/api/v1/account/${accountId}/teams?limit=100`)).body.data as Array<{ team_id: string }>).map((row) => row.team_id).sort();
  const expectError = (response: { status: number; body: { error: { code: string; fields?: Record<string, string[]> } } }, status: number, code: string, field?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error.code).toBe(code);
    if (field) expect(Object.keys(response.body.error.fields ?? {})).toContain(field);
  };

  it('creates a multi-organization team with two accounts, reads, lists, finds and renames it on v1, v2 and unprefixed', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const ada = await createAccount(admin);
      const alan = await createAccount(admin);
      const title = uniqueTitle(`Night shift ${prefix}`);
      const created = await admin.post(`${prefix}/team`, { title, description: 'Keeps the lights on', interorg: true, accounts: [ada.id, alan.id] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const team = unwrap(created.body) as Team;
      expect(team).toEqual({
        id: expect.any(String),
        title,
        description: 'Keeps the lights on',
        interorg: true,
        organization: null,
        organization_title: null,
        num_members: 2,
        created_at: expect.any(String),
        updated_at: team.created_at,
        protected: false,
        accounts: [ada.id, alan.id].sort(),
      });
      expect(unwrap((await admin.get(`${prefix}/team/${team.id}`)).body)).toEqual(team);

      const { accounts: _accounts, ...row } = team;
      const listed = await admin.get(`${prefix}/teams?search=${encodeURIComponent(title.toUpperCase())}`);
      expect(listed.status).toBe(200);
      expect(unwrap(listed.body)).toMatchObject({ data: [row], total: 1, current_page: 1, per_page: 10, from: 1, to: 1 });
      const found = await admin.get(`${prefix}/team/find?team=${encodeURIComponent(title.slice(3))}`);
      expect(unwrap(found.body)).toEqual([{ id: team.id, title }]);

      const members = await admin.get(`${prefix}/team/${team.id}/associated-accounts`);
      expect(members.status).toBe(200);
      expect(unwrap(members.body)).toEqual(
        expect.arrayContaining([
          { id: ada.id, first_name: ada.first_name, last_name: ada.last_name, username_readable: ada.username },
          { id: alan.id, first_name: alan.first_name, last_name: alan.last_name, username_readable: alan.username },
        ]),
      );

      const renamed = await patch(`${prefix}/team/${team.id}/title`, { title: `${title} (renamed)` });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(unwrap(renamed.body)).toMatchObject({ id: team.id, title: `${title} (renamed)`, created_at: team.created_at });
      // the rename released the old title
      await createTeam({ title });
    }
  });

  it("creates a team of one organization whose members belong to it, and lists an organization's teams", async () => {
    const org = await organization();
    const member = await createAccount(admin, { organization: org.id });
    const outsider = await createAccount(admin);
    const team = await createTeam({ title: uniqueTitle('Desk'), interorg: false, organization: org.id, accounts: [member.id] });
    expect(team).toMatchObject({ interorg: false, organization: org.id, organization_title: org.title, num_members: 1 });

    const refused = await admin.post('/api/v1/team', { title: uniqueTitle('Desk'), description: '', interorg: false, organization: org.id, accounts: [member.id, outsider.id] });
    expectError(refused, 400, 'team.member_not_in_organization', 'accounts');
    const unknownAccount = await admin.post('/api/v2/team', { title: uniqueTitle('Desk'), interorg: false, organization: org.id, accounts: [randomUUID()] });
    expectError(unknownAccount, 404, 'account.not_found', 'accounts');
    expectError(await admin.post('/api/v1/team', { title: uniqueTitle('Desk'), interorg: false, accounts: [] }), 400, 'team.organization_required', 'organization');
    expectError(await admin.post('/api/v1/team', { title: uniqueTitle('Desk'), interorg: false, organization: randomUUID() }), 404, 'organization.not_found', 'organization');

    // the organization's Teams tab; an interorg team sent with an organization belongs to none
    const interorg = await createTeam({ title: uniqueTitle('Everyone'), interorg: true, organization: org.id });
    expect(interorg.organization).toBeNull();
    for (const [prefix, unwrap] of PREFIXES) {
      const listed = unwrap((await admin.get(`${prefix}/teams?organization_id=${org.id}`)).body) as { data: Team[]; total: number };
      expect(listed.data.map((t) => t.id)).toEqual([team.id]);
      expect(listed.total).toBe(1);
    }

    // an account may join a team of an organization it belongs to
    expectError(await admin.post(`/api/v1/account/${outsider.id}/associate/team`, { team_id: team.id }), 400, 'team.member_not_in_organization', 'team_id');
    expect((await admin.post(`/api/v1/account/${outsider.id}/associate/organization`, { organization_id: org.id })).status).toBe(201);
    expect((await admin.post(`/api/v1/account/${outsider.id}/associate/team`, { team_id: team.id })).status).toBe(201);
    expect(await memberIds(team.id)).toEqual([member.id, outsider.id].sort());
  });

  it('keeps titles unique within an organization and among multi-organization teams, case-insensitively', async () => {
    const [a, b] = [await organization(), await organization()];
    const title = uniqueTitle('Support');
    await createTeam({ title, interorg: false, organization: a.id });
    await createTeam({ title, interorg: false, organization: b.id });
    await createTeam({ title, interorg: true });
    expectError(await admin.post('/api/v1/team', { title: title.toUpperCase(), interorg: false, organization: a.id }), 409, 'team.title_taken', 'title');
    const taken = await admin.post('/api/v2/team', { title: ` ${title} `, interorg: true });
    expectError(taken, 409, 'team.title_taken', 'title');
    expect(taken.body.error.fields.title).toEqual(['A team with this title already exists in this organization']);

    const other = await createTeam({ title: uniqueTitle('Other'), interorg: false, organization: a.id });
    expectError(await patch(`/api/v1/team/${other.id}/title`, { title }), 409, 'team.title_taken', 'title');
    // a change of case keeps its own reservation
    expect((await patch(`/api/v1/team/${other.id}/title`, { title: other.title.toUpperCase() })).status).toBe(200);
  });

  it('refuses bad input naming the field, unknown ids with 404, and never answers 500', async () => {
    const team = await createTeam({ title: uniqueTitle('Checks') });
    const cases: Array<[string, string, unknown, number, string, string | undefined]> = [
      ['POST', '/api/v1/team', { title: '', interorg: true }, 400, 'request.invalid', 'title'],
      ['POST', '/api/v1/team', { title: 'x'.repeat(256), interorg: true }, 400, 'request.invalid', 'title'],
      ['POST', '/api/v1/team', { title: 'Fine', interorg: 'maybe' }, 400, 'request.invalid', 'interorg'],
      ['POST', '/api/v1/team', { title: 'Fine', interorg: true, accounts: ['nope'] }, 400, 'request.invalid', 'accounts.0'],
      ['POST', '/api/v1/team', { title: 'Fine', interorg: false, organization: 'nope' }, 400, 'request.invalid', 'organization'],
      ['PATCH', `/api/v1/team/${team.id}/title`, { title: '   ' }, 400, 'request.invalid', 'title'],
      ['PATCH', `/api/v1/team/${randomUUID()}/title`, { title: 'Ghost' }, 404, 'team.not_found', undefined],
      ['PATCH', '/api/v1/team/nope/title', { title: 'Ghost' }, 400, 'request.invalid', 'id'],
      ['GET', `/api/v1/team/${randomUUID()}`, undefined, 404, 'team.not_found', undefined],
      ['GET', `/api/v2/team/${randomUUID()}/associated-accounts`, undefined, 404, 'team.not_found', undefined],
      ['DELETE', `/api/v1/team/${randomUUID()}`, undefined, 404, 'team.not_found', undefined],
      ['GET', '/api/v1/teams?limit=101&sortBy=nope', undefined, 400, 'request.invalid', 'limit'],
      ['GET', `/api/v1/account/${randomUUID()}/teams`, undefined, 404, 'account.not_found', undefined],
      ['GET', `/api/v1/account/${adminId}/teams?sortBy=nope`, undefined, 400, 'request.invalid', 'sortBy'],
      ['POST', `/api/v1/account/${adminId}/associate/team`, {}, 400, 'request.invalid', 'team_id'],
      ['POST', `/api/v1/account/${adminId}/associate/team`, { team_id: 'nope' }, 400, 'request.invalid', 'team_id'],
      ['POST', `/api/v1/account/${adminId}/associate/team`, { team_id: randomUUID() }, 404, 'team.not_found', 'team_id'],
      ['POST', `/api/v1/account/${randomUUID()}/associate/team`, { team_id: team.id }, 404, 'account.not_found', 'team_id'],
      ['DELETE', `/api/v1/account/${adminId}/leave-team/${team.id}`, undefined, 404, 'team.member_not_found', undefined],
      ['DELETE', `/api/v1/account/${adminId}/leave-team/nope`, undefined, 400, 'request.invalid', 'team_id'],
    ];
    for (const [method, path, body, status, code, field] of cases) {
      const response = await admin.raw(method, path, body);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
      expect(response.body.error.code, `${method} ${path}`).toBe(code);
      if (field) expect(Object.keys(response.body.error.fields ?? {}), `${method} ${path}`).toContain(field);
    }
  });

  it("associates an account, refuses a second time with 'User already associated!', lists its teams, and lets it leave", async () => {
    const account = await createAccount(admin);
    const first = await createTeam({ title: uniqueTitle('Alpha') });
    const second = await createTeam({ title: uniqueTitle('Beta') });
    for (const [prefix, unwrap] of PREFIXES) {
      const joined = await admin.post(`${prefix}/account/${account.id}/associate/team`, { team_id: first.id });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(unwrap(joined.body)).toEqual({ message: `Account added to the team ${first.title}` });
      const again = await admin.post(`${prefix}/account/${account.id}/associate/team`, { team_id: first.id });
      expectError(again, 409, 'team.member_exists', 'team_id');
      expect(again.body.error.fields.team_id).toEqual(['User already associated!']);
      expect((await admin.post(`${prefix}/account/${account.id}/associate/team`, { team_id: second.id })).status).toBe(201);

      const listed = unwrap((await admin.get(`${prefix}/account/${account.id}/teams?sortBy=team_title&desc=false`)).body) as { data: unknown[]; total: number };
      expect(listed).toMatchObject({ total: 2, per_page: 10 });
      expect(listed.data).toEqual([
        { team_id: first.id, team_title: first.title, association_created_at: expect.any(String) },
        { team_id: second.id, team_title: second.title, association_created_at: expect.any(String) },
      ]);
      const paged = unwrap((await admin.get(`${prefix}/account/${account.id}/teams?limit=1&page=2&sortBy=team_title&desc=true`)).body) as { data: Array<{ team_id: string }>; last_page: number };
      expect(paged.data.map((row) => row.team_id)).toEqual([first.id]);
      expect(paged.last_page).toBe(2);
      expect((await admin.get(`/api/v1/team/${first.id}`)).body.num_members).toBe(1);

      const left = await del(`${prefix}/account/${account.id}/leave-team/${first.id}`);
      expect(left.status, JSON.stringify(left.body)).toBe(200);
      expect(unwrap(left.body)).toEqual({ message: `Account has left the team ${first.title}` });
      expect((await del(`${prefix}/account/${account.id}/leave-team/${second.id}`)).status).toBe(200);
      expect(await teamsOf(account.id)).toEqual([]);
    }
  });

  it('deletes a team (its title freed, its members with it) but never a protected one', async () => {
    const account = await createAccount(admin);
    const team = await createTeam({ title: uniqueTitle('Temporary'), accounts: [account.id] });
    for (const [prefix, unwrap] of PREFIXES) {
      const disposable = await createTeam({ title: uniqueTitle(`Disposable ${prefix}`) });
      const deleted = await del(`${prefix}/team/${disposable.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(unwrap(deleted.body)).toEqual({ message: `Team ${disposable.title} deleted` });
      expect(await teamStatus(disposable.id)).toBe(404);
      expectError(await del(`${prefix}/team/${disposable.id}`), 404, 'team.not_found');
    }
    expect((await del(`/api/v1/team/${team.id}`)).status).toBe(200);
    expect(await teamsOf(account.id)).toEqual([]);
    await createTeam({ title: team.title });

    const gateway = app.app.get(CommandGateway);
    const title = uniqueTitle('Founders');
    const { value } = await gateway.execute<{ id: string }>(new CreateTeamCommand({ title, description: '', interorg: true, organization: null, accounts: [] }, systemContext(), true));
    expect((await admin.get(`/api/v1/team/${value.id}`)).body).toMatchObject({ title, protected: true });
    for (const [prefix] of PREFIXES) expectError(await del(`${prefix}/team/${value.id}`), 403, 'team.protected');
    expect(await teamStatus(value.id)).toBe(200);
  });

  it('drops the memberships of a deleted account, and shows a team whose organization was deleted without one', async () => {
    const org = await organization();
    const gone = await createAccount(admin, { organization: org.id });
    const stays = await createAccount(admin, { organization: org.id });
    const team = await createTeam({ title: uniqueTitle('Orphan'), interorg: false, organization: org.id, accounts: [gone.id, stays.id] });
    expect((await del(`/api/v1/account/${gone.id}`)).status).toBe(200);
    expect(await memberIds(team.id)).toEqual([stays.id]);
    expect((await admin.get(`/api/v1/team/${team.id}`)).body.num_members).toBe(1);

    expect((await del(`/api/v1/organization/${org.id}`)).status).toBe(200);
    const orphan = (await admin.get(`/api/v1/team/${team.id}`)).body as Team;
    expect(orphan).toMatchObject({ organization: null, organization_title: null, interorg: false, num_members: 1 });
    expect((await admin.get(`/api/v1/teams?organization_id=${org.id}`)).body.total).toBe(0);
    expect((await del(`/api/v1/team/${team.id}`)).status).toBe(200);
  });

  it('pages and sorts the list', async () => {
    const tag = uniqueTitle('Paging');
    for (const letter of ['c', 'a', 'b']) await createTeam({ title: `${tag} ${letter}` });
    const page = (await admin.get(`/api/v1/teams?search=${encodeURIComponent(tag)}&sortBy=title&desc=false&limit=2&page=2`)).body;
    expect(page).toMatchObject({ total: 3, from: 3, to: 3, last_page: 2, current_page: 2, per_page: 2 });
    expect(page.data.map((t: Team) => t.title)).toEqual([`${tag} c`]);
  });

  it('refuses writes to an access token without teams:write, and reads with teams:read', async () => {
    const issued = await admin.post('/api/v1/token', { title: 'Team reader', forever: true, permissions: ['teams:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    const team = await createTeam({ title: uniqueTitle('Token target') });
    expect((await reader.get('/api/v1/teams')).status).toBe(200);
    expect((await reader.get(`/api/v2/team/${team.id}/associated-accounts`)).status).toBe(200);
    expect((await reader.get(`/api/v1/account/${adminId}/teams`)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/team', { title: uniqueTitle('Token made'), interorg: true }],
      ['PATCH', `/api/v2/team/${team.id}/title`, { title: 'x' }],
      ['DELETE', `/api/v1/team/${team.id}`, undefined],
      ['POST', `/api/v1/account/${adminId}/associate/team`, { team_id: team.id }],
      ['DELETE', `/api/v1/account/${adminId}/leave-team/${team.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const response = await reader.raw(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const organizationsOnly = await admin.post('/api/v1/token', { title: 'Org reader', forever: true, permissions: ['organizations:read'], restrictions: [], account_id: adminId });
    expect((await http(app.url, organizationsOnly.body.token as string).get('/api/v1/teams')).status).toBe(403);
    const tokenTrpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${issued.body.token}` }) })] });
    expect((await tokenTrpc.teams.byId.query({ id: team.id })).title).toBe(team.title);
    const refused = (await tokenTrpc.teams.create.mutate({ title: uniqueTitle('Nope'), interorg: true }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(403);
    expect(await teamStatus(team.id)).toBe(200);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const org = await organization();
    const account = await createAccount(admin, { organization: org.id });
    const team = await client.teams.create.mutate({ title: uniqueTitle('tRPC team'), description: 'made over tRPC', interorg: false, organization: org.id, accounts: [account.id] });
    expect(team).toMatchObject({ organization: org.id, organization_title: org.title, num_members: 1, accounts: [account.id], description: 'made over tRPC' });
    expect((await client.teams.list.query({ organization_id: org.id })).data.map((t) => t.id)).toEqual([team.id]);
    expect(await client.teams.find.query({ team: team.title })).toEqual([{ id: team.id, title: team.title }]);
    expect((await client.teams.byId.query({ id: team.id })).title).toBe(team.title);
    expect((await client.teams.rename.mutate({ id: team.id, title: `${team.title} 2` })).title).toBe(`${team.title} 2`);
    expect(await client.teams.members.query({ id: team.id })).toEqual([{ id: account.id, first_name: account.first_name, last_name: account.last_name, username_readable: account.username }]);
    expect((await client.teams.ofAccount.query({ account_id: account.id })).data).toEqual([{ team_id: team.id, team_title: `${team.title} 2`, association_created_at: expect.any(String) }]);

    const taken = (await client.teams.addMember.mutate({ team_id: team.id, account_id: account.id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(taken.data?.httpStatus).toBe(409);
    expect(taken.data?.apiError).toMatchObject({ code: 'team.member_exists', fields: { team_id: ['User already associated!'] } });
    expect(await client.teams.removeMember.mutate({ team_id: team.id, account_id: account.id })).toEqual({ message: `Account has left the team ${team.title} 2` });
    expect(await client.teams.addMember.mutate({ team_id: team.id, account_id: account.id })).toEqual({ message: `Account added to the team ${team.title} 2` });
    expect(await client.teams.delete.mutate({ id: team.id })).toEqual({ message: `Team ${team.title} 2 deleted` });
    expect(await teamStatus(team.id)).toBe(404);
  });
  it("a team's history page names the accounts, the team and the actor its entries hold, so a console words them in its own language", async () => {
    const ada = await createAccount(admin);
    const team = await createTeam({ title: uniqueTitle('Crane crew'), accounts: [ada.id] });
    expect((await patch(`/api/v2/team/${team.id}/title`, { title: `${team.title} East` })).status).toBe(200);
    const page = (await admin.get(`/api/v2/team/${team.id}/history`)).body.data as { data: Array<{ type: string; data: Record<string, unknown> }>; names: Record<string, string>; time_zone: string };
    expect(page.data.map((entry) => entry.type)).toEqual(['TeamTitleChanged', 'AccountAddedToTeam', 'TeamCreated']);
    expect(page.names[ada.id]).toBe(ada.username);
    expect(page.names[team.id]).toBe(`${team.title} East`);
    expect(page.names[adminId]).toBe(ADMIN.username);
    expect(page.time_zone).toBe('UTC');
  });
});
