import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, http, newAccount, signIn, startTestApp, storageKinds, type TestApp, createAccount } from '../../../test/test-app';

/** a 1x1 PNG */
const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngOfSize = (bytes: number) => `data:image/png;base64,${Buffer.concat([PNG_MAGIC, Buffer.alloc(bytes - PNG_MAGIC.length, 7)]).toString('base64')}`;

const profileOf = (account: { first_name: string; last_name: string; email: string }, changes: Record<string, unknown> = {}) => ({
  first_name: account.first_name,
  last_name: account.last_name,
  email: account.email,
  middle_name: 'Augusta',
  nickname: 'Ada',
  birth_date: '1815-12-10',
  gender: 'female',
  time_zone: 'Europe/London',
  locale: 'en',
  website: 'https://ada.example.com',
  profile: 'Mathematician',
  ...changes,
});

describe.each(storageKinds())('account profile over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;

  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });

  afterAll(async () => {
    await app?.destroy();
  });

  const create = (overrides: Record<string, unknown> = {}) => createAccount(admin, overrides);
  const put = (path: string, body: unknown) => admin.raw('PUT', path, body);
  const patch = (path: string, body: unknown) => admin.raw('PATCH', path, body);
  const del = (path: string) => admin.raw('DELETE', path);

  it('updates the profile and reads it back on v1, v2 and unprefixed', async () => {
    for (const [prefix, unwrap] of [
      ['/api/v1', (b: { data?: unknown }) => b],
      ['/api/v2', (b: { data?: { account?: unknown } }) => b.data?.account],
      ['/api', (b: { data?: { account?: unknown } }) => b.data?.account],
    ] as const) {
      const account = await create();
      const body = profileOf(account, { first_name: 'Augusta', address: '12 St James Square', additional: { telephone: [{ value: '+44 20 1234', type: 'home' }] } });
      const updated = await put(`${prefix}/account/${account.id}`, body);
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.headers.get('x-rollcall-consistency')).toBe('consistent');
      const read = unwrap((await admin.get(`${prefix}/account/${account.id}`)).body);
      expect(read).toEqual(unwrap(updated.body));
      expect(read).toMatchObject({
        first_name: 'Augusta',
        email: account.email,
        additional: {
          middle_name: 'Augusta',
          nickname: 'Ada',
          birth_date: '1815-12-10',
          gender: 'female',
          time_zone: 'Europe/London',
          locale: 'en',
          website: 'https://ada.example.com',
          profile: 'Mathematician',
          address: '12 St James Square',
          telephone: [{ value: '+44 20 1234', type: 'home' }],
          email: [{ value: account.email, type: 'work' }],
        },
      });
      // the list and its search see the new name
      const listed = (await admin.get(`/api/v1/accounts?search=${encodeURIComponent(`augusta ${account.last_name}`.toLowerCase().split(' ')[0])}&limit=100`)).body.data;
      expect(listed.map((a: { id: string }) => a.id)).toContain(account.id);
      // empty text clears a field; lists left out keep their entries
      const cleared = await put(`${prefix}/account/${account.id}`, profileOf(account, { nickname: '', gender: null }));
      expect(unwrap(cleared.body)).toMatchObject({ additional: { nickname: null, gender: null, telephone: [{ value: '+44 20 1234', type: 'home' }] } });
    }
  });

  it('refuses each broken rule with a 400 under its field, and changes nothing', async () => {
    const account = await create();
    await put(`/api/v1/account/${account.id}`, profileOf(account));
    const before = (await admin.get(`/api/v1/account/${account.id}`)).body;
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['an empty first name', { first_name: ' ' }, 'first_name'],
      ['a last name of 256 characters', { last_name: 'x'.repeat(256) }, 'last_name'],
      ['a malformed e-mail', { email: 'ada-at-example' }, 'email'],
      ['a middle name of 256 characters', { middle_name: 'm'.repeat(256) }, 'middle_name'],
      ['a birth date that is no day', { birth_date: '2023-02-29' }, 'birth_date'],
      ['a birth date in the future', { birth_date: tomorrow }, 'birth_date'],
      ['a birth date as day.month.year', { birth_date: '10.12.1815' }, 'birth_date'],
      ['an unknown gender', { gender: 'other' }, 'gender'],
      ['an unknown time zone', { time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
      ['an unknown locale', { locale: 'fr' }, 'locale'],
      ['a website that is not http(s)', { website: 'javascript:alert(1)' }, 'website'],
      ['a profile of 256 characters', { profile: 'p'.repeat(256) }, 'profile'],
      ['a first name that is not text', { first_name: 42 }, 'first_name'],
      ['an unknown field', { is_admin: true }, '_'],
    ];
    for (const [label, changes, field] of cases) {
      const response = await put(`/api/v2/account/${account.id}`, profileOf(account, changes));
      expect(response.status, label).toBe(400);
      expect(response.body.error.fields?.[field], `${label}: ${JSON.stringify(response.body)}`).toBeDefined();
    }
    const many = await put(`/api/v1/account/${account.id}`, profileOf(account, { gender: 'x', locale: 'x', time_zone: 'Nowhere/Land' }));
    expect(Object.keys(many.body.error.fields).sort()).toEqual(['gender', 'locale', 'time_zone']);
    expect((await admin.get(`/api/v1/account/${account.id}`)).body).toEqual(before);
    expect((await put('/api/v1/account/6a2f41a0-0000-4000-8000-000000000000', profileOf(account))).status).toBe(404);
    expect((await put('/api/v1/account/not-a-uuid', profileOf(account))).body.error.fields.id).toBeDefined();
  });

  it('moves the e-mail reservation: the old address is free at once, a taken one answers 409', async () => {
    const ada = await create();
    const grace = await create();
    const taken = await put(`/api/v1/account/${ada.id}`, profileOf(ada, { email: grace.email.toUpperCase() }));
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'account.email_taken', fields: { email: [expect.any(String)] } });
    const moved = `moved.${ada.email}`;
    expect((await put(`/api/v1/account/${ada.id}`, profileOf(ada, { email: moved }))).status).toBe(200);
    const read = (await admin.get(`/api/v1/account/${ada.id}`)).body;
    expect(read.email).toBe(moved);
    expect(read.additional.email).toEqual([{ value: moved, type: 'work' }]);
    // the old address is free for a new account; the new one is not
    expect((await admin.post('/api/v1/account', newAccount({ email: ada.email }))).status).toBe(201);
    expect((await admin.post('/api/v1/account', newAccount({ email: moved }))).status).toBe(409);
    // a change of case of its own address is no conflict
    expect((await put(`/api/v1/account/${ada.id}`, profileOf(ada, { email: moved.toUpperCase() }))).status).toBe(200);
  });

  it('accepts a PNG picture and removes it; refuses other types, wrong bytes and large pictures', async () => {
    const account = await create();
    const set = await patch(`/api/v2/account/${account.id}/profile-picture`, { picture: TINY_PNG });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ data: { id: account.id } });
    expect((await admin.get(`/api/v1/account/${account.id}`)).body.additional.profilePicture).toBe(TINY_PNG);
    const refused: Array<[string, unknown, number]> = [
      ['a PNG type over GIF bytes', `data:image/png;base64,${Buffer.from('GIF89a........').toString('base64')}`, 400],
      ['an SVG', `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`, 400],
      ['not a data URL', 'https://example.com/ada.png', 400],
      ['a picture over 512 KB', pngOfSize(512 * 1024 + 1), 400],
      ['a body over 1 MB', pngOfSize(900 * 1024), 413],
    ];
    for (const [label, picture, status] of refused) {
      const response = await patch(`/api/v1/account/${account.id}/profile-picture`, { picture });
      expect(response.status, label).toBe(status);
      if (status === 400) expect(response.body.error.fields.picture, label).toBeDefined();
    }
    expect((await patch(`/api/v1/account/${account.id}/profile-picture`, { picture: pngOfSize(512 * 1024) })).status).toBe(200);
    expect((await patch(`/api/v1/account/${account.id}/profile-picture`, { picture: null })).status).toBe(200);
    expect((await admin.get(`/api/v1/account/${account.id}`)).body.additional.profilePicture).toBeNull();
    // a profile update keeps the picture
    await patch(`/api/v1/account/${account.id}/profile-picture`, { picture: TINY_PNG });
    await put(`/api/v1/account/${account.id}`, profileOf(account));
    expect((await admin.get(`/api/v1/account/${account.id}`)).body.additional.profilePicture).toBe(TINY_PNG);
  });

  it('deletes an account: gone from lists, its session refused, its username free; the protected admin is refused', async () => {
    const total = async () => (await admin.get('/api/v1/accounts?limit=1')).body.total as number;
    const account = await create();
    const session = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    expect((await session.get('/api/v1/account/current')).status).toBe(200);
    const before = await total();
    const deleted = await del(`/api/v2/account/${account.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { message: `Account ${account.first_name} ${account.last_name} deleted` } });
    expect(await total()).toBe(before - 1);
    expect((await admin.get(`/api/v1/accounts?search=${account.username}`)).body.total).toBe(0);
    expect((await admin.get(`/api/v1/account/${account.id}`)).status).toBe(404);
    expect((await session.get('/api/v1/account/current')).status).toBe(401);
    expect((await del(`/api/v1/account/${account.id}`)).status).toBe(404);
    expect((await admin.post('/api/v1/account', newAccount({ username: account.username, email: account.email }))).status).toBe(201);

    const adminId = (await admin.get('/api/v1/account/current')).body.id as string;
    const refused = await del(`/api/v1/account/${adminId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('account.protected');
    expect((await admin.get(`/api/v1/accounts?search=${ADMIN.username}`)).body.total).toBeGreaterThan(0);
  });

  it('finds accounts by username prefix in all three forms', async () => {
    const tag = `fz${Date.now().toString(36)}`;
    const alice = await create({ username: `${tag}.alice` });
    await create({ username: `${tag}.albert` });
    await create({ username: `x${tag}.alice` });
    const expected = [`${tag}.albert`, `${tag}.alice`];
    const usernames = (rows: Array<{ username: string }>) => rows.map((r) => r.username);
    expect(usernames((await admin.get(`/api/v1/account/find/username?username=${tag.toUpperCase()}.AL`)).body)).toEqual(expected);
    expect(usernames((await admin.get(`/api/v2/account/username/${tag}.al`)).body.data)).toEqual(expected);
    expect(usernames((await admin.get(`/api/account/find?username=${tag}.al`)).body.data)).toEqual(expected);
    const [first] = (await admin.get(`/api/v1/account/find?username=${tag}.alice`)).body;
    expect(first).toEqual({ id: alice.id, username: alice.username, username_readable: alice.username, first_name: alice.first_name, last_name: alice.last_name });
    expect((await admin.get('/api/v1/account/find?username=')).body).toEqual([]);
    expect((await admin.get(`/api/v1/account/find?username=${encodeURIComponent('%')}`)).body).toEqual([]);
    for (let i = 0; i < 21; i += 1) await create({ username: `${tag}.many${i}` });
    expect((await admin.get(`/api/v1/account/find?username=${tag}.many`)).body).toHaveLength(20);
  });

  it('lists the supported time zones', async () => {
    const v1 = await admin.get('/api/v1/server/supported-time-zones');
    expect(v1.body).toContain('Europe/Berlin');
    expect(v1.body).toContain('UTC');
    expect((await admin.get('/api/v2/server/supported-time-zones')).body.data).toEqual(v1.body);
  });
});
