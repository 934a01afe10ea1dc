import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

const codeAt = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: step * 30_000 });
const stepNow = () => Math.floor(Date.now() / 30_000);

/**
 * Review R24b F1 and F5 over the real app: a first second factor (an authenticator app or a
 * passkey, with the recovery codes that come with it) from a session that signed in more than five
 * minutes ago needs the current password (REST and tRPC), a wrong one counting as a failed
 * sign-in; and the first step's challenge opens one session at most, and none after the wrong code
 * that locked the account.
 */
describe.each(storageKinds())('second factors: re-authentication before a first factor, single-use challenges (%s)', (kind) => {
  let app: TestApp;
  let origin: string;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind, { ROLLCALL_TRUSTED_PROXIES: 'loopback' });
    origin = app.url.replace('127.0.0.1', 'localhost');
    admin = http(origin, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  let address = 0;
  /** each call from an address of its own (the throttle), from the console's origin */
  const browser = () => ({ origin, 'x-forwarded-for': `10.7.${Math.floor(address / 250)}.${(address++ % 250) + 1}` });
  const post = (client: ReturnType<typeof http>, path: string, body?: unknown) => client.post(path, body, browser());
  const trpc = (client: ReturnType<typeof http>, procedure: string, input?: unknown) => client.post(`/trpc/${procedure}`, input ?? '', { ...browser(), 'content-type': 'application/json' });
  const trpcError = (answer: { status: number; body: { error?: { data?: { apiError?: { code?: string; fields?: Record<string, string[]> } } } } }) => ({ status: answer.status, code: answer.body.error?.data?.apiError?.code, fields: answer.body.error?.data?.apiError?.fields });

  async function lockoutPolicy(attempts: number, seconds: number): Promise<string> {
    const created = await admin.post('/api/v2/policy', { title: `Reauth ${attempts} ${Date.now().toString(36)}${address++}`, min_length: 6, min_strength: 0, lockout: attempts, lockout_duration: seconds, passkey_sign_in: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  }

  /** an account without a second factor, its session, and a clock six minutes on (the session's sign-in is no longer recent) */
  async function staleSession(overrides: Record<string, unknown> = {}) {
    const account = await createAccount(admin, overrides);
    const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    return { account, session };
  }

  it('REST: a session that signed in more than five minutes ago enrols a first app or passkey only with the current password', async () => {
    const { account, session } = await staleSession();
    for (const path of ['/api/v2/second-factors/totp', '/api/v2/second-factors/passkeys/registration-options', '/api/second-factors/totp']) {
      for (const body of [undefined, {}]) {
        const refused = await post(session, path, body);
        expect(refused.status, `${path} ${JSON.stringify(refused.body)}`).toBe(400);
        expect(refused.body.error).toMatchObject({ code: 'second_factor.reauthentication_required', fields: { current_password: [expect.any(String)] } });
      }
    }
    const wrong = await post(session, '/api/v2/second-factors/passkeys/registration-options', { current_password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'password.current_wrong', fields: { current_password: ['Current password is wrong'] } });
    const notText = await post(session, '/api/v2/second-factors/totp', { current_password: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body.error.fields.current_password).toEqual(['Current password must be text']);

    // the right password: the stolen session's attack of R24b F1 needs it (a passkey, and its recovery codes)
    const options = await post(session, '/api/v2/second-factors/passkeys/registration-options', { current_password: account.password });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const registered = await post(session, '/api/v2/second-factors/passkeys', { name: 'Laptop', response: new SoftwareAuthenticator(origin).register(options.body.data.options) });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.data.recovery_codes).toHaveLength(10);

    // with a factor, the password is not enough: a current factor, as before (review R24 F3)
    const withFactor = await post(session, '/api/v2/second-factors/totp', { current_password: account.password });
    expect(withFactor.body.error).toMatchObject({ code: 'second_factor.confirmation_required' });
    const started = await post(session, '/api/v2/second-factors/totp', { code: registered.body.data.recovery_codes[0] });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
  });

  it('REST: the sign-in of the last five minutes needs no password (the enrolment a policy leads to), and an app enrols with the password later', async () => {
    const account = await createAccount(admin);
    const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    expect((await post(session, '/api/v2/second-factors/passkeys/registration-options')).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 4 * 60_000);
    expect((await post(session, '/api/v2/second-factors/totp')).status).toBe(201);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await post(session, '/api/v2/second-factors/totp')).body.error.code).toBe('second_factor.reauthentication_required');
    const started = await post(session, '/api/v2/second-factors/totp', { current_password: account.password });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const confirmed = await post(session, '/api/v2/second-factors/totp/confirm', { enrolment_id: started.body.data.enrolment_id, code: codeAt(started.body.data.secret, stepNow()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  });

  it('a wrong password counts as a failed sign-in: the lockout locks the account, and the right password then waits (429)', async () => {
    const policyId = await lockoutPolicy(3, 3600);
    const { account, session } = await staleSession({ policy: true, policy_id: policyId });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await post(session, '/api/v2/second-factors/totp', { current_password: `wrong ${attempt}` })).body.error.code).toBe('password.current_wrong');
    }
    const locked = await post(session, '/api/v2/second-factors/totp', { current_password: account.password });
    expect(locked.status).toBe(429);
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: account.username, password: account.password }, browser())).status).toBe(401);
  });

  it('tRPC: startTotp and passkeyRegistrationOptions take the password under confirmation; a passkey with recovery codes needs it', async () => {
    const { account, session } = await staleSession();
    for (const procedure of ['secondFactors.startTotp', 'secondFactors.passkeyRegistrationOptions']) {
      for (const input of [{}, { confirmation: {} }]) {
        expect(trpcError(await trpc(session, procedure, input)), procedure).toEqual({ status: 400, code: 'second_factor.reauthentication_required', fields: { current_password: [expect.any(String)] } });
      }
      expect(trpcError(await trpc(session, procedure, { confirmation: { current_password: 'wrong wrong' } }))).toEqual({ status: 400, code: 'password.current_wrong', fields: { current_password: ['Current password is wrong'] } });
    }
    const options = await trpc(session, 'secondFactors.passkeyRegistrationOptions', { confirmation: { current_password: account.password } });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const registered = await trpc(session, 'secondFactors.registerPasskey', { name: 'Phone', response: new SoftwareAuthenticator(origin).register(options.body.result.data.options) });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body.result.data.recovery_codes).toHaveLength(10);
    const started = await trpc(session, 'secondFactors.startTotp', { confirmation: { current_password: account.password } });
    expect(trpcError(started).code).toBe('second_factor.confirmation_required');
  });

  /** an account with a confirmed app (and ten recovery codes), under `overrides` */
  async function enrolled(overrides: Record<string, unknown> = {}) {
    const account = await createAccount(admin, overrides);
    const session = http(origin, await signIn(app.url, { username: account.username, password: account.password }));
    const started = await post(session, '/api/v2/second-factors/totp');
    const confirmed = await post(session, '/api/v2/second-factors/totp/confirm', { enrolment_id: started.body.data.enrolment_id, code: codeAt(started.body.data.secret, stepNow()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { account, secret: started.body.data.secret as string, recoveryCodes: confirmed.body.data.recovery_codes as string[] };
  }
  const firstStep = async (account: { username: string; password: string }) => {
    const first = await http(app.url).post('/api/v2/admin/authenticate', { username: account.username, password: account.password }, browser());
    expect(first.status).toBe(401);
    return first.body.second_factor.challenge as string;
  };

  it('REST: a challenge that opened a session opens no second one, and the second code stays unspent', async () => {
    const { account, recoveryCodes } = await enrolled();
    const challenge = await firstStep(account);
    const first = await http(app.url).post('/api/v2/admin/authenticate', { challenge, code: recoveryCodes[0] }, browser());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.recovery_codes_remaining).toBe(9);
    for (const path of ['/api/v2/admin/authenticate', '/api/v1/admin/authenticate']) {
      const again = await http(app.url).post(path, { challenge, code: recoveryCodes[1] }, browser());
      expect(again.status, path).toBe(401);
      expect(again.body.error.code).toBe('auth.second_factor_invalid');
    }
    // refused before the code was looked at: a new sign-in with it says 8 left
    const fresh = await http(app.url).post('/api/v2/admin/authenticate', { challenge: await firstStep(account), code: recoveryCodes[1] }, browser());
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.data.recovery_codes_remaining).toBe(8);
  });

  it('tRPC: completeSignIn with a spent challenge is refused; two steps racing with one challenge and two codes get one session', async () => {
    const { account, recoveryCodes } = await enrolled();
    const challenge = await firstStep(account);
    const once = await http(app.url).post('/trpc/auth.completeSignIn', { challenge, code: recoveryCodes[0] }, browser());
    expect(once.status, JSON.stringify(once.body)).toBe(200);
    const twice = await http(app.url).post('/trpc/auth.completeSignIn', { challenge, code: recoveryCodes[1] }, browser());
    expect(trpcError(twice)).toMatchObject({ status: 401, code: 'auth.second_factor_invalid' });

    const raced = await firstStep(account);
    const answers = await Promise.all([recoveryCodes[2], recoveryCodes[3], recoveryCodes[4]].map((code) => http(app.url).post('/trpc/auth.completeSignIn', { challenge: raced, code }, browser())));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401]);
  });

  it('six good recovery codes sent at once with one challenge (REST and tRPC): one session, and the five refused codes stay unused (review R24c, G4)', async () => {
    const { account, recoveryCodes } = await enrolled();
    const remainingAfter = async (code: string) => {
      const fresh = await http(app.url).post('/api/v2/admin/authenticate', { challenge: await firstStep(account), code }, browser());
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
      return fresh.body.data.recovery_codes_remaining as number;
    };
    const send = {
      rest: (challenge: string, code: string) => http(app.url).post('/api/v2/admin/authenticate', { challenge, code }, browser()),
      trpc: (challenge: string, code: string) => http(app.url).post('/trpc/auth.completeSignIn', { challenge, code }, browser()),
    };
    let left = 10;
    for (const via of ['rest', 'trpc'] as const) {
      // six codes still unused
      const codes = recoveryCodes.slice(0, 6);
      const challenge = await firstStep(account);
      const answers = await Promise.all(codes.map((code) => send[via](challenge, code)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200), `${via} ${JSON.stringify(statuses)}`).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      left -= 1;
      // a refused code is still good: the next sign-in with one of them counts one more used, no more
      const winner = codes[statuses.indexOf(200)];
      const loser = codes.find((code, index) => index !== statuses.indexOf(200))!;
      expect(await remainingAfter(loser), via).toBe(left - 1);
      left -= 1;
      recoveryCodes.splice(recoveryCodes.indexOf(winner), 1);
      recoveryCodes.splice(recoveryCodes.indexOf(loser), 1);
    }
    // a wrong code gives the challenge back: the right one after it, with the same challenge, signs in
    const challenge = await firstStep(account);
    expect((await send.rest(challenge, 'aaaa-bbbb-cccc-dddd')).status).toBe(401);
    expect((await send.rest(challenge, recoveryCodes[0])).status).toBe(200);
  });

  it('the wrong code that locks the account spends the challenge: after the lock it opens nothing', async () => {
    const policyId = await lockoutPolicy(2, 60);
    const { account, secret } = await enrolled({ policy: true, policy_id: policyId });
    const challenge = await firstStep(account);
    for (const wrong of ['111111', '222222']) expect((await http(app.url).post('/api/v2/admin/authenticate', { challenge, code: wrong }, browser())).body.error.code).toBe('auth.second_factor_invalid');
    // two minutes on: the lock (60 s) is over, the challenge (5 min) has not expired
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const afterLock = await http(app.url).post('/api/v2/admin/authenticate', { challenge, code: codeAt(secret, stepNow()) }, browser());
    expect(afterLock.status).toBe(401);
    expect(afterLock.body.error.code).toBe('auth.second_factor_invalid');
    // a new first step after the lock signs in
    const fresh = await http(app.url).post('/api/v2/admin/authenticate', { challenge: await firstStep(account), code: codeAt(secret, stepNow()) }, browser());
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
  });
});
