import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';

/** codes as an authenticator app computes them (the same library, independent of the server's use of it) */
const codeAt = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: step * 30_000 });
const stepNow = () => Math.floor(Date.now() / 30_000);

/**
 * Second factors end to end over the real app (docs/adr/0025): enrolment with a first code,
 * recovery codes, the two-step sign-in on REST v1/v2 and tRPC (and the clear error an old client
 * gets), replayed codes refused, the lockout counting wrong codes, a policy that makes an account
 * enrol before anything else, and an administrator's reset.
 */
describe.each(storageKinds())('second factors (%s)', (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof http>;
  beforeAll(async () => {
    app = await startTestApp(kind, { ROLLCALL_TRUSTED_PROXIES: 'loopback' });
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const credentials = async (client: ReturnType<typeof http>) => {
    const { username, password } = await createAccount(client);
    return { username, password };
  };

  let address = 0;
  /** each sign-in from an address of its own (X-Forwarded-For, believed from loopback here), so the throttle does not mix tests */
  const from = () => ({ 'x-forwarded-for': `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}` });

  /** an account with a confirmed authenticator app: its secret, recovery codes, a session, and the last step used */
  async function enrolled(overrides: Record<string, unknown> = {}) {
    const account = await createAccount(admin, overrides);
    const session = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    const started = await session.post('/api/v2/second-factors/totp');
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const enrolment = started.body.data as { enrolment_id: string; secret: string; otpauth_uri: string; qr_code: string };
    const step = stepNow();
    const confirmed = await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id: enrolment.enrolment_id, code: codeAt(enrolment.secret, step) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { account, session, secret: enrolment.secret, recoveryCodes: confirmed.body.data.recovery_codes as string[], lastStep: step };
  }

  it('enrols an authenticator app: a QR code and a secret shown once, pending until a first valid code, then ten recovery codes', async () => {
    const account = await createAccount(admin);
    const session = http(app.url, await signIn(app.url, { username: account.username, password: account.password }));
    const started = await session.post('/api/v2/second-factors/totp');
    expect(started.status).toBe(201);
    const { enrolment_id, secret, otpauth_uri, qr_code } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(`otpauth://totp/Rollcall:${encodeURIComponent(account.username)}?issuer=Rollcall&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    const pending = await session.get('/api/v2/second-factors');
    expect(pending.body.data).toEqual({ required: false, factors: [], totp_pending: true, recovery_codes: { remaining: 0, generated_at: null } });
    // the status answers no secret
    expect(JSON.stringify(pending.body)).not.toContain(secret);

    const wrongCode = codeAt(secret, stepNow() + 5);
    const wrong = await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id, code: wrongCode });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'second_factor.code_invalid', fields: { code: [expect.any(String)] } });
    const missing = await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.code).toEqual(['Code is required']);

    const confirmed = await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id, code: codeAt(secret, stepNow()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const codes = confirmed.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const status = (await session.get('/api/second-factors')).body.data;
    expect(status).toMatchObject({ required: false, totp_pending: false, factors: [{ kind: 'totp', enrolled_at: expect.any(String), last_used_at: null }], recovery_codes: { remaining: 10 } });
    // a second app beside the first is refused (before any confirmation is asked)
    expect((await session.post('/api/v2/second-factors/totp')).body.error.code).toBe('second_factor.totp_enrolled');
    expect((await session.post('/api/v2/second-factors/totp', { code: codes[0] })).body.error.code).toBe('second_factor.totp_enrolled');
    // an access token cannot enrol or read the own factors: a session can
    expect((await http(app.url).get('/api/v2/second-factors')).status).toBe(401);
  });

  it('asks every REST sign-in for the code: an old client gets 401 auth.second_factor_required and no session; the second step signs in; a used code is refused', async () => {
    const { account, secret, lastStep, recoveryCodes } = await enrolled();
    for (const path of ['/api/v1/admin/authenticate', '/api/v2/admin/authenticate', '/api/admin/authenticate']) {
      const first = await http(app.url).post(path, { username: account.username, password: account.password }, from());
      expect(first.status, path).toBe(401);
      expect(first.body.error).toEqual({ code: 'auth.second_factor_required', message: expect.stringContaining('second factor') });
      expect(first.body.second_factor).toEqual({ challenge: expect.any(String), methods: ['totp', 'recovery_code'], expires_at: expect.any(String) });
      expect(first.body.token, 'no token without the code').toBeUndefined();
      expect(first.headers.get('set-cookie'), 'no session cookie without the code').toBeNull();
    }
    const first = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from());
    const challenge = first.body.second_factor.challenge as string;
    const step = Math.max(stepNow(), lastStep) + 1;
    const code = codeAt(secret, step);
    const second = await http(app.url).post('/api/v1/admin/authenticate', { challenge, code }, from());
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(typeof second.body.token).toBe('string');
    expect((await http(app.url, second.body.token).get('/api/v1/account/current')).body.username_readable).toBe(account.username);

    // the same code again (RFC 6238 section 5.2), an earlier step's, a forged challenge: one answer
    const replay = await http(app.url).post('/api/v2/admin/authenticate', { challenge, code }, from());
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('auth.second_factor_invalid');
    expect((await http(app.url).post('/api/v2/admin/authenticate', { challenge, code: codeAt(secret, step - 1) }, from())).body.error.code).toBe('auth.second_factor_invalid');
    expect((await http(app.url).post('/api/v2/admin/authenticate', { challenge: `${challenge.slice(0, -3)}abc`, code: codeAt(secret, step + 1) }, from())).body.error.code).toBe('auth.second_factor_invalid');
    // the code with the password in one call
    const once = await http(app.url).post('/api/v2/admin/authenticate', { username: account.username, password: account.password, code: recoveryCodes[0] }, from());
    expect(once.status, JSON.stringify(once.body)).toBe(200);
    expect(typeof once.body.data.token).toBe('string');
    // a wrong password with a right-looking code is a wrong password
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: account.username, password: 'wrong wrong wrong', code: '123456' }, from())).body.error.code).toBe('auth.invalid_credentials');
  });

  it('signs in with a recovery code once, says how many remain, and regenerates a set that replaces the old', async () => {
    const { account, session, recoveryCodes } = await enrolled();
    const used = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password, code: recoveryCodes[3].toUpperCase() }, from());
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.recovery_codes_remaining).toBe(9);
    const again = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from());
    const reused = await http(app.url).post('/api/v1/admin/authenticate', { challenge: again.body.second_factor.challenge, code: recoveryCodes[3] }, from());
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('auth.second_factor_invalid');
    expect((await session.get('/api/v2/second-factors')).body.data.recovery_codes.remaining).toBe(9);

    // a new set asks for a current code first (docs/adr/0029)
    expect((await session.post('/api/v2/second-factors/recovery-codes')).body.error.code).toBe('second_factor.confirmation_required');
    const regenerated = await session.post('/api/v2/second-factors/recovery-codes', { code: recoveryCodes[5] });
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect((await session.get('/api/v2/second-factors')).body.data.recovery_codes.remaining).toBe(10);
    const old = await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password, code: recoveryCodes[0] }, from());
    expect(old.body.error.code, 'the old set is void').toBe('auth.second_factor_invalid');
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password, code: fresh[0] }, from())).status).toBe(200);
  });

  it('signs in over tRPC in two steps', async () => {
    const { account, recoveryCodes } = await enrolled();
    const first = await http(app.url).post('/trpc/auth.signIn', { username: account.username, password: account.password }, from());
    expect(first.status).toBe(200);
    const answer = first.body.result.data;
    expect(answer).toEqual({ status: 'second_factor_required', second_factor: { challenge: expect.any(String), methods: ['totp', 'recovery_code'], expires_at: expect.any(String) } });
    expect(first.headers.get('set-cookie')).toBeNull();
    const wrong = await http(app.url).post('/trpc/auth.completeSignIn', { challenge: answer.second_factor.challenge, code: '000000' }, from());
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.data.apiError.code).toBe('auth.second_factor_invalid');
    const second = await http(app.url).post('/trpc/auth.completeSignIn', { challenge: answer.second_factor.challenge, code: recoveryCodes[0] }, from());
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.result.data).toMatchObject({ status: 'signed_in', token: expect.any(String), recovery_codes_remaining: 9, account: { username_readable: account.username } });
  });

  it('counts wrong codes against the lockout: at the policy limit the right code no longer opens the account', async () => {
    const policy = await admin.post('/api/v2/policy', { title: `Two strikes ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 2, lockout_duration: 3600 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const { account, secret, lastStep } = await enrolled({ policy: true, policy_id: policy.body.data.id });
    const challengeOf = async () => (await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from())).body.second_factor.challenge as string;
    const challenge = await challengeOf();
    for (const wrong of ['111111', '222222']) expect((await http(app.url).post('/api/v1/admin/authenticate', { challenge, code: wrong }, from())).body.error.code).toBe('auth.second_factor_invalid');
    const right = await http(app.url).post('/api/v1/admin/authenticate', { challenge, code: codeAt(secret, Math.max(stepNow(), lastStep) + 1) }, from());
    expect(right.status).toBe(401);
    expect(right.body.error.code).toBe('auth.second_factor_invalid');
    // the account is locked: the password itself is refused now, like any locked account's
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from())).body.error.code).toBe('auth.invalid_credentials');
    // a refused sign-in answers without waiting for the read models: the event log shows its events soon after
    const historyTypes = async () => ((await admin.get(`/api/v2/audit/events?limit=100&stream=${encodeURIComponent(`account-${account.id}`)}`)).body.data.data as Array<{ type: string }>).map((event) => event.type);
    await expect.poll(historyTypes, { timeout: 10_000 }).toEqual(expect.arrayContaining(['SignInFailed', 'AccountLocked']));
  });

  it('leads an account whose policy requires a second factor to enrol before anything else, and keeps its last factor', async () => {
    const policy = await admin.post('/api/v2/policy', { title: `Second factor for all ${Date.now().toString(36)}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'all' });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const account = await createAccount(admin, { policy: true, policy_id: policy.body.data.id });
    const signedIn = await http(app.url).post('/api/v2/admin/authenticate', { username: account.username, password: account.password }, from());
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toEqual({ token: expect.any(String), second_factor_enrolment_required: true });
    const session = http(app.url, signedIn.body.data.token);
    // only enrolment, the own account and sign-out: everything else is refused with a code that says why
    for (const path of ['/api/v2/accounts', '/api/v1/policies', '/api/v2/account/' + account.id]) {
      const refused = await session.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code, path).toBe('auth.second_factor_enrolment_required');
    }
    expect((await session.get('/trpc/accounts.list')).body.error.data.apiError.code).toBe('auth.second_factor_enrolment_required');
    expect((await session.get('/trpc/auth.restrictions')).body.result.data).toEqual({ password_change_required: false, second_factor_enrolment_required: true });
    expect((await session.get('/api/v2/account/current')).status).toBe(200);
    expect((await session.get('/api/v2/second-factors')).body.data.required).toBe(true);

    const started = (await session.post('/api/v2/second-factors/totp')).body.data;
    const confirmed = await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: codeAt(started.secret, stepNow()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    // the same session is free now (an ordinary account: its own calls work, others need a permission)
    expect((await session.get('/trpc/auth.restrictions')).body.result.data.second_factor_enrolment_required).toBe(false);
    expect((await session.get('/api/v2/accounts')).body.error.code).toBe('auth.forbidden');
    // the policy requires one: the last may not go
    const removed = await session.raw('DELETE', '/api/v2/second-factors/totp');
    expect(removed.status).toBe(409);
    expect(removed.body.error.code).toBe('second_factor.required');
    // and the next sign-in asks for the code
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from())).body.error.code).toBe('auth.second_factor_required');
  });

  it('lets an organization administrator reset only accounts wholly within its organizations (docs/adr/0011), and the administrators-only rule ask it alone to enrol', async () => {
    const created = async (answer: Promise<{ status: number; body: { data?: { id: string }; id?: string } }>) => {
      const { status, body } = await answer;
      expect(status, JSON.stringify(body)).toBeLessThan(300);
      return body.data?.id ?? body.id!;
    };
    const unique = () => `${Date.now().toString(36)}${address++}`;
    const a = await created(admin.post('/api/v2/organization', { title: `SF A ${unique()}`, description: '', parent_id: null }));
    const b = await created(admin.post('/api/v2/organization', { title: `SF B ${unique()}`, description: '', parent_id: null }));
    const permissions = [];
    for (const slug of ['accounts:read', 'accounts:credentials']) permissions.push(await created(admin.post('/api/v2/permission', { organization_id: a, title: `P ${unique()}`, slug, description: '' })));
    const role = await created(admin.post(`/api/v2/organization/${a}/role`, { title: `R ${unique()}`, slug: `role-${unique()}`, description: '', permissions }));
    const policy = await created(admin.post('/api/v2/policy', { title: `Admins ${unique()}`, min_length: 6, min_strength: 0, lockout: 5, lockout_duration: 60, second_factor: 'administrators' }));
    const administrator = await createAccount(admin, { organization: a, policy: true, policy_id: policy });
    expect((await admin.post(`/api/v2/organization/${a}/account-role`, { account_id: administrator.id, role_id: role })).status).toBe(200);
    // the policy asks administrators only: this one must enrol, an ordinary account under it need not
    const signedIn = await http(app.url).post('/api/v2/admin/authenticate', { username: administrator.username, password: administrator.password }, from());
    expect(signedIn.body.data.second_factor_enrolment_required).toBe(true);
    const ordinary = await createAccount(admin, { organization: a, policy: true, policy_id: policy });
    expect((await http(app.url).post('/api/v2/admin/authenticate', { username: ordinary.username, password: ordinary.password }, from())).body.data).toEqual({ token: expect.any(String) });
    const restricted = http(app.url, signedIn.body.data.token);
    expect((await restricted.get(`/api/v2/account/${ordinary.id}/second-factors`)).body.error.code).toBe('auth.second_factor_enrolment_required');
    const started = (await restricted.post('/api/v2/second-factors/totp')).body.data;
    expect((await restricted.post('/api/v2/second-factors/totp/confirm', { enrolment_id: started.enrolment_id, code: codeAt(started.secret, stepNow()) })).status).toBe(200);
    // never its own account through the administrator's reset (no code, past the policy's last factor): its own page, with a current factor
    for (const prefix of ['/api/v2', '/api']) {
      const own = await restricted.post(`${prefix}/account/${administrator.id}/second-factors/reset`, { reason: 'x' });
      expect([own.status, own.body.error?.code], prefix).toEqual([403, 'second_factor.reset_own_account']);
    }
    const ownTrpc = await restricted.post('/trpc/secondFactors.reset', { id: administrator.id, reason: 'x' });
    expect([ownTrpc.status, ownTrpc.body.error?.data.apiError.code]).toEqual([403, 'second_factor.reset_own_account']);
    // nor the super administrator's own
    const superAdministrator = (await admin.get('/api/v2/account/current')).body.data.id as string;
    expect((await admin.post(`/api/v2/account/${superAdministrator}/second-factors/reset`, { reason: 'x' })).body.error?.code).toBe('second_factor.reset_own_account');
    expect((await restricted.get('/api/v2/second-factors')).body.data.factors).toEqual([expect.objectContaining({ kind: 'totp' })]);

    const inA = await createAccount(admin, { organization: a });
    const inBoth = await createAccount(admin, { organization: a });
    expect((await admin.post(`/api/v2/account/${inBoth.id}/associate/organization`, { organization_id: b })).status).toBe(201);
    const inB = await createAccount(admin, { organization: b });
    expect((await restricted.post(`/api/v2/account/${inA.id}/second-factors/reset`, { reason: 'Lost phone' })).status).toBe(200);
    expect((await restricted.get(`/trpc/secondFactors.ofAccount?input=${encodeURIComponent(JSON.stringify({ id: inA.id }))}`)).status).toBe(200);
    // shared with an organization outside its subtree: only its membership and roles are this administrator's
    const shared = await restricted.post(`/api/v2/account/${inBoth.id}/second-factors/reset`, { reason: 'Lost phone' });
    expect(shared.status).toBe(403);
    const sharedTrpc = await restricted.post('/trpc/secondFactors.reset', { id: inBoth.id, reason: 'Lost phone' });
    expect(sharedTrpc.status).toBe(403);
    // wholly outside: as if it did not exist
    expect((await restricted.post(`/api/v2/account/${inB.id}/second-factors/reset`, { reason: 'Lost phone' })).status).toBe(404);
    expect((await restricted.get(`/api/v2/account/${inB.id}/second-factors`)).status).toBe(404);
  });

  it('lets an administrator reset an account\'s second factors with a reason, recorded in its history; the owner may remove its own', async () => {
    const { account, session } = await enrolled();
    const ordinary = http(app.url, await signIn(app.url, await credentials(admin)));
    expect((await ordinary.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: 'x' })).status).toBe(403);
    const noReason = await admin.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toMatchObject({ code: 'second_factor.reason_required', fields: { reason: ['Give a reason for the reset'] } });
    expect((await admin.post(`/api/v2/account/00000000-0000-4000-8000-000000000000/second-factors/reset`, { reason: 'Lost phone' })).status).toBe(404);
    const reset = await admin.post(`/api/v2/account/${account.id}/second-factors/reset`, { reason: 'Lost phone' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await admin.get(`/api/v2/account/${account.id}/second-factors`)).body.data).toEqual({ required: false, factors: [], totp_pending: false, recovery_codes: { remaining: 0, generated_at: null } });
    const events = (await admin.get(`/api/v2/audit/events?limit=100&stream=${encodeURIComponent(`second-factors-${account.id}`)}`)).body.data.data as Array<{ type: string; data: Record<string, unknown> }>;
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['TotpEnrolmentStarted', 'TotpEnrolled', 'RecoveryCodesGenerated', 'SecondFactorsReset']));
    expect(events.find((event) => event.type === 'SecondFactorsReset')!.data).toMatchObject({ reason: 'Lost phone', accountId: account.id });
    // no secret read out: the sealed secret and the code hashes are redacted
    expect(events.find((event) => event.type === 'TotpEnrolmentStarted')!.data.sealedSecret).toBe('[redacted]');
    expect(events.find((event) => event.type === 'RecoveryCodesGenerated')!.data.codeHashes).toBe('[redacted]');
    // the password alone signs in again
    expect((await http(app.url).post('/api/v1/admin/authenticate', { username: account.username, password: account.password }, from())).status).toBe(200);

    // the owner's own removal (no policy requires one)
    const again = await session.post('/api/v2/second-factors/totp');
    const code = codeAt(again.body.data.secret, stepNow());
    expect((await session.post('/api/v2/second-factors/totp/confirm', { enrolment_id: again.body.data.enrolment_id, code })).status).toBe(200);
    // after a current code (the confirming code's step is spent: the next one)
    expect((await session.raw('DELETE', '/api/v2/second-factors/totp')).body.error.code).toBe('second_factor.confirmation_required');
    expect((await session.raw('DELETE', '/api/v2/second-factors/totp', { code: codeAt(again.body.data.secret, stepNow() + 1) })).status).toBe(200);
    expect((await session.get('/api/v2/second-factors')).body.data).toMatchObject({ factors: [], recovery_codes: { remaining: 0 } });
  });
});
