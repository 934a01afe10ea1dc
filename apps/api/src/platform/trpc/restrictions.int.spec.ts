import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proceduresOf } from '../../../test/hardening/hardening-helpers';
import { createAccount, http, signIn, startTestApp, type TestApp } from '../../../test/test-app';

/**
 * A restricted session gets over tRPC exactly what it gets over REST (docs/adr/0025; R24 finding 5):
 * every procedure is walked with a session that must change its password and with one that must
 * enrol a second factor, and each answers the restriction's 403 unless its REST twin carries the
 * matching @AllowedWhile… decorator. A new session-only procedure is refused under both until it says
 * otherwise (sessionProcedureAllowedWhile), so it cannot slip past the rule REST enforces.
 */

/** REST: logout and account/current (@AllowedWhilePasswordChangeRequired), me/password and account/password/change */
const OPEN_WHILE_PASSWORD_CHANGE_REQUIRED = ['auth.signOut', 'auth.restrictions', 'auth.me', 'auth.changePassword', 'me.changePassword'];
/** REST: logout, account/current and the enrolment routes (@AllowedWhileSecondFactorEnrolmentRequired) */
const OPEN_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED = [
  'auth.signOut',
  'auth.restrictions',
  'auth.me',
  'secondFactors.mine',
  'secondFactors.startTotp',
  'secondFactors.confirmTotp',
  'secondFactors.passkeyRegistrationOptions',
  'secondFactors.registerPasskey',
];

describe('tRPC procedures under a session restriction, as their REST twins', () => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp();
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const call = (client: ReturnType<typeof http>, name: string, type: string) => (type === 'query' ? client.get(`/trpc/${name}`) : client.post(`/trpc/${name}`, {}));
  const codeOf = (answer: { body: { error?: { data?: { apiError?: { code?: string } } } } }) => answer.body?.error?.data?.apiError?.code ?? null;

  it('refuses every procedure but its REST twin\'s open ones to a session that must change its password, and to one that must enrol a second factor', async () => {
    // the password first: a reset that requires a change at the next sign-in
    const changing = await createAccount(admin);
    expect((await admin.raw('PATCH', `/api/v2/account/${changing.id}/password/next-login`)).status).toBe(200);
    const signedIn = await http(app.url).post('/api/v1/admin/authenticate', { username: changing.username, password: changing.password });
    expect(signedIn.body.password_change_required).toBe(true);
    const passwordChange = http(app.url, signedIn.body.token as string);
    // a policy that requires a second factor of everyone, none enrolled
    const policy = await admin.post('/api/v2/policy', { title: `Restrictions walk ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'all' });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const enrolling = await createAccount(admin, { policy: true, policy_id: policy.body.data.id });
    const enrolSignIn = await http(app.url).post('/api/v2/admin/authenticate', { username: enrolling.username, password: enrolling.password });
    expect(enrolSignIn.body.data.second_factor_enrolment_required).toBe(true);
    const enrolment = http(app.url, enrolSignIn.body.data.token as string);

    const anonymous = http(app.url);
    const walked: string[] = [];
    const wrong: string[] = [];
    // signing out ends the session: walked last
    const procedures = proceduresOf(app)
      .filter((procedure) => procedure.type !== 'subscription')
      .sort((a, b) => Number(a.name === 'auth.signOut') - Number(b.name === 'auth.signOut'));
    for (const { name, type } of procedures) {
      // public procedures (sign-in, activation) answer without a session: no restriction applies to them
      if ((await call(anonymous, name, type)).status !== 401) continue;
      walked.push(name);
      const cases: Array<[ReturnType<typeof http>, string[], string]> = [
        [passwordChange, OPEN_WHILE_PASSWORD_CHANGE_REQUIRED, 'auth.password_change_required'],
        [enrolment, OPEN_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED, 'auth.second_factor_enrolment_required'],
      ];
      for (const [client, open, restriction] of cases) {
        const answer = await call(client, name, type);
        const refused = answer.status === 403 && codeOf(answer) === restriction;
        if (refused === open.includes(name)) wrong.push(`${name} under ${restriction}: ${answer.status} ${codeOf(answer) ?? ''}`);
      }
    }
    expect(walked.length).toBeGreaterThan(50);
    for (const name of [...OPEN_WHILE_PASSWORD_CHANGE_REQUIRED, ...OPEN_WHILE_SECOND_FACTOR_ENROLMENT_REQUIRED]) expect(walked, name).toContain(name);
    expect(wrong).toEqual([]);
  });
});
