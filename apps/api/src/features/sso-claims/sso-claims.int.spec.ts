import type { TAccountClaimGroup, TAccountClaimGroupV1 } from '@rollcall/contracts';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import { EVENT_STORE, READ_DB } from '../../platform/tokens';
import type { EventStore } from '../../platform/event-store/event-store.port';
import type { ReadDatabase } from '../../platform/read-db/read-database';
import type { AppRouter } from '../../root-router';
import { releasedSsoClaims } from './released-sso-claims';

type Client = ReturnType<typeof http>;
const valuesOf = (groups: TAccountClaimGroup[]) => Object.fromEntries(groups.flatMap((group) => group.members.map((member) => [member.claim, member.value])));

describe.each(storageKinds())('single sign-on claims of an account (%s)', (kind) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let app: TestApp;
  let admin: Client;
  let db: Kysely<ReadDatabase>;
  const put = (client: Client, id: string, body: unknown) => client.raw('PUT', `/api/v2/account/${id}/claims`, body);
  const read = async (id: string, client = admin) => {
    const response = await client.get(`/api/v2/account/${id}/claims`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as TAccountClaimGroup[];
  };

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
    db = app.app.get(READ_DB);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('answers the catalogue grouped by scope with member counts, all unset for a new account (v1 in the spec words, v2 wrapped)', async () => {
    const account = await createAccount(admin);
    const groups = await read(account.id);
    expect(groups.map((group) => [group.scope, group.num_members])).toEqual([
      ['profile', 11],
      ['address', 1],
      ['phone', 1],
    ]);
    expect(groups[0].members[0]).toEqual({ claim: 'name', title: 'Full name', description: expect.any(String), scope: 'profile', value: null, fallback_value: `${account.first_name} ${account.last_name}` });
    expect(groups[2].members[0]).toMatchObject({ claim: 'phone_number', value: null, fallback_value: null });
    const v1 = await admin.get(`/api/v1/account/${account.id}/claims`);
    expect(v1.status).toBe(200);
    const [profile] = v1.body as TAccountClaimGroupV1[];
    expect(profile).toMatchObject({ scope: 'profile', title: 'Profile', num_members: 11 });
    expect(profile.members[1]).toEqual({ claim: 'given_name', member_title: 'Given name', member_description: 'First name', val: { scope: 'profile', value: null } });
    expect((await admin.get(`/api/account/${account.id}/claims`)).status).toBe(200);
    // the write is ours and v2 only
    expect((await admin.raw('PUT', `/api/v1/account/${account.id}/claims`, { claims: { nickname: 'x' } })).status).toBe(404);
  });

  it('sets, reads back and clears values (null and empty text clear); only changes are recorded', async () => {
    const account = await createAccount(admin);
    const saved = await put(admin, account.id, { claims: { nickname: '  Countess ', website: 'https://ada.example.com', address: '12 St James Square, London', phone_number: '+44 20 7946 0000', birthdate: '1815-12-10' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.headers.get('x-rollcall-consistency')).toBe('consistent');
    expect(valuesOf(saved.body.data)).toMatchObject({ nickname: 'Countess', website: 'https://ada.example.com', address: '12 St James Square, London', phone_number: '+44 20 7946 0000', birthdate: '1815-12-10', name: null });
    expect(valuesOf(await read(account.id)).nickname).toBe('Countess');

    const before = await db.selectFrom('account_sso_claims_v1').selectAll().where('account_id', '=', account.id).execute();
    expect(before).toHaveLength(5);
    const claimEvents = async () => (await app.app.get<EventStore>(EVENT_STORE).readStream(`account-${account.id}`)).filter((event) => event.type === 'AccountClaimsChanged');
    const [first] = await claimEvents();
    expect(first.data).toMatchObject({ accountId: account.id, claims: { nickname: 'Countess', website: 'https://ada.example.com' } });
    const unchanged = await put(admin, account.id, { claims: { nickname: 'Countess', name: '' } });
    expect(unchanged.status).toBe(200);
    expect(await claimEvents()).toHaveLength(1);

    const cleared = await put(admin, account.id, { claims: { nickname: null, website: '', address: '   ' } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(((await claimEvents())[1].data as { claims: unknown }).claims).toEqual({ nickname: null, website: null, address: null });
    const values = valuesOf(await read(account.id));
    expect(values).toMatchObject({ nickname: null, website: null, address: null, phone_number: '+44 20 7946 0000', birthdate: '1815-12-10' });
    expect(await db.selectFrom('account_sso_claims_v1').select('claim').where('account_id', '=', account.id).orderBy('claim').execute()).toEqual([{ claim: 'birthdate' }, { claim: 'phone_number' }]);
  });

  it('releases set values, else the profile fallbacks, only for the granted scopes', async () => {
    const account = await createAccount(admin, { first_name: 'Ada', last_name: 'Lovelace' });
    const profile = await admin.raw('PUT', `/api/v1/account/${account.id}`, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: account.email,
      middle_name: 'Augusta',
      birth_date: '1815-12-10',
      time_zone: 'Europe/London',
      locale: 'en',
      website: 'https://profile.example.com',
      address: 'Ockham Park, Surrey',
      additional: { telephone: [{ value: '+44 1483 000000', type: 'home' }, { value: '+44 1483 111111', type: 'work' }] },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);

    // the tab shows what is released while a field is empty
    const shown = (await read(account.id)).flatMap((group) => group.members);
    expect(Object.fromEntries(shown.map((member) => [member.claim, member.fallback_value]))).toMatchObject({ given_name: 'Ada', middle_name: 'Augusta', phone_number: '+44 1483 000000', address: 'Ockham Park, Surrey', nickname: null });
    expect(await releasedSsoClaims(db, account.id, ['openid'])).toEqual({ sub: account.id });
    expect(await releasedSsoClaims(db, account.id, ['openid', 'email'])).toEqual({ sub: account.id, email: account.email, email_verified: false });
    expect(await releasedSsoClaims(db, account.id, ['openid', 'profile', 'address', 'phone'])).toEqual({
      sub: account.id,
      preferred_username: account.username,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      middle_name: 'Augusta',
      website: 'https://profile.example.com',
      birthdate: '1815-12-10',
      zoneinfo: 'Europe/London',
      locale: 'en',
      address: { formatted: 'Ockham Park, Surrey' },
      phone_number: '+44 1483 000000',
    });

    // a set value wins over the profile; clearing it brings the fallback back
    expect((await put(admin, account.id, { claims: { name: 'Countess of Lovelace', website: 'https://claims.example.com', address: 'St James Square', nickname: 'Ada' } })).status).toBe(200);
    const released = await releasedSsoClaims(db, account.id, ['profile', 'address']);
    expect(released).toMatchObject({ name: 'Countess of Lovelace', website: 'https://claims.example.com', nickname: 'Ada', address: { formatted: 'St James Square' }, given_name: 'Ada' });
    expect(released).not.toHaveProperty('phone_number');
    expect(released).not.toHaveProperty('email');
    expect((await put(admin, account.id, { claims: { website: null } })).status).toBe(200);
    expect((await releasedSsoClaims(db, account.id, ['profile'])).website).toBe('https://profile.example.com');
    expect(await releasedSsoClaims(db, '00000000-0000-4000-8000-000000000000', ['profile'])).toEqual({});
  });

  it('refuses bad input with 400 naming the claim and records nothing', async () => {
    const account = await createAccount(admin);
    const cases: Array<[unknown, string, RegExp]> = [
      [{ claims: { email: 'a@example.com' } }, 'claims.email', /email is not a claim that can be set/],
      [{ claims: { sub: 'someone-else' } }, 'claims.sub', /not a claim that can be set/],
      [{ claims: { nickname: 'x'.repeat(256) } }, 'claims.nickname', /at most 255/],
      [{ claims: { website: 'ftp://example.com' } }, 'claims.website', /http or https/],
      [{ claims: { profile: 'not a url' } }, 'claims.profile', /http or https/],
      [{ claims: { birthdate: '1815-13-10' } }, 'claims.birthdate', /YYYY-MM-DD/],
      [{ claims: { nickname: 42 } }, 'claims.nickname', /must be text/],
      [{ claims: 'nickname' }, 'claims', /claim names to text/],
      [{}, 'claims', /.+/],
    ];
    for (const [body, field, message] of cases) {
      const refused = await put(admin, account.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('request.invalid');
      expect(refused.body.error.fields[field]?.[0], JSON.stringify(refused.body)).toMatch(message);
    }
    // 255 characters (counted as characters, not UTF-16 units) are fine
    expect((await put(admin, account.id, { claims: { nickname: '😀'.repeat(255) } })).status).toBe(200);
    expect((await put(admin, 'not-a-uuid', { claims: {} })).status).toBe(400);
    expect(valuesOf(await read(account.id)).website).toBeNull();
  });

  it('answers 404 for a deleted account and drops its values', async () => {
    const account = await createAccount(admin);
    expect((await put(admin, account.id, { claims: { nickname: 'Gone soon' } })).status).toBe(200);
    expect((await admin.raw('DELETE', `/api/v1/account/${account.id}`)).status).toBe(200);
    const refused = await put(admin, account.id, { claims: { nickname: 'Ghost' } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('account.not_found');
    expect((await admin.get(`/api/v2/account/${account.id}/claims`)).status).toBe(404);
    expect((await admin.get(`/api/v1/account/${account.id}/claims`)).body.error.code).toBe('account.not_found');
    expect(await db.selectFrom('account_sso_claims_v1').selectAll().where('account_id', '=', account.id).execute()).toEqual([]);
    expect(await releasedSsoClaims(db, account.id, ['profile'])).toEqual({});
  });

  it('serves tRPC with the same rules', async () => {
    const account = await createAccount(admin);
    const token = await signIn(app.url);
    const trpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    const saved = await trpc.ssoClaims.set.mutate({ id: account.id, claims: { zoneinfo: 'Europe/Berlin' } });
    expect(saved.message).toBe('Single sign-on claims saved');
    expect(valuesOf(await trpc.ssoClaims.ofAccount.query({ id: account.id })).zoneinfo).toBe('Europe/Berlin');
    const refused = (await trpc.ssoClaims.set.mutate({ id: account.id, claims: { unknown_claim: 'x' } }).catch((error: unknown) => error)) as TRPCClientError<AppRouter>;
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data?.httpStatus).toBe(400);
    expect(refused.message).toContain('unknown_claim');
  });

  it('lets an organization administrator read and write only the accounts of its organizations', async () => {
    const organization = async (title: string) => {
      const created = await admin.post('/api/v2/organization', { title, description: 'claims' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.data.id as string;
    };
    const a = await organization(`Claims A ${tag}`);
    const b = await organization(`Claims B ${tag}`);
    const permissions: string[] = [];
    for (const slug of ['accounts:read', 'accounts:write']) {
      const permission = await admin.post('/api/v2/permission', { organization_id: a, title: `${slug} ${tag}`, slug, description: '' });
      expect(permission.status, JSON.stringify(permission.body)).toBeLessThan(300);
      permissions.push(permission.body.data.id);
    }
    const role = await admin.post(`/api/v2/organization/${a}/role`, { title: `Accounts ${tag}`, slug: `accounts-${tag}`, description: '', permissions });
    expect(role.status, JSON.stringify(role.body)).toBeLessThan(300);
    const orgAdminAccount = await createAccount(admin, { organization: a });
    expect((await admin.post(`/api/v2/organization/${a}/account-role`, { account_id: orgAdminAccount.id, role_id: role.body.data.id })).status).toBe(200);
    const orgAdmin = http(app.url, await signIn(app.url, { username: orgAdminAccount.username, password: orgAdminAccount.password }));
    const inA = await createAccount(admin, { organization: a });
    const inB = await createAccount(admin, { organization: b });

    expect((await orgAdmin.get(`/api/v2/account/${inA.id}/claims`)).status).toBe(200);
    expect((await put(orgAdmin, inA.id, { claims: { nickname: 'Mine' } })).status).toBe(200);
    // out of reach is 'not found', so nothing leaks about accounts elsewhere (docs/adr/0011)
    const hidden = await orgAdmin.get(`/api/v1/account/${inB.id}/claims`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('account.not_found');
    expect((await put(orgAdmin, inB.id, { claims: { nickname: 'Not mine' } })).status).toBe(404);
    expect(valuesOf(await read(inB.id)).nickname).toBeNull();

    const plainAccount = await createAccount(admin);
    const plain = http(app.url, await signIn(app.url, { username: plainAccount.username, password: plainAccount.password }));
    expect((await plain.get(`/api/v2/account/${inA.id}/claims`)).status).toBe(403);
    expect((await put(plain, inA.id, { claims: { nickname: 'Nope' } })).status).toBe(403);
  });
});
