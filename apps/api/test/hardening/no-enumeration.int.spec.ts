import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../test-app';
import { median } from './hardening-helpers';

/**
 * No enumeration (docs/security.md, "6. No enumeration"): an unknown username, a wrong password, a
 * locked, a disabled and an expired account get the same status and body at sign-in, on REST v1, v2
 * and tRPC; and the time they take is alike. Timing is a statistical property: SAMPLES sign-ins of
 * each kind are interleaved (so load on the machine falls on all kinds alike), and the medians must
 * lie within a factor of MAX_RATIO of the wrong-password median. The app runs with the production
 * argon2id parameters here (m=19 MiB, t=2), so the hash dominates as it does in production.
 */
const SAMPLES = Number(process.env.ROLLCALL_TIMING_SAMPLES ?? 200);
const MAX_RATIO = 2;

type Kind = 'unknown' | 'wrong password' | 'locked' | 'disabled' | 'expired';

describe('sign-in does not tell accounts apart (sqlite)', () => {
  let app: TestApp;
  const credentials = {} as Record<Kind, { username: string; password: string }>;

  beforeAll(async () => {
    // hundreds of failed sign-ins from one address compare the answers' timing, not the sign-in throttle's
    app = await startTestApp('sqlite', { ROLLCALL_ARGON2_MEMORY_KIB: '19456', ROLLCALL_ARGON2_TIME_COST: '2', ROLLCALL_SIGNIN_USERNAME_FAILURES: '100000', ROLLCALL_SIGNIN_ADDRESS_FAILURES: '100000' });
    const admin = http(app.url, await signIn(app.url));
    const wrong = await createAccount(admin);
    credentials['wrong password'] = { username: wrong.username, password: 'not the password 42' };
    credentials.unknown = { username: `nobody.${Date.now().toString(36)}`, password: 'not the password 42' };

    // locked: a policy that locks after 2 failures for an hour; then even the right password is refused
    const policy = await admin.post('/api/v1/policy', { title: `Enumeration lockout ${Date.now()}`, min_length: 8, min_strength: 0, lockout: 2, lockout_duration: 3600 });
    const locked = await createAccount(admin, { policy_id: policy.body.id, policy: true });
    for (let i = 0; i < 2; i += 1) await http(app.url).post('/api/v1/admin/authenticate', { username: locked.username, password: 'wrong wrong wrong' });
    expect((await admin.get(`/api/v1/account/${locked.id}/auth`)).body.locked_until).toEqual(expect.any(String));
    credentials.locked = { username: locked.username, password: locked.password };

    const disabled = await createAccount(admin);
    expect((await admin.raw('PUT', `/api/v1/account/${disabled.id}/auth`, { status_id: 2 })).status).toBe(200);
    credentials.disabled = { username: disabled.username, password: disabled.password };

    const expired = await createAccount(admin, { expiry: true, expires_at: '2001-01-01' });
    credentials.expired = { username: expired.username, password: expired.password };
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
  });

  it('answers every kind with the same status and body on REST v1, v2 and tRPC', async () => {
    for (const [path, read] of [
      ['/api/v1/admin/authenticate', (body: { error: unknown }) => body],
      ['/api/v2/admin/authenticate', (body: { error: unknown }) => body],
      ['/trpc/auth.signIn', (body: { error: { data: { apiError: unknown; httpStatus: number } } }) => [body.error.data.apiError, body.error.data.httpStatus]],
    ] as const) {
      const answers = new Map<Kind, string>();
      for (const kind of Object.keys(credentials) as Kind[]) {
        const answer = await http(app.url).post(path, credentials[kind]);
        answers.set(kind, JSON.stringify([answer.status, (read as (body: unknown) => unknown)(answer.body), answer.headers.get('set-cookie')]));
      }
      expect(new Set(answers.values()), `${path}: ${JSON.stringify(Object.fromEntries(answers))}`).toHaveProperty('size', 1);
      expect(answers.get('unknown')).toContain('auth.invalid_credentials');
      expect(answers.get('unknown')).toMatch(/^\[401,/);
    }
  });

  it(`takes alike long for every kind (medians of ${SAMPLES} interleaved samples within a factor of ${MAX_RATIO})`, async () => {
    const kinds = Object.keys(credentials) as Kind[];
    const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    // one warm-up round: the first dummy hash is computed on first use
    for (const kind of kinds) await http(app.url).post('/api/v1/admin/authenticate', credentials[kind]);
    for (let round = 0; round < SAMPLES; round += 1) {
      // a shuffled order each round, so no kind always follows another
      for (const kind of [...kinds].sort(() => Math.random() - 0.5)) {
        const started = process.hrtime.bigint();
        const answer = await http(app.url).post('/api/v1/admin/authenticate', credentials[kind]);
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(answer.status).toBe(401);
      }
    }
    const medians = Object.fromEntries(kinds.map((kind) => [kind, median(times[kind])])) as Record<Kind, number>;
    const reference = medians['wrong password'];
    console.log(`sign-in medians over ${SAMPLES} samples each (ms): ${kinds.map((kind) => `${kind} ${medians[kind].toFixed(1)} (x${(medians[kind] / reference).toFixed(2)})`).join(', ')}`);
    for (const kind of kinds) {
      expect(medians[kind] / reference, `${kind} against a wrong password`).toBeLessThan(MAX_RATIO);
      expect(medians[kind] / reference, `${kind} against a wrong password`).toBeGreaterThan(1 / MAX_RATIO);
    }
  }, 240_000);
});

/**
 * Outside looks like nothing (docs/adr/0011, 'Delegation stays inside the subtree'): what lies
 * outside an administrator's subtree answers exactly as what does not exist: a member of the sibling
 * organization B and an id nobody has get the same status, code and message from A's administrator,
 * on every route that names an account beside an organization, on REST v1, v2, /api and tRPC.
 */
type Answer = Awaited<ReturnType<ReturnType<typeof http>['get']>>;

describe('an administrator cannot tell accounts outside its subtree from accounts that do not exist (sqlite)', () => {
  let app: TestApp;
  let adminA: ReturnType<typeof http>;
  const fixture = { a: '', role: '', elsewhere: '', nobody: '' };

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    const admin = http(app.url, await signIn(app.url));
    const stamp = Date.now().toString(36);
    const created = async (answer: Promise<{ status: number; body: { data: { id: string } } }>) => {
      const { status, body } = await answer;
      if (status >= 300) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
      return body.data.id;
    };
    fixture.a = await created(admin.post('/api/v2/organization', { title: `Enumeration A ${stamp}`, description: '' }));
    const b = await created(admin.post('/api/v2/organization', { title: `Enumeration B ${stamp}`, description: '' }));
    const permissions = [];
    for (const slug of ['accounts:read', 'organizations:read', 'organizations:write']) {
      permissions.push(await created(admin.post('/api/v2/permission', { organization_id: fixture.a, title: `${slug} ${stamp}`, slug, description: '' })));
    }
    fixture.role = await created(admin.post(`/api/v2/organization/${fixture.a}/role`, { title: `Administrator ${stamp}`, slug: 'administrator-a', description: '', permissions }));
    const administrator = await createAccount(admin, { organization: fixture.a });
    expect((await admin.post(`/api/v2/organization/${fixture.a}/account-role`, { account_id: administrator.id, role_id: fixture.role })).status).toBe(200);
    adminA = http(app.url, await signIn(app.url, { username: administrator.username, password: administrator.password }));
    fixture.elsewhere = (await createAccount(admin, { organization: b })).id;
    fixture.nobody = randomUUID();
  }, 60_000);
  afterAll(async () => {
    await app?.destroy();
  });

  it('answers for a member of B exactly as for an id nobody has', async () => {
    const { a, role } = fixture;
    const routes: Array<[name: string, call: (account: string) => Promise<Answer>, read: 'rest' | 'trpc']> = [];
    for (const prefix of ['/api/v1', '/api/v2', '/api']) {
      routes.push(
        [`${prefix} remove a member`, (account) => adminA.raw('DELETE', `${prefix}/organization/${a}/member/${account}`), 'rest'],
        [`${prefix} leave an organization`, (account) => adminA.raw('DELETE', `${prefix}/account/${account}/leave-organization/${a}`), 'rest'],
        [`${prefix} a member's roles`, (account) => adminA.get(`${prefix}/organization/${a}/member/${account}/roles`), 'rest'],
        [`${prefix} grant a role`, (account) => adminA.post(`${prefix}/organization/${a}/account-role`, { account_id: account, role_id: role }), 'rest'],
        [`${prefix} take a role`, (account) => adminA.raw('DELETE', `${prefix}/organization/${a}/account-role?account_id=${account}&role_id=${role}`), 'rest'],
        [`${prefix} add a member`, (account) => adminA.post(`${prefix}/organization/${a}/member`, { account_id: account }), 'rest'],
        [`${prefix} an account's organizations`, (account) => adminA.get(`${prefix}/account/${account}/organizations`), 'rest'],
        [`${prefix} read an account`, (account) => adminA.get(`${prefix}/account/${account}`), 'rest'],
      );
    }
    routes.push(
      ['tRPC removeMember', (account) => adminA.post('/trpc/organizations.removeMember', { id: a, account_id: account }), 'trpc'],
      ['tRPC memberRoles', (account) => adminA.get(`/trpc/organizations.memberRoles?input=${encodeURIComponent(JSON.stringify({ id: a, account_id: account }))}`), 'trpc'],
      ['tRPC setMemberRole', (account) => adminA.post('/trpc/organizations.setMemberRole', { id: a, account_id: account, role_id: role, associated: true }), 'trpc'],
      ['tRPC addMember', (account) => adminA.post('/trpc/organizations.addMember', { id: a, account_id: account }), 'trpc'],
    );
    const differences: string[] = [];
    for (const [name, call, read] of routes) {
      const answerOf = async (account: string) => {
        const { status, body } = await call(account);
        const error = read === 'rest' ? body?.error : body?.error?.data?.apiError;
        return JSON.stringify([status, error?.code, error?.message]);
      };
      const [elsewhere, nobody] = [await answerOf(fixture.elsewhere), await answerOf(fixture.nobody)];
      if (elsewhere !== nobody) differences.push(`${name}: a member of B ${elsewhere}, nobody ${nobody}`);
      else if (!elsewhere.startsWith('[404,')) differences.push(`${name}: ${elsewhere}`);
    }
    expect(differences).toEqual([]);
  });
});
