import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, newAccount, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

let counter = 0;
/** a valid policy body with a title of its own */
function newPolicy(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return { title: `Staff ${Date.now().toString(36)}${counter}`, description: 'Office staff', min_length: 12, min_strength: 3, lockout: 5, lockout_duration: 900, ...overrides };
}

const PREFIXES = [
  ['/api/v1', (body: { data?: unknown }) => body],
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

describe.each(storageKinds())('password policies over REST (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const put = (path: string, body: unknown) => admin.raw('PUT', path, body);
  const del = (path: string) => admin.raw('DELETE', path);
  const policies = async () => (await admin.get('/api/v1/policies')).body as Array<Record<string, unknown>>;

  it('requires a second factor of all or of administrators; an update without the field keeps it (docs/adr/0025)', async () => {
    const created = await admin.post('/api/v2/policy', { ...newPolicy(), second_factor: 'all' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const policy = (created.body as { data: { id: string; second_factor: string } }).data;
    expect(policy.second_factor).toBe('all');
    // the spec's form knows nothing of it: leaving it out keeps the rule
    const kept = await put(`/api/v1/policy/${policy.id}`, { ...newPolicy(), title: `${policy.id} kept` });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((kept.body as { second_factor: string }).second_factor).toBe('all');
    const changed = await put(`/api/v1/policy/${policy.id}`, { ...newPolicy(), second_factor: 'administrators' });
    expect((changed.body as { second_factor: string }).second_factor).toBe('administrators');
    const bad = await put(`/api/v1/policy/${policy.id}`, { ...newPolicy(), second_factor: 'sometimes' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { fields: Record<string, string[]> } }).error.fields.second_factor).toEqual(['Second factor must be one of off, all, administrators']);
    expect((await policies()).find((p) => p.id === policy.id)?.second_factor).toBe('administrators');
  });

  it('creates, lists, updates and deletes on v1, v2 and unprefixed, reading its own writes', async () => {
    for (const [prefix, unwrap] of PREFIXES) {
      const body = { ...newPolicy(), history: 5, max_age: 90 };
      const created = await admin.post(`${prefix}/policy`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const policy = unwrap(created.body) as Record<string, unknown>;
      expect(policy).toEqual({
        id: expect.any(String),
        title: body.title,
        description: 'Office staff',
        min_length: 12,
        min_strength: 3,
        history: 5,
        max_age: 90,
        lockout: 5,
        lockout_duration: 900,
        created_at: expect.any(String),
        updated_at: policy.created_at,
        second_factor: 'off',
        passkey_sign_in: false,
        num_accounts: 0,
      });
      const list = await admin.get(`${prefix}/policies`);
      expect(list.status).toBe(200);
      expect(unwrap(list.body)).toContainEqual(policy);

      // history and aging switched off: the fields are left out
      const { history: _history, max_age: _maxAge, ...switchedOff } = body;
      const changed = { ...switchedOff, title: `${body.title} (strict)`, min_length: 14 };
      const updated = await put(`${prefix}/policy/${policy.id}`, changed);
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(unwrap(updated.body)).toMatchObject({ id: policy.id, title: changed.title, min_length: 14, history: null, max_age: null, created_at: policy.created_at });
      expect((await policies()).find((p) => p.id === policy.id)).toMatchObject({ title: changed.title, history: null });

      const deleted = await del(`${prefix}/policy/${policy.id}`);
      expect(deleted.status).toBe(200);
      expect(unwrap(deleted.body)).toEqual({ message: `Policy "${changed.title}" deleted` });
      expect((await policies()).map((p) => p.id)).not.toContain(policy.id);
      expect((await del(`${prefix}/policy/${policy.id}`)).status).toBe(404);
      expect((await put(`${prefix}/policy/${policy.id}`, changed)).status).toBe(404);
    }
  });

  it('keeps the default policy, created on first start, with the spec defaults', async () => {
    expect((await policies())[0]).toMatchObject({ title: 'Default policy', min_length: 6, min_strength: 0, history: null, max_age: null, lockout: 4, lockout_duration: 3600 });
  });

  it('accepts numbers sent as text, as form-based clients do', async () => {
    const created = await admin.post('/api/v1/policy', newPolicy({ min_length: '8', lockout: '0', history: '2' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ min_length: 8, lockout: 0, history: 2 });
  });

  it('refuses every broken rule with a 400 naming the field, and writes nothing', async () => {
    const before = await policies();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no title', { title: '' }, 'title'],
      ['a blank title', { title: '   ' }, 'title'],
      ['a title of 256 characters', { title: 'x'.repeat(256) }, 'title'],
      ['a title that is not text', { title: 42 }, 'title'],
      ['a description of 256 characters', { description: 'd'.repeat(256) }, 'description'],
      ['a minimum length of 0', { min_length: 0 }, 'min_length'],
      ['a minimum length of 256', { min_length: 256 }, 'min_length'],
      ['no minimum length', { min_length: undefined }, 'min_length'],
      ['a strength of 5', { min_strength: 5 }, 'min_strength'],
      ['a fractional strength', { min_strength: 1.5 }, 'min_strength'],
      ['a strength that is not a number', { min_strength: 'strong' }, 'min_strength'],
      ['a history of 0', { history: 0 }, 'history'],
      ['a history of 25', { history: 25 }, 'history'],
      ['an age of 0 days', { max_age: 0 }, 'password_age'],
      ['an age of 3651 days', { max_age: 3651 }, 'password_age'],
      ['an age that is not a number', { max_age: true }, 'password_age'],
      ['a lockout of 101 attempts', { lockout: 101 }, 'lockout'],
      ['a negative lockout', { lockout: -1 }, 'lockout'],
      ['a lockout duration of 0 seconds', { lockout_duration: 0 }, 'lockout_duration'],
      ['a lockout duration over a day', { lockout_duration: 86401 }, 'lockout_duration'],
      ['an unknown field', { password_age: 90 }, '_'],
    ];
    for (const [prefix] of PREFIXES) {
      for (const [label, changes, field] of cases) {
        const response = await admin.post(`${prefix}/policy`, newPolicy(changes));
        expect(response.status, `${prefix} ${label}`).toBe(400);
        expect(response.body.error.fields?.[field], `${prefix} ${label}: ${JSON.stringify(response.body)}`).toBeDefined();
      }
    }
    // the same rules on update
    const { id } = (await admin.post('/api/v1/policy', newPolicy())).body;
    const afterCreate = await policies();
    for (const [label, changes, field] of cases) {
      const response = await put(`/api/v2/policy/${id}`, newPolicy(changes));
      expect(response.status, label).toBe(400);
      expect(response.body.error.fields?.[field], label).toBeDefined();
    }
    // every broken rule at once, each under its field
    const many = await admin.post('/api/v1/policy', newPolicy({ title: '', min_strength: 9, lockout_duration: 0 }));
    expect(Object.keys(many.body.error.fields).sort()).toEqual(['lockout_duration', 'min_strength', 'title']);
    expect((await policies()).length).toBe(before.length + 1);
    expect(await policies()).toEqual(afterCreate);
    const malformed = await put('/api/v1/policy/not-a-uuid', newPolicy());
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields.id).toBeDefined();
    expect((await del('/api/v1/policy/6a2f41a0-0000-4000-8000-000000000000')).body.error.code).toBe('policy.not_found');
  });

  it('keeps titles unique whatever their case, frees a title on rename and on delete', async () => {
    const first = newPolicy();
    const { id } = (await admin.post('/api/v1/policy', first)).body;
    const before = await policies();
    const taken = await admin.post('/api/v2/policy', newPolicy({ title: ` ${first.title.toUpperCase()} ` }));
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'policy.title_taken', fields: { title: [expect.any(String)] } });
    expect(await policies()).toEqual(before);

    // renaming onto another policy's title is refused too; a change of case of its own title is not
    const other = (await admin.post('/api/v1/policy', newPolicy())).body;
    const clash = await put(`/api/v1/policy/${other.id}`, newPolicy({ title: first.title }));
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields.title).toBeDefined();
    expect((await put(`/api/v1/policy/${id}`, { ...first, title: first.title.toUpperCase() })).status).toBe(200);

    // rename frees the old title; delete frees the new one
    const renamed = `${first.title} renamed`;
    expect((await put(`/api/v1/policy/${id}`, { ...first, title: renamed })).status).toBe(200);
    expect((await admin.post('/api/v1/policy', newPolicy({ title: first.title }))).status).toBe(201);
    expect((await del(`/api/v1/policy/${id}`)).status).toBe(200);
    expect((await admin.post('/api/v1/policy', newPolicy({ title: renamed }))).status).toBe(201);
  });

  it('lets exactly one of 10 parallel creations of one title through', async () => {
    const title = `Race ${Date.now().toString(36)}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => admin.post('/api/v1/policy', newPolicy({ title }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await policies()).filter((p) => p.title === title)).toHaveLength(1);
  });

  it('refuses to delete a policy that accounts use, naming how many', async () => {
    const policy = (await admin.post('/api/v1/policy', newPolicy({ min_length: 8, min_strength: 0 }))).body;
    for (let i = 0; i < 2; i += 1) expect((await admin.post('/api/v1/account', newAccount({ policy: true, policy_id: policy.id }))).status).toBe(201);
    expect((await policies()).find((p) => p.id === policy.id)?.num_accounts).toBe(2);
    const refused = await del(`/api/v2/policy/${policy.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('policy.in_use');
    expect(refused.body.error.message).toContain('2 accounts');
    expect((await policies()).map((p) => p.id)).toContain(policy.id);
  });

  describe('account creation under a policy', () => {
    let staff: { id: string; title: string };
    beforeAll(async () => {
      staff = (await admin.post('/api/v1/policy', newPolicy({ min_length: 12, min_strength: 3 }))).body;
    });
    const create = (password: string, overrides: Record<string, unknown> = {}) => admin.post('/api/v2/account', newAccount({ password, policy: true, policy_id: staff.id, ...overrides }));

    it('refuses a password shorter than the policy asks, naming the policy', async () => {
      const response = await create('abcd efgh1');
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'password.too_short', fields: { password: [`Password must be at least 12 characters under policy "${staff.title}"`] } });
    });

    it('refuses a weak password, with its score and the score needed', async () => {
      const response = await create('password1234');
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('password.too_weak');
      expect(response.body.error.fields.password[0]).toMatch(new RegExp(`^Password is too weak under policy "${staff.title}": strength [0-2] of 4 needed 3$`));
    });

    it("counts a password made of the person's own username as weak", async () => {
      // random-looking on its own (zxcvbn scores it 4), weak once the username is known
      const username = `xk7q.${Date.now().toString(36)}`;
      const response = await create(`${username}!`, { username });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('password.too_weak');
    });

    it('accepts a long, strong password and records the policy on the account', async () => {
      const response = await create('violet Kettle 47 orbit!');
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect((await admin.get(`/api/v1/account/${response.body.data.id}`)).body.policy_id).toBe(staff.id);
    });

    it('writes nothing when refused', async () => {
      const total = async () => (await admin.get('/api/v1/accounts?limit=1')).body.total as number;
      const before = await total();
      await create('short');
      await create('password1234');
      expect(await total()).toBe(before);
      expect((await policies()).find((p) => p.id === staff.id)?.num_accounts).toBe(1);
    });
  });

  it('keeps policies and their updates across a restart', async () => {
    const body = newPolicy();
    const { id } = (await admin.post('/api/v1/policy', body)).body;
    await put(`/api/v1/policy/${id}`, { ...body, description: 'changed', max_age: 30 });
    const before = await policies();
    await app.stop();
    app = await app.restart();
    admin = http(app.url, await signIn(app.url));
    expect(await policies()).toEqual(before);
  });
});
