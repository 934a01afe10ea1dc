import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';

describe.each(storageKinds())('accounts over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const total = async () => (await admin.get('/api/v1/accounts?limit=1')).body.total as number;

  it('shows a created account in the very next list read (read your writes), on v1, v2 and unprefixed', async () => {
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      const account = newAccount();
      const created = await admin.post(`${prefix}/account`, account);
      expect(created.status).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const id = prefix === '/api/v1' ? created.body.id : created.body.data.id;
      const list = await admin.get(`${prefix}/accounts?search=${encodeURIComponent(account.username)}`);
      const page = prefix === '/api/v1' ? list.body : list.body.data;
      expect(page.data.map((row: { id: string }) => row.id)).toEqual([id]);
      expect(page).toMatchObject({ total: 1, from: 1, to: 1, last_page: 1, current_page: 1, per_page: 10 });
    }
  });

  it('reads one account: bare on v1, data.account on v2', async () => {
    const account = newAccount({ first_name: 'Grace', last_name: 'Hopper' });
    const { id } = (await admin.post('/api/v1/account', account)).body;
    const v1 = await admin.get(`/api/v1/account/${id}`);
    expect(v1.body).toMatchObject({ id, first_name: 'Grace', last_name: 'Hopper', username_readable: account.username, status_id: 1, status_title: 'Active', protected: false });
    expect(v1.body).not.toHaveProperty('password_hash');
    expect(v1.body.additional.email).toEqual([{ value: account.email, type: 'work' }]);
    const v2 = await admin.get(`/api/v2/account/${id}`);
    expect(v2.body.data.account).toEqual(v1.body);
    expect((await admin.get('/api/v2/account/6a2f41a0-0000-4000-8000-000000000000')).status).toBe(404);
    const malformed = await admin.get('/api/v1/account/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields.id).toBeDefined();
  });

  it('pages, sorts, searches and filters by status', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    for (const name of ['Carol', 'alice', 'Bob']) await admin.post('/api/v1/account', newAccount({ first_name: name, username: `${tag}.${name.toLowerCase()}`, email: `${tag}.${name}@example.com` }));
    const sorted = await admin.get(`/api/v1/accounts?search=${tag}&sortBy=username&desc=false&limit=2`);
    expect(sorted.body.data.map((a: { username: string }) => a.username)).toEqual([`${tag}.alice`, `${tag}.bob`]);
    expect(sorted.body).toMatchObject({ total: 3, from: 1, to: 2, last_page: 2, per_page: 2 });
    const second = await admin.get(`/api/v1/accounts?search=${tag}&sortBy=username&desc=false&limit=2&page=2`);
    expect(second.body.data.map((a: { username: string }) => a.username)).toEqual([`${tag}.carol`]);
    expect(second.body).toMatchObject({ from: 3, to: 3, current_page: 2 });
    const beyond = await admin.get(`/api/v1/accounts?search=${tag}&limit=2&page=9`);
    expect(beyond.body).toMatchObject({ data: [], from: null, to: null, total: 3 });
    const awaiting = await admin.post('/api/v1/account', newAccount({ username: `${tag}.nopass`, email: `${tag}.nopass@example.com`, password: undefined, no_password: true }));
    expect(awaiting.status).toBe(201);
    const filtered = await admin.get(`/api/v1/accounts?search=${tag}&status=4`);
    expect(filtered.body.data.map((a: { username: string }) => a.username)).toEqual([`${tag}.nopass`]);
    const wildcard = await admin.get(`/api/v1/accounts?search=${encodeURIComponent('%')}`);
    expect(wildcard.body.total).toBe(0);
  });

  it('lets exactly one of 20 parallel creations of one username through; the rest get 409 naming the field', async () => {
    const before = await total();
    const username = `race.${Date.now().toString(36)}`;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => admin.post('/api/v2/account', newAccount({ username, email: `race${i}.${username}@example.com` }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(19);
    expect(conflicts[0].body.error).toMatchObject({ code: 'account.username_taken', fields: { username: [expect.any(String)] } });
    expect(await total()).toBe(before + 1);
    // e-mail addresses are unique too, whatever their case
    const winnerEmail = (await admin.get(`/api/v1/accounts?search=${username}`)).body.data[0].email as string;
    const again = await admin.post('/api/v1/account', newAccount({ username: `${username}.y`, email: winnerEmail.toUpperCase() }));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'account.email_taken', fields: { email: [expect.any(String)] } });
  });

  it('names both the username and the e-mail address when both are taken, each with its code (REST v1, v2, unprefixed, tRPC)', async () => {
    const holder = newAccount();
    expect((await admin.post('/api/v1/account', holder)).status).toBe(201);
    const before = await total();
    // the first code stays the error's (compat); the e-mail's rule comes beside the username's
    const expected = {
      code: 'account.username_taken',
      message: 'This username is already taken',
      fields: { username: ['This username is already taken'], email: ['This e-mail address is already used by another account'] },
      rules: [
        { field: 'username', code: 'account.username_taken', message: 'This username is already taken' },
        { field: 'email', code: 'account.email_taken', message: 'This e-mail address is already used by another account' },
      ],
    };
    const both = { username: holder.username.toUpperCase(), email: ` ${holder.email.toUpperCase()}` };
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      const answer = await admin.post(`${prefix}/account`, newAccount(both));
      expect(answer.status).toBe(409);
      expect(answer.body.error).toEqual(expected);
    }
    const token = await signIn(app.url);
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    const refused = (await client.accounts.create.mutate(newAccount({ ...both, email: holder.email })).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(409);
    expect(refused.data?.apiError).toEqual(expected);
    // one taken: only that one is named, as before
    const usernameOnly = await admin.post('/api/v2/account', newAccount({ username: holder.username }));
    expect(usernameOnly.body.error.fields).toEqual({ username: ['This username is already taken'] });
    const emailOnly = await admin.post('/api/v2/account', newAccount({ email: holder.email }));
    expect(emailOnly.body.error).toMatchObject({ code: 'account.email_taken', fields: { email: ['This e-mail address is already used by another account'] } });
    expect(emailOnly.body.error.fields).not.toHaveProperty('username');
    expect(await total()).toBe(before);
  });

  it('refuses bad input with a clear error naming the field, and writes nothing', async () => {
    const before = await total();
    const cases: Array<[string, unknown, number, string]> = [
      ['wrong types', { ...newAccount(), first_name: 42, no_password: 'yes' }, 400, 'first_name'],
      ['missing fields', { username: 'lonely.one' }, 400, 'email'],
      ['unknown field', { ...newAccount(), is_admin: true }, 400, '_'],
      ['256 characters', { ...newAccount(), last_name: 'x'.repeat(256) }, 400, 'last_name'],
      ['bad e-mail', { ...newAccount(), email: 'not-an-email' }, 400, 'email'],
      ['short password', { ...newAccount(), password: 'short' }, 400, 'password'],
      ['no password without the switch', { ...newAccount(), password: undefined }, 400, 'password'],
      ['expiry switch without a date', { ...newAccount(), expiry: true }, 400, 'expires_at'],
      ['policy switch without a policy', { ...newAccount(), policy: true }, 400, 'policy_id'],
      ['unknown policy', { ...newAccount(), policy: true, policy_id: 'no-such-policy' }, 404, 'policy_id'],
    ];
    for (const [label, body, status, field] of cases) {
      const response = await admin.post('/api/v2/account', body);
      expect(response.status, label).toBe(status);
      expect(response.body.error.fields?.[field], `${label}: ${JSON.stringify(response.body)}`).toBeDefined();
      expect(JSON.stringify(response.body)).not.toMatch(/at \w+ \(|node_modules/);
    }
    expect((await admin.raw('POST', '/api/v1/account', '{"first_name": ')).body.error.code).toBe('request.malformed_json');
    expect((await admin.raw('POST', '/api/v1/account', 'first_name=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    const huge = await admin.post('/api/v1/account', { ...newAccount(), first_name: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('request.too_large');
    const unknownRoute = await admin.get('/api/v2/no/such/route');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.error.code).toBe('route.not_found');
    const badQuery = await admin.get('/api/v1/accounts?limit=abc&status=99');
    expect(badQuery.status).toBe(400);
    expect(Object.keys(badQuery.body.error.fields).sort()).toEqual(['limit', 'status.0']);
    expect(await total()).toBe(before);
  });

  it('lists the account statuses with 3 meaning password change required', async () => {
    const v1 = await admin.get('/api/v1/account/statuses');
    expect(v1.body).toContainEqual({ id: 3, label: 'Password change required' });
    expect((await admin.get('/api/v2/account/statuses')).body.data).toEqual(v1.body);
  });

  it('keeps every account across a restart and does not create a second administrator', async () => {
    const account = newAccount();
    await admin.post('/api/v1/account', account);
    const before = await total();
    await app.stop();
    app = await app.restart();
    admin = http(app.url, await signIn(app.url));
    expect(await total()).toBe(before);
    expect((await admin.get(`/api/v1/accounts?search=${account.username}`)).body.total).toBe(1);
    expect((await admin.get(`/api/v1/accounts?search=${ADMIN.username}&limit=100`)).body.data.filter((a: { username: string }) => a.username === ADMIN.username)).toHaveLength(1);
  });
});
